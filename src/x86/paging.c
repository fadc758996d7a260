// SPDX-License-Identifier: GPL-2.0-or-later
// Page tables (SDM vol. 3, 4.5). Memory type comes from the MTRRs, which
// firmware sets to uncached for device memory, so one large write-back
// mapping over everything is safe.
#include <stdbool.h>

#include "cpu.h"
#include "io.h"
#include "layout.h"
#include "log.h"
#include "paging.h"
#include "string.h"

#define GiB	(1ull << 30)

// The window is PML4 slot KERNEL_WINDOW_PML4, PDPT slot KERNEL_WINDOW_PDPT,
// PD slots from 0, which needs KERNEL_VMA on a 1 GiB boundary, and one page
// directory of 2 MiB page tables.
_Static_assert(KERNEL_VMA % GiB == 0, "the window starts at PD slot 0");
_Static_assert(KERNEL_WINDOW_BYTES % LARGE_PAGE_SIZE == 0 && KERNEL_WINDOW_PTS <= PT_ENTRIES,
	       "the window is whole page tables in one page directory");

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
static uint64_t identity_pdpts(uint64_t top) { return (top / GiB + PT_ENTRIES - 1) / PT_ENTRIES; }
static uint64_t identity_pds(uint64_t top) { return cpu_has_1g_pages() ? 0 : top / GiB; }

uint64_t paging_table_bytes(uint64_t top)
{
	return (1 + identity_pdpts(top) + identity_pds(top) + 2 + KERNEL_WINDOW_PTS) * PAGE_SIZE;
}

void paging_build(uint64_t tables, uint64_t top, uint64_t image_phys, uint64_t image_bytes)
{
	uint64_t *pml4 = (uint64_t *)(uintptr_t)tables;
	uint64_t *pdpt = pml4 + PT_ENTRIES;
	uint64_t *pd = pdpt + identity_pdpts(top) * PT_ENTRIES;
	uint64_t *wpdpt = pd + identity_pds(top) * PT_ENTRIES;
	uint64_t *wpd = wpdpt + PT_ENTRIES;
	uint64_t *wpt = wpd + PT_ENTRIES;
	uint64_t gib = top / GiB;
	bool huge = identity_pds(top) == 0;

	mem_set(pml4, 0, paging_table_bytes(top));
	for (uint64_t i = 0; i < identity_pdpts(top); i++)
		pml4[i] = (uint64_t)(uintptr_t)(pdpt + i * PT_ENTRIES) | PTE_P | PTE_W;
	for (uint64_t g = 0; g < gib; g++) {
		if (huge) {
			pdpt[g] = (g * GiB) | PTE_P | PTE_W | PTE_PS;
			continue;
		}
		pdpt[g] = (uint64_t)(uintptr_t)(pd + g * PT_ENTRIES) | PTE_P | PTE_W;
		for (uint64_t m = 0; m < PT_ENTRIES; m++)
			pd[g * PT_ENTRIES + m] = (g * GiB + m * LARGE_PAGE_SIZE) | PTE_P | PTE_W | PTE_PS;
	}

	pml4[KERNEL_WINDOW_PML4] = (uint64_t)(uintptr_t)wpdpt | PTE_P | PTE_W;
	wpdpt[KERNEL_WINDOW_PDPT] = (uint64_t)(uintptr_t)wpd | PTE_P | PTE_W;
	for (uint64_t i = 0; i < KERNEL_WINDOW_PTS; i++)
		wpd[i] = (uint64_t)(uintptr_t)(wpt + i * PT_ENTRIES) | PTE_P | PTE_W;
	for (uint64_t p = 0; p < image_bytes / PAGE_SIZE; p++)
		wpt[p] = (image_phys + p * PAGE_SIZE) | PTE_P | PTE_W;
}
