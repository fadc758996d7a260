// SPDX-License-Identifier: GPL-2.0-or-later
// Cover merging (see merge.h). Sizes are powers of two of at most
// 2^51, so page counts fit in 64 bits without saturation.
#include <stdbool.h>

#include "badram/merge.h"

// Remove c[i], keeping order.
static size_t drop(struct cube *c, size_t n, size_t i)
{
	for (size_t k = i + 1; k < n; k++)
		c[k - 1] = c[k];
	return n - 1;
}

// Remove every cube other than c[keep] that c[keep] contains; returns the
// new count and updates *keep to where the kept cube ends up.
static size_t drop_inside(struct cube *c, size_t n, size_t *keep)
{
	for (size_t k = 0; k < n;) {
		if (k != *keep && cube_contains(c[*keep], c[k])) {
			n = drop(c, n, k);
			if (k < *keep)
				(*keep)--;
		} else {
			k++;
		}
	}
	return n;
}

// True when merging siblings a and b into m keeps GRUB's one-range rule.
static bool may_merge(struct cube a, struct cube b, struct cube m,
		      const struct universe *u)
{
	return u == NULL || cube_in_one_range(m, u) || !cube_in_one_range(a, u) ||
	       !cube_in_one_range(b, u);
}

// One round of exact rewrites; returns the new count, and sets *changed.
static size_t simplify_round(struct cube *c, size_t n,
			     const struct universe *u, bool *changed)
{
	*changed = false;
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < n; j++) {
			uint64_t d = c[i].val ^ c[j].val;
			struct cube m = { c[i].val & ~d, c[i].care & ~d };
			if (i == j)
				continue;
			if (c[i].care == c[j].care && __builtin_popcountll(d) == 1 &&
			    may_merge(c[i], c[j], m, u)) {
				c[i] = m;       // siblings: their union is one cube
			} else if (!cube_contains(c[i], c[j])) {
				continue;
			}
			n = drop_inside(c, n, &i);
			*changed = true;
			return n;
		}
	}
	return n;
}

size_t merge_simplify(struct cube *c, size_t n, const struct universe *u)
{
	bool changed = true;

	while (changed)
		n = simplify_round(c, n, u, &changed);
	return n;
}

size_t merge_closest(struct cube *c, size_t n)
{
	uint64_t best = UINT64_MAX;
	size_t bi = 0, bj = 1;

	for (size_t i = 0; i < n; i++) {
		uint64_t si = 1ULL << cube_free_bits(c[i]);
		for (size_t j = i + 1; j < n; j++) {
			uint64_t sj = 1ULL << cube_free_bits(c[j]);
			uint64_t sm = 1ULL << cube_free_bits(cube_join(c[i], c[j]));
			// Pages the merge adds, if a and b were disjoint.
			uint64_t add = sm > si + sj ? sm - si - sj : 0;
			if (add < best) {
				best = add;
				bi = i;
				bj = j;
			}
		}
	}
	c[bi] = cube_join(c[bi], c[bj]);
	n = drop(c, n, bj);
	return drop_inside(c, n, &bi);
}
