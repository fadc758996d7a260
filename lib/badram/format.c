// SPDX-License-Identifier: GPL-2.0-or-later
// Formatting of fold results (see badram.h): each line is built piece by
// piece in the caller's buffer (fmt_text_put).
#include "badram/badram.h"
#include "badram/holes.h"
#include "fmt.h"

static void put_pairs(struct fmt_text *l, const struct badram_result *r)
{
	for (unsigned k = 0; k < r->npairs; k++)
		fmt_text_put(l, "%s0x%llx,0x%llx", k ? "," : "",
		             (unsigned long long)r->pair[k].addr,
		             (unsigned long long)r->pair[k].mask);
}

int badram_format_badram(char *buf, size_t len, const struct badram_result *r)
{
	struct fmt_text l = fmt_text_start(buf, len);

	fmt_text_put(&l, "badram=");
	put_pairs(&l, r);
	return (int)l.used;
}

int badram_format_grub(char *buf, size_t len, const struct badram_result *r)
{
	struct fmt_text l = fmt_text_start(buf, len);

	fmt_text_put(&l, "GRUB_BADRAM=\"");
	put_pairs(&l, r);
	fmt_text_put(&l, "\"");
	return (int)l.used;
}

int badram_format_memmap(char *buf, size_t len, const struct badram_result *r)
{
	struct fmt_text l = fmt_text_start(buf, len);

	fmt_text_put(&l, "%s", HOLES_PREFIX);
	for (size_t i = 0; i < r->nmemmap; i++) {
		struct holes_size s = holes_size_of(r->memmap[i].end - r->memmap[i].start);
		fmt_text_put(&l, "%s%llu%c$0x%llx", i ? "," : "", (unsigned long long)s.value,
		             s.unit, (unsigned long long)r->memmap[i].start);
	}
	return (int)l.used;
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
	struct fmt_text l = fmt_text_start(buf, len);
	char size[FMT_SIZE_LEN];
	uint64_t permille = r->ram_pages ? r->sacrificed_pages * 1000 / r->ram_pages : 0;

	fmt_text_put(&l, "fold: failing_pages=%llu pairs=%u holes=%llu excluded_pages=%llu "
	             "sacrificed_pages=%llu (%s",
	             (unsigned long long)r->failing_pages, r->npairs,
	             (unsigned long long)r->holes, (unsigned long long)r->excluded_pages,
	             (unsigned long long)r->sacrificed_pages,
	             fmt_size(size, r->sacrificed_pages << PAGE_SHIFT));
	if (r->sacrificed_pages > 0)
		fmt_text_put(&l, ", %llu.%llu%% of RAM", (unsigned long long)permille / 10,
		             (unsigned long long)permille % 10);
	fmt_text_put(&l, ")");
	switch (r->limit) {
	case BADRAM_LIMIT_NONE:
		fmt_text_put(&l, ": exact");
		break;
	case BADRAM_LIMIT_PAIRS:
		fmt_text_put(&l, ": limited by patterns=%u", r->pairs_budget);
		break;
	case BADRAM_LIMIT_HOLES:
		fmt_text_put(&l, ": limited by holes=%u (an exact cover needs %llu holes)",
		             r->holes_budget, (unsigned long long)r->exact_holes);
		break;
	}
	if (!r->grub_safe)
		fmt_text_put(&l, "; GRUB 2.06 on BIOS may skip some pairs: use memmap= there");
	if (r->overflow)
		fmt_text_put(&l, "; more failing pages than the table holds, some covered coarsely");
	if (r->degraded)
		fmt_text_put(&l, "; fold scratch too small, one coarse pair");
	if (r->memmap_kaslr)
		fmt_text_put(&l, "; memmap= kept to %d ranges so Linux's KASLR stays on "
		             "(reserves %s of good RAM)", HOLES_LINUX_MAX_MEMMAP_REGIONS,
		             fmt_size(size, r->memmap_sacrificed << PAGE_SHIFT));
	if (badram_replace_advised(r))
		fmt_text_put(&l, "; failures too many or too scattered to exclude tightly: replace the module");
	return (int)l.used;
}

int badram_format_windows(char *buf, size_t len, const uint64_t *pages, size_t n, size_t *listed)
{
	struct fmt_text l = fmt_text_start(buf, len);
	char pfn[24];

	fmt_text_put(&l, "%s", BADRAM_WINDOWS_LIST);
	*listed = 0;
	for (size_t i = 0; i < n; i++) {
		int w = fmt_snprintf(pfn, sizeof(pfn), " 0x%llx",
				     (unsigned long long)(pages[i] >> PAGE_SHIFT));
		if (l.used + (size_t)w > BADRAM_WINDOWS_LINE_MAX)
			break;
		fmt_text_put(&l, "%s", pfn);
		(*listed)++;
	}
	return (int)l.used;
}

int badram_format_offline(char *buf, size_t len, uint64_t page)
{
	struct fmt_text l = fmt_text_start(buf, len);

	fmt_text_put(&l, "echo 0x%llx > %s", (unsigned long long)page, BADRAM_OFFLINE_FILE);
	return (int)l.used;
}
