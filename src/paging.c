// SPDX-License-Identifier: GPL-2.0-or-later
// Identity map of all physical memory (SDM vol. 3, 4.5). Memory type comes
// from the MTRRs, which firmware sets to uncached for device memory, so one
// large write-back mapping over everything is safe.
#include <stdbool.h>

#include "cpu.h"
#include "io.h"
#include "log.h"
#include "paging.h"
#include "string.h"

#define PTE_P	(1ull << 0)
#define PTE_W	(1ull << 1)
#define PTE_PS	(1ull << 7)
#define GiB	(1ull << 30)
#define PAGE	4096ull
#define ENTRIES	512ull
#define BOOT_MAP_LIMIT (4 * GiB)

static uint64_t read_cr3(void)
{
	uint64_t v;
	__asm__ volatile("mov %%cr3, %0" : "=r"(v));
	return v;
}

uint64_t paging_map_all(struct memmap *mm, uint64_t top)
{
	bool huge = cpu_has_1g_pages();

	if (top > PAGING_IDENTITY_LIMIT) {
		log_warn("RAM above 128 TiB cannot be identity mapped with 4-level paging; "
			 "it is not tested");
		top = PAGING_IDENTITY_LIMIT;
	}
	top = (top + GiB - 1) & ~(GiB - 1);
	uint64_t gib = top / GiB;
	uint64_t npdpt = (gib + ENTRIES - 1) / ENTRIES;
	uint64_t npd = huge ? 0 : gib;
	uint64_t pages = 1 + npdpt + npd;

	uint64_t base = memmap_alloc(mm, pages * PAGE, BOOT_MAP_LIMIT, "page tables");
	if (base == 0) {
		log_warn("no free memory below 4 GiB for %llu page-table pages; only the first 4 GiB "
			 "are mapped and tested", (unsigned long long)pages);
		return 0;
	}
	uint64_t *pml4 = (uint64_t *)(uintptr_t)base;
	uint64_t *pdpt = pml4 + ENTRIES;
	uint64_t *pd = pdpt + npdpt * ENTRIES;
	mem_set(pml4, 0, pages * PAGE);

	for (uint64_t i = 0; i < npdpt; i++)
		pml4[i] = (uint64_t)(uintptr_t)(pdpt + i * ENTRIES) | PTE_P | PTE_W;
	for (uint64_t g = 0; g < gib; g++) {
		if (huge) {
			pdpt[g] = (g * GiB) | PTE_P | PTE_W | PTE_PS;
			continue;
		}
		pdpt[g] = (uint64_t)(uintptr_t)(pd + g * ENTRIES) | PTE_P | PTE_W;
		for (uint64_t m = 0; m < ENTRIES; m++)
			pd[g * ENTRIES + m] = (g * GiB + m * (2ull << 20)) | PTE_P | PTE_W | PTE_PS;
	}
	// Keep the kernel window (the top PML4 slot) exactly as entry.S built it.
	const uint64_t *boot_pml4 = (const uint64_t *)(uintptr_t)(read_cr3() & ~(PAGE - 1));
	pml4[ENTRIES - 1] = boot_pml4[ENTRIES - 1];
	write_cr3(base);
	log_info("paging: identity map 0-%llu GiB with %s pages, %llu page-table pages at 0x%llx",
		 (unsigned long long)gib, huge ? "1 GiB" : "2 MiB", (unsigned long long)pages,
		 (unsigned long long)base);
	return top;
}
