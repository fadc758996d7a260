// SPDX-License-Identifier: GPL-2.0-or-later
// The final page tables: all physical memory identity mapped, plus the kernel
// window the boot code set up.
#ifndef RAMSIFT_SRC_PAGING_H
#define RAMSIFT_SRC_PAGING_H

#include <stdint.h>

#include "memmap.h"

// Highest physical address the identity map can reach: the lower half of a
// 4-level address space, 128 TiB.
#define PAGING_IDENTITY_LIMIT (1ull << 47)

// Identity map [0, top) (top rounded up to 1 GiB, at most
// PAGING_IDENTITY_LIMIT) with 1 GiB pages where the CPU has them, else 2 MiB
// pages, keeping the kernel window, and switch to it. The tables come from
// free RAM below 4 GiB (the boot tables map only that much) and are claimed in
// mm. Returns the address actually covered, or 0 (keeping the boot tables,
// which cover 4 GiB) if no memory for the tables was found.
uint64_t paging_map_all(struct memmap *mm, uint64_t top);

#endif
