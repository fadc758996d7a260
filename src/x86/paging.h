// SPDX-License-Identifier: GPL-2.0-or-later
// Page tables: all physical memory identity mapped, and the kernel window at
// KERNEL_VMA (layout.h) mapped onto wherever the image lies.
#ifndef RAMSIFT_SRC_X86_PAGING_H
#define RAMSIFT_SRC_X86_PAGING_H

#include <stdint.h>

// Highest physical address the identity map can reach: the lower half of a
// 4-level address space, 128 TiB.
#define PAGING_IDENTITY_LIMIT (1ull << 47)

// Round top up to what paging_build() maps (1 GiB multiples, at most
// PAGING_IDENTITY_LIMIT), warning once if RAM lies beyond the limit.
uint64_t paging_clamp_top(uint64_t top);

// Bytes of page tables paging_build() needs for an identity map of [0, top):
// 1 GiB pages where the CPU has them, else 2 MiB pages.
uint64_t paging_table_bytes(uint64_t top);

// Write page tables at physical tables (paging_table_bytes(top) bytes, page
// aligned, reachable through the current map) that identity-map [0, top) and
// map the window onto image_bytes at image_phys. top must come from
// paging_clamp_top(). Load them with write_cr3(tables).
void paging_build(uint64_t tables, uint64_t top, uint64_t image_phys, uint64_t image_bytes);

#endif
