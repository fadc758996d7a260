// SPDX-License-Identifier: GPL-2.0-or-later
// Exact minimum cube cover for failing-page sets that are small once their
// symmetries are factored out. A free bit the set is symmetric in (flipping
// it maps the set onto itself, like the row bits of a column fault) is free
// in some minimum cover and can be projected away: a set of thousands of
// pages (a hashed column) often projects to a few points. On those points,
// Quine-McCluskey finds every prime implicant and a branch-and-bound set
// cover picks the fewest; lifted back, they are a minimum exact cover of the
// whole set (no good page excluded).
#ifndef RAMSIFT_LIB_BADRAM_EXACT_H
#define RAMSIFT_LIB_BADRAM_EXACT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "badram/cube.h"

#define EXACT_MAX_POINTS 64        // projected points the exact search takes

// True when the sorted distinct pages a[0..n) are symmetric in bit (a
// single set bit): p is in the set exactly when p ^ bit is. O(n).
bool exact_symmetric(const uint64_t *a, size_t n, uint64_t bit);

// Find a minimum set of cubes whose union is exactly the sorted distinct
// pages page[0..n) (n >= 1). Writes it to out and returns its size when that
// is at most max; returns 0 when the cover needs more than max cubes, or the
// set does not project to at most EXACT_MAX_POINTS points, or its implicants do
// not fit in scratch[0..bytes). When the search exhausts its step budget it
// returns the smallest exact cover found so far (no longer proven minimum).
// Pages must be < 2^CUBE_BITS.
size_t exact_cover(const uint64_t *page, size_t n, size_t max,
		      struct cube *out, void *scratch, size_t bytes);

#endif
