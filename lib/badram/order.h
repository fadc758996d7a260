// SPDX-License-Identifier: GPL-2.0-or-later
// Ordering badram pairs so GRUB applies them all. GRUB 2.06 on BIOS cuts
// each pattern's matches while it walks the memory map, and the walk reads
// past its own arrays once the map has grown: after the first region a
// pattern cuts, it can skip the pattern's matches in later regions. Regions
// are the firmware map's, split further by every hole an earlier pattern
// cut. So a pattern is applied whole when its span (lowest to highest page)
// lies in one RAM range and no earlier pattern cut a hole inside that span.
#ifndef RAMSIFT_LIB_BADRAM_ORDER_H
#define RAMSIFT_LIB_BADRAM_ORDER_H

#include <stdbool.h>
#include <stddef.h>

#include "badram/cube.h"

// Reorder c[0..n) (n <= CUBE_MAX_CUBES) so that every cube's span lies in one
// RAM range (or meets no RAM) and no cube has a page inside the span of a
// cube after it. Returns false, leaving c as it was, when no such order
// exists. Time O(n^3).
bool order_cubes(struct cube *c, size_t n, const struct universe *u);

#endif
