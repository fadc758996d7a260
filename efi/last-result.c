// SPDX-License-Identifier: GPL-2.0-or-later
// The record as text in last-result.txt (last-result.h). The text is a
// function of the record alone, so comparing it with the file says whether
// the record is new.
#include <efi.h>
#include <efilib.h>

#include "fmt.h"
#include "identity.h"
#include "last-result.h"
#include "volume.h"

#define DIR L"\\EFI\\ramsift"
#define PATH DIR L"\\last-result.txt"
// The header lines, a range line each, the two fold lines.
#define TEXT_MAX (4096 + RECORD_RANGES_MAX * 64 + 2 * BADRAM_LINE_MAX)

struct text {
	char *buf;
	size_t len;
	BOOLEAN cut;
};

static struct badram_result fold;
static char line[BADRAM_LINE_MAX];

static void add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = fmt_vsnprintf(t->buf + t->len, TEXT_MAX - t->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= TEXT_MAX - t->len)
		t->cut = TRUE;
	else
		t->len += (size_t)n;
}

static void add_head(struct text *t, const struct record *r)
{
	char id[IDENTITY_TEXT_MAX], date[32];

	record_result_line(line, sizeof(line), r);
	record_date_text(date, sizeof(date), &r->date);
	add(t, "# ramsift's last result, as ramsift-reserve.efi read it from the UEFI variable "
	       "RamsiftResult\n%s\ndate: %s\nmachine: %s\n", line, date,
	    identity_text(id, sizeof(id), r->manufacturer, r->product, r->serial, r->uuid_known,
			  r->uuid));
	if (r->pages_cut)
		add(t, "failing_pages: %llu, %llu of them in the %zu ranges below; GRUB_BADRAM= "
		       "covers them all\n", (unsigned long long)r->failing_pages,
		    (unsigned long long)record_listed_pages(r), r->nranges);
	else if (r->nranges > 0)
		add(t, "failing_pages: %llu, in the %zu ranges below\n",
		    (unsigned long long)r->failing_pages, r->nranges);
	else
		add(t, "failing_pages: 0\n");
	for (size_t i = 0; i < r->nranges; i++)
		add(t, "0x%llx-0x%llx (%llu pages)\n", (unsigned long long)r->range[i].start,
		    (unsigned long long)r->range[i].end - 1,
		    (unsigned long long)((r->range[i].end - r->range[i].start) / PAGE_SIZE));
}

// The run's own lines, from a fold of the record in memory of the
// firmware's. False (after saying why) when there is none to fold in.
static BOOLEAN add_fold(struct text *t, const struct record *r)
{
	size_t scratch_bytes = BADRAM_FOLD_SCRATCH_BYTES(RECORD_FOLD_SLOTS);
	uint64_t *slot = AllocatePool(RECORD_FOLD_SLOTS * sizeof(*slot));
	void *scratch = AllocatePool(scratch_bytes);
	BOOLEAN memmap_whole = FALSE;

	if (slot && scratch)
		memmap_whole = record_fold(r, slot, RECORD_FOLD_SLOTS, scratch, scratch_bytes, &fold);
	else
		Print(L"ramsift-reserve: out of memory folding RamsiftResult: %s not written\n", PATH);
	if (scratch)
		FreePool(scratch);
	if (slot)
		FreePool(slot);
	if (!slot || !scratch)
		return FALSE;
	add(t, "# GRUB_BADRAM= goes in /etc/default/grub (then run update-grub), memmap= on Linux's "
	       "command line (docs/badram.md)\n");
	badram_format_grub(line, sizeof(line), &fold);
	add(t, "%s\n", line);
	if (memmap_whole) {
		badram_format_memmap(line, sizeof(line), &fold);
		add(t, "%s\n", line);
	} else {
		add(t, "# no memmap= line: the record does not list every failing page\n");
	}
	return TRUE;
}

// Whether the file holds text[0..len) already.
static BOOLEAN same_there(EFI_FILE_HANDLE root, const struct text *t)
{
	UINTN cap = t->len + 1, len;
	char *old = AllocatePool(cap);
	BOOLEAN same;

	if (!old)
		return FALSE;
	same = volume_read(root, PATH, old, cap, &len) == EFI_SUCCESS && len == t->len &&
	       CompareMem(old, t->buf, len) == 0;
	FreePool(old);
	return same;
}

static void store(EFI_LOADED_IMAGE *me, const struct text *t)
{
	EFI_FILE_HANDLE root = volume_open(me);
	EFI_STATUS st;

	if (!root) {
		Print(L"ramsift-reserve: %s not written\n", PATH);
		return;
	}
	if (same_there(root, t)) {
		Print(L"ramsift-reserve: %s already holds this record: not rewritten\n", PATH);
		volume_close(root);
		return;
	}
	st = volume_write(root, DIR, PATH, t->buf, t->len);
	volume_close(root);
	if (EFI_ERROR(st))
		Print(L"ramsift-reserve: cannot write %s: %r (a read-only medium?): not written; the "
		      L"record stays in NVRAM\n", PATH, st);
	else
		Print(L"ramsift-reserve: wrote the record as text to %s (%ld bytes)\n", PATH,
		      (UINT64)t->len);
}

void last_result_write(EFI_LOADED_IMAGE *me, const struct record *r)
{
	struct text t = { .buf = AllocatePool(TEXT_MAX) };

	if (!t.buf) {
		Print(L"ramsift-reserve: out of memory for the text of RamsiftResult: %s not written\n",
		      PATH);
		return;
	}
	add_head(&t, r);
	if (r->nranges + r->npairs == 0 || add_fold(&t, r)) {
		if (t.cut)
			Print(L"ramsift-reserve: the text of RamsiftResult is longer than %ld bytes: %s "
			      L"not written\n", (UINT64)TEXT_MAX, PATH);
		else
			store(me, &t);
	}
	FreePool(t.buf);
}
