// SPDX-License-Identifier: GPL-2.0-or-later
// Page tables: all physical memory identity mapped, and the kernel window at
// KERNEL_VMA (layout.h) mapped onto wherever the image lies.
#ifndef RAMSIFT_SRC_X86_PAGING_H
#define RAMSIFT_SRC_X86_PAGING_H

#include <stdbool.h>
#include <stdint.h>

// Highest physical address the identity map can reach: the lower half of a
// 4-level address space, 128 TiB.
#define PAGING_IDENTITY_LIMIT (1ull << 47)

// Round top up to what paging_build() maps (1 GiB multiples, at most
// PAGING_IDENTITY_LIMIT), warning once if RAM lies beyond the limit.
uint64_t paging_clamp_top(uint64_t top);

// Make PAT entry 1 (the one a page with PWT alone selects) write-combining
// on this CPU. Every CPU must call it before it loads page tables that
// paging_build() wrote with a write-combining range (the SDM wants the same
// PAT on all CPUs). False, changing nothing, when the CPU has no PAT; then
// do not call paging_set_wc().
bool paging_pat_init(void);

// Ask every later paging_table_bytes() and paging_build() to map the
// physical range [start, end), widened to whole 4 KiB pages, write-combining
// (a framebuffer), with 4 KiB pages split out of the identity map. Requires
// paging_pat_init(). After loading the first such tables, flush the caches
// (wbinvd()): the range was mapped cacheable before.
void paging_set_wc(uint64_t start, uint64_t end);

// Device register blocks above RAM (the USB controllers') that may be
// mapped, one GiB each.
#define PAGING_DEVICE_GIBS 8

// Ask every later paging_table_bytes() and paging_build() to map the GiB
// holding physical address addr uncached when it lies at or above their
// top (below it the identity map covers it, the MTRRs giving its type).
// False when addr is past PAGING_IDENTITY_LIMIT or PAGING_DEVICE_GIBS
// GiBs were asked for already.
bool paging_add_device(uint64_t addr);

// Bytes of page tables paging_build() needs for an identity map of [0, top):
// 1 GiB pages where the CPU has them, else 2 MiB pages; and the tables that
// map the write-combining range and the device GiBs, if any.
uint64_t paging_table_bytes(uint64_t top);

// Write page tables at physical tables (paging_table_bytes(top) bytes, page
// aligned, reachable through the current map) that identity-map [0, top) and
// map the window onto image_bytes at image_phys, the write-combining range
// (the part below top) with 4 KiB pages of PAT entry 1, the device GiBs at
// or above top uncached. top must come from
// paging_clamp_top(). Load them with write_cr3(tables).
void paging_build(uint64_t tables, uint64_t top, uint64_t image_phys, uint64_t image_bytes);

#endif
