// SPDX-License-Identifier: GPL-2.0-or-later
// RamsiftResult read and checked (record_read.h). The checks, in order: the
// variable's size (before reading it), the record's own (format, CRC,
// every field: record_decode), the machine, the result, the ranges against
// the map, the half-RAM bound; the first to fail says why and ends them.
#include <efi.h>
#include <efilib.h>

#include "identity.h"
#include "record_read.h"
#include "take.h"

#define VAR_NAME (L"" RECORD_VAR_NAME)
#define MIB(bytes) ((bytes) >> 20)

static union {
	UINT8 bytes[16];
	EFI_GUID guid;
} var_guid = { .bytes = RECORD_GUID_BYTES };

static UINT8 var[RECORD_MAX_BYTES];
static struct record rec;
static struct smbios_info machine;
static struct reserve_pair rec_pair[BADRAM_MAX_PAIRS];

// The variable into var[0..*len). False (after one line saying why) when
// there is none, it cannot be read or it is too large to be a record,
// which is then not read at all.
static BOOLEAN read_var(UINTN *len)
{
	UINT32 attributes;
	UINTN size = 0;
	EFI_STATUS st = uefi_call_wrapper(RT->GetVariable, 5, VAR_NAME, &var_guid.guid, &attributes,
					  &size, NULL);

	if (st == EFI_NOT_FOUND) {
		Print(L"ramsift-reserve: no RamsiftResult variable: no ramsift record to apply\n");
		return FALSE;
	}
	if (st == EFI_BUFFER_TOO_SMALL && size > RECORD_MAX_BYTES) {
		Print(L"ramsift-reserve: RamsiftResult holds %ld bytes, more than a record's %d: not "
		      L"read, nothing reserved from it; run ramsift again to replace it\n",
		      (UINT64)size, RECORD_MAX_BYTES);
		return FALSE;
	}
	if (st == EFI_BUFFER_TOO_SMALL)
		st = uefi_call_wrapper(RT->GetVariable, 5, VAR_NAME, &var_guid.guid, &attributes, &size,
				       var);
	if (EFI_ERROR(st)) {
		Print(L"ramsift-reserve: cannot read RamsiftResult: %r; nothing reserved from it\n", st);
		return FALSE;
	}
	*len = size;
	return TRUE;
}

static BOOLEAN decoded(UINTN len)
{
	size_t at;
	enum record_error e = record_decode(&rec, var, len, &at);

	if (e == RECORD_OK)
		return TRUE;
	Print(L"ramsift-reserve: RamsiftResult is not a valid record, at byte %ld of %ld: %a; "
	      L"nothing reserved from it; run ramsift again to replace it\n", (UINT64)at, (UINT64)len,
	      record_error_text(e));
	return FALSE;
}

static void say_what_it_is(void)
{
	char date[32];

	record_date_text(date, sizeof(date), &rec.date);
	if (rec.nranges == 0)
		Print(L"ramsift-reserve: RamsiftResult: %a on %a\n", status_result_name(rec.result),
		      date);
	else
		Print(L"ramsift-reserve: RamsiftResult: %a on %a, %ld pages in %ld ranges\n",
		      status_result_name(rec.result), date, record_listed_pages(&rec),
		      (UINT64)rec.nranges);
}

static BOOLEAN this_machines(const struct map *m)
{
	char theirs[IDENTITY_TEXT_MAX], mine[IDENTITY_TEXT_MAX];

	if (!identity_read(m, &machine))
		return FALSE;
	if (record_same_machine(&rec, &machine))
		return TRUE;
	Print(L"ramsift-reserve: RamsiftResult was written on another machine, %a; this one is %a: "
	      L"nothing reserved from it; run ramsift on this machine to replace it\n",
	      identity_text(theirs, sizeof(theirs), rec.manufacturer, rec.product, rec.serial,
			    rec.uuid_known, rec.uuid),
	      identity_text(mine, sizeof(mine), machine.manufacturer, machine.product,
			    machine.serial, machine.uuid_known, machine.uuid));
	return FALSE;
}

// Whether the record names pages to reserve.
static BOOLEAN lists_pages(void)
{
	char date[32];

	if (rec.nranges > 0 || rec.npairs > 0)
		return TRUE;
	record_date_text(date, sizeof(date), &rec.date);
	if (rec.result == RESULT_PASS)
		Print(L"ramsift-reserve: the last run passed on %a: nothing reserved from RamsiftResult\n",
		      date);
	else
		Print(L"ramsift-reserve: the last run ended %a on %a having found no failing page: "
		      L"nothing reserved from RamsiftResult; run ramsift to the end for a result\n",
		      status_result_name(rec.result), date);
	return FALSE;
}

static BOOLEAN ranges_in_ram(const struct map *m)
{
	for (size_t i = 0; i < rec.nranges; i++) {
		const struct range *r = &rec.range[i];
		if (map_holds(m, r->start, r->end, TRUE))
			continue;
		Print(L"ramsift-reserve: RamsiftResult's range 0x%lx-0x%lx is not RAM in the "
		      L"firmware's memory map: nothing reserved from the record; was the memory "
		      L"changed since? run ramsift again\n", r->start, r->end - 1);
		return FALSE;
	}
	return TRUE;
}

// A page both the record and the pairs hold is counted twice, as
// overlapping pairs are: the bound refuses nothing a careful count allows
// by more than that.
static BOOLEAN under_half(const struct map *m, UINT64 file_bytes)
{
	size_t n = nvram_pairs(&rec, rec_pair);
	UINT64 bytes = record_listed_pages(&rec) * MAP_PAGE + take_matched_bytes(m, rec_pair, n);

	if (file_bytes + bytes <= m->ram_bytes / 2)
		return TRUE;
	Print(L"ramsift-reserve: RamsiftResult's pages (%ld MiB) and those the pairs of badpages.txt "
	      L"and the load options match (%ld MiB) are more than half of the %ld MiB of RAM: "
	      L"nothing reserved from the record; replace the failing memory\n", MIB(bytes),
	      MIB(file_bytes), MIB(m->ram_bytes));
	return FALSE;
}

static void say_cut(void)
{
	if (rec.pages_cut)
		Print(L"ramsift-reserve: RamsiftResult lists %ld of the %ld failing pages; its %d pairs "
		      L"cover the rest: the pages they match are reserved too\n",
		      record_listed_pages(&rec), rec.failing_pages, rec.npairs);
}

const struct record *nvram_load(const struct map *m, UINT64 file_bytes, BOOLEAN *reserve)
{
	UINTN len;

	*reserve = FALSE;
	if (!read_var(&len) || !decoded(len))
		return NULL;
	say_what_it_is();
	if (!this_machines(m))
		return NULL;
	if (lists_pages() && ranges_in_ram(m) && under_half(m, file_bytes)) {
		say_cut();
		*reserve = TRUE;
	}
	return &rec;
}

size_t nvram_pairs(const struct record *r, struct reserve_pair *out)
{
	for (unsigned k = 0; k < r->npairs; k++) {
		UINT64 mask = r->pair[k].mask & ~(MAP_PAGE - 1);
		out[k] = (struct reserve_pair){ r->pair[k].addr & mask, mask };
	}
	return r->npairs;
}
