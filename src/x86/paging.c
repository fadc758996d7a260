// SPDX-License-Identifier: GPL-2.0-or-later
// Page tables (SDM vol. 3, 4.5): all RAM identity mapped write-back (the
// firmware's MTRRs make device memory uncached), device registers above
// it uncached through the page tables, the framebuffer
// write-combining through the PAT, which the MTRRs cannot override
// (12.5.2.2). ramsift changes PAT entry 1 (PWT alone) from WT to WC, as
// Linux does, and gives the framebuffer's pages PWT (SDM vol. 3A, 12.12;
// 11.12 before the 2023 edition). Why that is safe (12.12.4):
// entry 1 is in no page table before the change, so no cached line or
// translation has its type; every CPU sets the same PAT before it loads
// these tables; the framebuffer's pages are split out of the identity map,
// so none is mapped both WC and cacheable; and a WBINVD after the switch
// writes back what the boot tables' write-back mapping cached.
#include <stdbool.h>

#include "const.h"
#include "cpu.h"
#include "io.h"
#include "layout.h"
#include "log.h"
#include "paging.h"
#include "memstr.h"

// The window is PML4 slot KERNEL_WINDOW_PML4, PDPT slot KERNEL_WINDOW_PDPT,
// PD slots from 0, which needs KERNEL_VMA on a 1 GiB boundary, and one page
// directory of 2 MiB page tables.
_Static_assert(KERNEL_VMA % GiB == 0, "the window starts at PD slot 0");
_Static_assert(KERNEL_WINDOW_BYTES % LARGE_PAGE_SIZE == 0 && KERNEL_WINDOW_PTS <= PT_ENTRIES,
	       "the window is whole page tables in one page directory");

#define MSR_IA32_PAT	0x277
#define PAT_WC		0x01	// memory type encodings (12.12.2)
#define PAT_ENTRY_WC	1	// the entry PTE_PWT alone selects
#define CPUID1_EDX_PAT	(1u << 16)

// The page-aligned physical range to map write-combining; empty if start == end.
static uint64_t wc_start, wc_end;

// GiBs of device registers (their numbers: address / GiB) to map uncached
// where they lie at or above the identity map's top.
static uint64_t device_gib[PAGING_DEVICE_GIBS];
static unsigned ndevice_gibs;

bool paging_pat_init(void)
{
	uint32_t r[4];

	cpuid(1, 0, r);
	if (!(r[3] & CPUID1_EDX_PAT))
		return false;
	uint64_t pat = rdmsr(MSR_IA32_PAT);
	pat &= ~(0xffull << (8 * PAT_ENTRY_WC));
	pat |= (uint64_t)PAT_WC << (8 * PAT_ENTRY_WC);
	wrmsr(MSR_IA32_PAT, pat);
	return true;
}

void paging_set_wc(uint64_t start, uint64_t end)
{
	wc_start = start & ~(uint64_t)(PAGE_SIZE - 1);
	wc_end = (end + PAGE_SIZE - 1) & ~(uint64_t)(PAGE_SIZE - 1);
	if (wc_end <= wc_start)
		wc_start = wc_end = 0;
}

bool paging_add_device(uint64_t addr)
{
	uint64_t g = addr / GiB;

	if (addr >= PAGING_IDENTITY_LIMIT)
		return false;
	for (unsigned i = 0; i < ndevice_gibs; i++)
		if (device_gib[i] == g)
			return true;
	if (ndevice_gibs == PAGING_DEVICE_GIBS)
		return false;
	device_gib[ndevice_gibs++] = g;
	return true;
}

uint64_t paging_clamp_top(uint64_t top)
{
	if (top > PAGING_IDENTITY_LIMIT) {
		log_warn("RAM above 128 TiB cannot be identity mapped with 4-level paging; "
			 "it is not tested");
		top = PAGING_IDENTITY_LIMIT;
	}
	return (top + GiB - 1) & ~(GiB - 1);
}

// The device GiBs the identity map does not cover, and the end of the
// highest, or top.
static uint64_t devices_beyond(uint64_t top, uint64_t *end)
{
	uint64_t n = 0;

	*end = top;
	for (unsigned i = 0; i < ndevice_gibs; i++)
		if (device_gib[i] >= top / GiB) {
			n++;
			if ((device_gib[i] + 1) * GiB > *end)
				*end = (device_gib[i] + 1) * GiB;
		}
	return n;
}

