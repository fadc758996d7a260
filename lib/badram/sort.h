// SPDX-License-Identifier: GPL-2.0-or-later
// Sorting page numbers for the BadRAM fold: an LSD radix sort, O(n) per
// byte of the largest key, with a caller-supplied buffer instead of malloc.
#ifndef RAMSIFT_LIB_BADRAM_SORT_H
#define RAMSIFT_LIB_BADRAM_SORT_H

#include <stddef.h>
#include <stdint.h>

// Sort a[0..n) ascending, using tmp[0..n) as scratch (its contents are
// lost). Stable; only the bytes below the highest set bit of any key are
// sorted on, so 40-bit page numbers take five passes.
void sort_u64(uint64_t *a, uint64_t *tmp, size_t n);

#endif
