// SPDX-License-Identifier: GPL-2.0-or-later
// Merging cubes of a cover. merge_simplify rewrites a cover without changing
// the pages it matches (two cubes that differ in one fixed bit become one,
// a cube inside another goes), so it only ever saves pairs. merge_closest
// trades pages for pairs: it replaces the two cubes whose supercube adds the
// fewest pages by that supercube (the online overflow cover uses it).
#ifndef RAMSIFT_LIB_BADRAM_MERGE_H
#define RAMSIFT_LIB_BADRAM_MERGE_H

#include <stddef.h>

#include "badram/cube.h"

// Simplify c[0..n) in place without changing its union; returns the new
// count (<= n). Cubes keep their relative order. When u is not NULL, two
// cubes that each lie in one RAM range are not merged into one that spans
// several (see order.h). Time O(n^2) per round, at most n rounds.
size_t merge_simplify(struct cube *c, size_t n, const struct universe *u);

// Replace the two cubes of c[0..n) (n >= 2) whose supercube adds the fewest
// pages (counted in the whole domain, not RAM) by that supercube, drop the
// cubes it contains, and return the new count (< n). The result matches
// every page c did. Time O(n^2).
size_t merge_closest(struct cube *c, size_t n);

#endif