// Page counts: PML4, PDPTs (the identity map's and the devices' beyond
// it), identity PDs (none with 1 GiB pages), then the window's PDPT, PD
// and page tables; at the end, with 2 MiB pages, one PD per device GiB.
static uint64_t identity_pdpts(uint64_t top)
{
	uint64_t end;
	devices_beyond(top, &end);
	return (end / GiB + PT_ENTRIES - 1) / PT_ENTRIES;
}
static uint64_t identity_pds(uint64_t top) { return cpu_has_1g_pages() ? 0 : top / GiB; }
static uint64_t device_pds(uint64_t top)
{
	uint64_t end;
	return cpu_has_1g_pages() ? 0 : devices_beyond(top, &end);
}

// The write-combining range needs a page table for every 2 MiB it touches
// and, with 1 GiB pages, a page directory for every GiB (the 1 GiB page it
// splits). Only what lies below top is mapped.
static uint64_t wc_pds(uint64_t top)
{
	if (wc_start == wc_end || wc_start >= top || identity_pds(top))
		return 0;
	uint64_t end = wc_end < top ? wc_end : top;
	return (end - 1) / GiB - wc_start / GiB + 1;
}

static uint64_t wc_pts(uint64_t top)
{
	if (wc_start == wc_end || wc_start >= top)
		return 0;
	uint64_t end = wc_end < top ? wc_end : top;
	return (end - 1) / LARGE_PAGE_SIZE - wc_start / LARGE_PAGE_SIZE + 1;
}

uint64_t paging_table_bytes(uint64_t top)
{
	return (1 + identity_pdpts(top) + identity_pds(top) + 2 + KERNEL_WINDOW_PTS + wc_pds(top) +
		wc_pts(top) + device_pds(top)) * PAGE_SIZE;
}

// Map each device GiB at or above top uncached (PCD and PWT: PAT entry 3,
// UC, which ramsift leaves as it is): a 1 GiB page, or a PD of 2 MiB pages
// from dpd on. Nothing else is there, so no page of RAM turns uncached.
static void map_devices(uint64_t top, uint64_t *pdpt, uint64_t *dpd)
{
	const uint64_t uc = PTE_P | PTE_W | PTE_PCD | PTE_PWT | PTE_PS;

	for (unsigned i = 0; i < ndevice_gibs; i++) {
		uint64_t g = device_gib[i];
		if (g < top / GiB)
			continue;
		if (cpu_has_1g_pages()) {
			pdpt[g] = (g * GiB) | uc;
			continue;
		}
		for (uint64_t m = 0; m < PT_ENTRIES; m++)
			dpd[m] = (g * GiB + m * LARGE_PAGE_SIZE) | uc;
		pdpt[g] = (uint64_t)(uintptr_t)dpd | PTE_P | PTE_W;
		dpd += PT_ENTRIES;
	}
}

// Map [wc_start, wc_end) with 4 KiB pages of PAT entry 1 (WC): each 2 MiB
// page that overlaps it becomes a page table whose other pages keep the
// identity map's type, each 1 GiB page that does a page directory of 2 MiB
// pages. pd is the identity map's page directories (none with 1 GiB pages);
// xpd and xpt the tables wc_pds() and wc_pts() counted.
static void map_wc(uint64_t top, uint64_t *pdpt, uint64_t *pd, uint64_t *xpd, uint64_t *xpt)
{
	uint64_t end = wc_end < top ? wc_end : top;
	uint64_t first_gib = wc_start / GiB;

	for (uint64_t a = wc_start & ~(LARGE_PAGE_SIZE - 1); a < end; a += LARGE_PAGE_SIZE) {
		uint64_t g = a / GiB;
		uint64_t *dir = pd ? pd + g * PT_ENTRIES : xpd + (g - first_gib) * PT_ENTRIES;
		if (!pd && (pdpt[g] & PTE_PS)) {
			for (uint64_t m = 0; m < PT_ENTRIES; m++)
				dir[m] = (g * GiB + m * LARGE_PAGE_SIZE) | PTE_P | PTE_W | PTE_PS;
			pdpt[g] = (uint64_t)(uintptr_t)dir | PTE_P | PTE_W;
		}
		for (uint64_t p = 0; p < PT_ENTRIES; p++) {
			uint64_t page = a + p * PAGE_SIZE;
			bool wc = page >= wc_start && page < wc_end;
			xpt[p] = page | PTE_P | PTE_W | (wc ? PTE_PWT : 0);
		}
		dir[(a % GiB) / LARGE_PAGE_SIZE] = (uint64_t)(uintptr_t)xpt | PTE_P | PTE_W;
		xpt += PT_ENTRIES;
	}
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

	uint64_t *xpd = wpt + KERNEL_WINDOW_PTS * PT_ENTRIES;
	if (wc_pts(top))
		map_wc(top, pdpt, huge ? NULL : pd, xpd, xpd + wc_pds(top) * PT_ENTRIES);
	map_devices(top, pdpt, xpd + (wc_pds(top) + wc_pts(top)) * PT_ENTRIES);
}
