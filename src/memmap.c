// SPDX-License-Identifier: GPL-2.0-or-later
// The loader's memory map: logged as the loader gave it, normalised (lib/range.c)
// into the usable RAM of a struct ram, and printed with what ramsift occupies.
#include "fmt.h"
#include "log.h"
#include "memmap.h"

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

bool memmap_init(struct ram *mm, const struct bootinfo *bi)
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

	mm->nusable = mmap_normalize(bi->mmap, bi->nmmap, mm->usable, RAM_RANGES_MAX, warn_entry, NULL);
	ram_release_all(mm);
	return mm->nusable > 0;
}

void memmap_print(const struct ram *mm)
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
