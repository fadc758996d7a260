// SPDX-License-Identifier: GPL-2.0-or-later
// The ranges of Linux's memmap=SIZE$ADDR[,SIZE$ADDR...] line: the failing
// pages merged into runs, then, while the line would be too long for the
// kernel command line, the cheapest gaps between runs filled (fewest good
// RAM pages first; a gap holding non-RAM, e.g. the PCI hole, only as a last
// resort, since reserving MMIO can upset PCI resource allocation). Filling
// the k cheapest gaps is the least memory any k-merge can cost, so the line
// sacrifices the fewest good pages that let it fit.
#ifndef RAMSIFT_LIB_BADRAM_MEMMAP_H
#define RAMSIFT_LIB_BADRAM_MEMMAP_H

#include <stddef.h>
#include <stdint.h>

#include "badram_cube.h"
#include "range.h"

#define BMM_PREFIX "memmap="
#define BMM_MIN_CHARS 64        // room for the prefix and one widest entry
#define BMM_MAX_CHARS 2047      // the whole x86 kernel command line

// How a memmap SIZE is written: bytes = value << shift, with the unit letter
// ('G', 'M' or 'K') of the largest unit that divides bytes (a multiple of
// 4 KiB).
struct bmm_size {
	uint64_t value;
	char unit;
};
struct bmm_size bmm_size_of(uint64_t bytes);

// Length of the memmap line for the byte ranges r[0..n) (n >= 1): "memmap="
// then "SIZE$0xADDR" per range, comma-separated, no trailing NUL.
size_t bmm_line_len(const struct range *r, size_t n);

// Compute the memmap ranges for the sorted distinct failing pages
// page[0..n) plus every page of the cubes extra[0..nextra) (each taken as
// the span from its lowest to its highest page), as far as they are RAM:
// memmap= can only take RAM away, so failures outside the map are left
// out. Writes byte ranges, sorted and disjoint, to out[0..cap) and returns
// their count, choosing the fewest good RAM pages for which the line is at
// most max_chars long (raised to BMM_MIN_CHARS) and the count at most cap
// (cap >= 1). work[0..work_cap) is scratch for the extra cubes' pieces;
// work_cap must be at least nextra * (u->nram + 1). Returns 0 when there is
// nothing to reserve. Time O((n + pieces) * log(nram)) per probe,
// about 70 probes.
size_t bmm_ranges(const uint64_t *page, size_t n, const struct bcube *extra,
		  size_t nextra, const struct buniverse *u, size_t max_chars,
		  struct range *out, size_t cap, struct range *work,
		  size_t work_cap);

#endif
