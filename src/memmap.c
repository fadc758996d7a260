// SPDX-License-Identifier: GPL-2.0-or-later
// The memory map as ramsift uses it: loader entries normalised by lib/range.c.
#include "fmt.h"
#include "log.h"
#include "memmap.h"
#include "page.h"

#define LOADER_ENTRIES_SHOWN 64

static const char *type_name(uint32_t type)
{
	static const char *const names[] = { "unknown", "usable", "reserved", "ACPI", "ACPI NVS", "bad" };
	return type < sizeof(names) / sizeof(names[0]) ? names[type] : names[0];
}

static void warn_entry(void *ctx, const struct mmap_entry *e, const char *why)
{
	(void)ctx;
	if (e)
		log_warn("memory map entry base=0x%llx length=0x%llx type=%u: %s",
			 (unsigned long long)e->base, (unsigned long long)e->len, e->type, why);
	else
		log_warn("memory map: %s", why);
}

bool memmap_init(struct memmap *mm, const struct bootinfo *bi)
{
	log_info("memory map from the loader (multiboot%s, %zu entries%s):",
		 bi->protocol == 2 ? "2" : "", bi->nmmap,
		 bi->from_meminfo ? ", built from mem_lower/mem_upper" : "");
	for (size_t i = 0; i < bi->nmmap && i < LOADER_ENTRIES_SHOWN; i++) {
		const struct mmap_entry *e = &bi->mmap[i];
		log_info("  0x%016llx-0x%016llx %s (type %u)", (unsigned long long)e->base,
			 (unsigned long long)(e->base + e->len - (e->len != 0)), type_name(e->type), e->type);
	}
	if (bi->nmmap > LOADER_ENTRIES_SHOWN)
		log_info("  ... %zu more entries not shown", bi->nmmap - LOADER_ENTRIES_SHOWN);

	mm->nusable = mmap_normalize(bi->mmap, bi->nmmap, mm->usable, MEMMAP_MAX, warn_entry, NULL);
	memmap_release_all(mm);
	return mm->nusable > 0;
}

void memmap_release_all(struct memmap *mm)
{
	for (size_t i = 0; i < mm->nusable; i++)
		mm->free[i] = mm->usable[i];
	mm->nfree = mm->nusable;
	mm->nowned = 0;
}

void memmap_claim(struct memmap *mm, struct range r, const char *what)
{
	r.start &= ~(PAGE_SIZE - 1);
	r.end = (r.end + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	mm->nfree = range_subtract(mm->free, mm->nfree, MEMMAP_MAX, r);
	if (mm->nowned < MEMMAP_OWNED_MAX)
		mm->owned[mm->nowned++] = (struct owned_range){ r, what };
}

uint64_t memmap_find(const struct memmap *mm, uint64_t bytes, uint64_t limit)
{
	bytes = (bytes + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	for (size_t i = mm->nfree; i-- > 0;) {
		struct range f = mm->free[i];
		uint64_t end = f.end < limit ? f.end : limit;
		if (end > f.start && end - f.start >= bytes)
			return end - bytes;
	}
	return 0;
}

uint64_t memmap_alloc(struct memmap *mm, uint64_t bytes, uint64_t limit, const char *what)
{
	uint64_t start = memmap_find(mm, bytes, limit);
	if (start != 0)
		memmap_claim(mm, (struct range){ start, start + bytes }, what);
	return start;
}

void memmap_print(const struct memmap *mm)
{
	char size[FMT_SIZE_LEN];

	log_info("usable RAM: %zu ranges, %s (%llu bytes)", mm->nusable,
		 fmt_size(size, range_total(mm->usable, mm->nusable)),
		 (unsigned long long)range_total(mm->usable, mm->nusable));
	for (size_t i = 0; i < mm->nusable; i++)
		log_info("  usable 0x%016llx-0x%016llx %s", (unsigned long long)mm->usable[i].start,
			 (unsigned long long)(mm->usable[i].end - 1),
			 fmt_size(size, mm->usable[i].end - mm->usable[i].start));
	for (size_t i = 0; i < mm->nowned; i++)
		log_info("  ramsift occupies 0x%016llx-0x%016llx %s: %s", (unsigned long long)mm->owned[i].r.start,
			 (unsigned long long)(mm->owned[i].r.end - 1),
			 fmt_size(size, mm->owned[i].r.end - mm->owned[i].r.start), mm->owned[i].what);
}
