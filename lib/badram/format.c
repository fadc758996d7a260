// SPDX-License-Identifier: GPL-2.0-or-later
// Formatting of fold results (see format.h), through fmt_snprintf
// into the caller's buffer; a line is built piece by piece, each piece
// appended at the length so far (clamped to the buffer).
#include <stdarg.h>

#include "badram/badram.h"
#include "badram/holes.h"
#include "fmt.h"

struct line {
	char *buf;
	size_t len;
	size_t used;            // bytes the whole line needs so far
};

__attribute__((format(printf, 2, 3)))
static void put(struct line *l, const char *f, ...)
{
	size_t at = l->used < l->len ? l->used : (l->len ? l->len - 1 : 0);
	va_list ap;

	va_start(ap, f);
	int n = fmt_vsnprintf(l->len ? l->buf + at : NULL, l->len ? l->len - at : 0,
			      f, ap);
	va_end(ap);
	if (n > 0)
		l->used += (size_t)n;
}

static void put_pairs(struct line *l, const struct badram_result *r)
{
	for (unsigned k = 0; k < r->npairs; k++)
		put(l, "%s0x%llx,0x%llx", k ? "," : "",
		    (unsigned long long)r->pair[k].addr,
		    (unsigned long long)r->pair[k].mask);
}

static int done(struct line *l)
{
	if (l->len > 0 && l->used < l->len)
		l->buf[l->used] = '\0';
	return (int)l->used;
}

int badram_format_badram(char *buf, size_t len, const struct badram_result *r)
{
	struct line l = { buf, len, 0 };

	put(&l, "badram=");
	put_pairs(&l, r);
	return done(&l);
}

int badram_format_grub(char *buf, size_t len, const struct badram_result *r)
{
	struct line l = { buf, len, 0 };

	put(&l, "GRUB_BADRAM=\"");
	put_pairs(&l, r);
	put(&l, "\"");
	return done(&l);
}

int badram_format_memmap(char *buf, size_t len, const struct badram_result *r)
{
	struct line l = { buf, len, 0 };

	put(&l, "%s", HOLES_PREFIX);
	for (size_t i = 0; i < r->nmemmap; i++) {
		struct holes_size s = holes_size_of(r->memmap[i].end - r->memmap[i].start);
		put(&l, "%s%llu%c$0x%llx", i ? "," : "", (unsigned long long)s.value,
		    s.unit, (unsigned long long)r->memmap[i].start);
	}
	return done(&l);
}

bool badram_replace_advised(const struct badram_result *r)
{
	return r->ram_pages > 0 &&
	       (r->failing_pages * 100 >= r->ram_pages ||
		(r->limit != BADRAM_LIMIT_NONE &&
		 r->sacrificed_pages * 100 >= r->ram_pages));
}

int badram_format_summary(char *buf, size_t len, const struct badram_result *r)
{
	struct line l = { buf, len, 0 };
	char size[FMT_SIZE_LEN];
	uint64_t permille = r->ram_pages ? r->sacrificed_pages * 1000 / r->ram_pages : 0;

	put(&l, "fold: failing_pages=%llu pairs=%u holes=%llu excluded_pages=%llu "
	    "sacrificed_pages=%llu (%s",
	    (unsigned long long)r->failing_pages, r->npairs,
	    (unsigned long long)r->holes, (unsigned long long)r->excluded_pages,
	    (unsigned long long)r->sacrificed_pages,
	    fmt_size(size, r->sacrificed_pages << PAGE_SHIFT));
	if (r->sacrificed_pages > 0)
		put(&l, ", %llu.%llu%% of RAM", (unsigned long long)permille / 10,
		    (unsigned long long)permille % 10);
	put(&l, ")");
	switch (r->limit) {
	case BADRAM_LIMIT_NONE:
		put(&l, ": exact");
		break;
	case BADRAM_LIMIT_PAIRS:
		put(&l, ": limited by patterns=%u", r->pairs_budget);
		break;
	case BADRAM_LIMIT_HOLES:
		put(&l, ": limited by holes=%u (an exact cover needs %llu holes)",
		    r->holes_budget, (unsigned long long)r->exact_holes);
		break;
	}
	if (!r->grub_safe)
		put(&l, "; GRUB 2.06 on BIOS may skip some pairs: use memmap= there");
	if (r->overflow)
		put(&l, "; more failing pages than the table holds, some covered coarsely");
	if (r->degraded)
		put(&l, "; fold scratch too small, one coarse pair");
	if (r->memmap_kaslr)
		put(&l, "; memmap= kept to %d ranges so Linux's KASLR stays on "
		    "(reserves %s of good RAM)", HOLES_LINUX_MAX_MEMMAP_REGIONS,
		    fmt_size(size, r->memmap_sacrificed << PAGE_SHIFT));
	if (badram_replace_advised(r))
		put(&l, "; failures too many or too scattered to exclude tightly: replace the module");
	return done(&l);
}

int badram_format_windows(char *buf, size_t len, const uint64_t *pages, size_t n, size_t *listed)
{
	struct line l = { buf, len, 0 };
	char pfn[24];

	put(&l, "%s", BADRAM_WINDOWS_LIST);
	*listed = 0;
	for (size_t i = 0; i < n; i++) {
		int w = fmt_snprintf(pfn, sizeof(pfn), " 0x%llx",
				     (unsigned long long)(pages[i] >> PAGE_SHIFT));
		if (l.used + (size_t)w > BADRAM_WINDOWS_LINE_MAX)
			break;
		put(&l, "%s", pfn);
		(*listed)++;
	}
	return done(&l);
}

int badram_format_offline(char *buf, size_t len, uint64_t page)
{
	struct line l = { buf, len, 0 };

	put(&l, "echo 0x%llx > %s", (unsigned long long)page, BADRAM_OFFLINE_FILE);
	return done(&l);
}
