// SPDX-License-Identifier: GPL-2.0-or-later
// Page tables (SDM vol. 3, 4.5). Memory type comes from the MTRRs, which
// firmware sets to uncached for device memory, so one large write-back
// mapping over everything is safe.
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
#define MiB2	(2ull << 20)
#define PAGE	4096ull
#define ENTRIES	512ull
#define WINDOW_PML4	511	// 0xffffffff80000000: PML4 slot 511,
#define WINDOW_PDPT	510	// PDPT slot 510, PD slot 0
#define WINDOW_PTS	(PAGING_WINDOW_BYTES / MiB2)

uint64_t paging_clamp_top(uint64_t top)
{
	if (top > PAGING_IDENTITY_LIMIT) {
		log_warn("RAM above 128 TiB cannot be identity mapped with 4-level paging; "
			 "it is not tested");
		top = PAGING_IDENTITY_LIMIT;
	}
	return (top + GiB - 1) & ~(GiB - 1);
}

// Page counts: PML4, identity PDPTs, identity PDs (none with 1 GiB pages),
// then the window's PDPT, PD and page tables.
static uint64_t identity_pdpts(uint64_t top) { return (top / GiB + ENTRIES - 1) / ENTRIES; }
static uint64_t identity_pds(uint64_t top) { return cpu_has_1g_pages() ? 0 : top / GiB; }

uint64_t paging_table_bytes(uint64_t top)
{
	return (1 + identity_pdpts(top) + identity_pds(top) + 2 + WINDOW_PTS) * PAGE;
}

void paging_build(uint64_t tables, uint64_t top, uint64_t image_phys, uint64_t image_bytes)
{
	uint64_t *pml4 = (uint64_t *)(uintptr_t)tables;
	uint64_t *pdpt = pml4 + ENTRIES;
	uint64_t *pd = pdpt + identity_pdpts(top) * ENTRIES;
	uint64_t *wpdpt = pd + identity_pds(top) * ENTRIES;
	uint64_t *wpd = wpdpt + ENTRIES;
	uint64_t *wpt = wpd + ENTRIES;
	uint64_t gib = top / GiB;
	bool huge = identity_pds(top) == 0;

	mem_set(pml4, 0, paging_table_bytes(top));
	for (uint64_t i = 0; i < identity_pdpts(top); i++)
		pml4[i] = (uint64_t)(uintptr_t)(pdpt + i * ENTRIES) | PTE_P | PTE_W;
	for (uint64_t g = 0; g < gib; g++) {
		if (huge) {
			pdpt[g] = (g * GiB) | PTE_P | PTE_W | PTE_PS;
			continue;
		}
		pdpt[g] = (uint64_t)(uintptr_t)(pd + g * ENTRIES) | PTE_P | PTE_W;
		for (uint64_t m = 0; m < ENTRIES; m++)
			pd[g * ENTRIES + m] = (g * GiB + m * MiB2) | PTE_P | PTE_W | PTE_PS;
	}

	pml4[WINDOW_PML4] = (uint64_t)(uintptr_t)wpdpt | PTE_P | PTE_W;
	wpdpt[WINDOW_PDPT] = (uint64_t)(uintptr_t)wpd | PTE_P | PTE_W;
	for (uint64_t i = 0; i < WINDOW_PTS; i++)
		wpd[i] = (uint64_t)(uintptr_t)(wpt + i * ENTRIES) | PTE_P | PTE_W;
	for (uint64_t p = 0; p < image_bytes / PAGE; p++)
		wpt[p] = (image_phys + p * PAGE) | PTE_P | PTE_W;
}
