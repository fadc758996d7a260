// SPDX-License-Identifier: GPL-2.0-or-later
// Bottom-up merging for the budgeted fold: start from a fine cover (the
// leaves of a structure split tree, so a hashed column starts as its few
// exact cubes, scattered cells as single pages) and repeatedly merge the
// pair of cubes whose supercube costs least: added pages plus lambda per
// added hole (whole-domain counts, O(1) each). Merging continues while there
// are more than K cubes or a merge has negative cost; lambda is searched as
// in dp.h, and every candidate is measured against RAM. Top-down
// splits separate cells that differ in a high bit however close they are
// otherwise; merging pairs by cost does not.
#ifndef RAMSIFT_LIB_BADRAM_AGGLO_H
#define RAMSIFT_LIB_BADRAM_AGGLO_H

#include <stddef.h>

#include "badram/cube.h"
#include "badram/dp.h"

#define AGGLO_MAX_START 128       // starting cubes taken at most

// Bytes of scratch agglo_choose needs for n starting cubes.
size_t agglo_bytes(size_t n);

// Merge start[0..n) (1 <= n <= AGGLO_MAX_START; their union covers every
// failing page) down to a cover within p's budgets, using scratch
// mem[0..bytes) (at least agglo_bytes(n)). out->found is false when no
// lambda gives one. out->holes_bound is not set.
void agglo_choose(const struct cube *start, size_t n, const struct dp_params *p,
		void *mem, size_t bytes, struct dp_cover *out);

#endif
