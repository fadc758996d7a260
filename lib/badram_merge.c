// SPDX-License-Identifier: GPL-2.0-or-later
// Cover merging (see badram_merge.h). Sizes are powers of two of at most
// 2^51, so page counts fit in 64 bits without saturation.
#include <stdbool.h>

#include "badram_merge.h"

// Remove c[i], keeping order.
static size_t drop(struct bcube *c, size_t n, size_t i)
{
	for (size_t k = i + 1; k < n; k++)
		c[k - 1] = c[k];
	return n - 1;
}

// Remove every cube other than c[keep] that c[keep] contains; returns the
// new count and updates *keep to where the kept cube ends up.
static size_t drop_inside(struct bcube *c, size_t n, size_t *keep)
{
	for (size_t k = 0; k < n;) {
		if (k != *keep && bc_contains(c[*keep], c[k])) {
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
static bool may_merge(struct bcube a, struct bcube b, struct bcube m,
		      const struct buniverse *u)
{
	return u == NULL || bc_in_one_range(m, u) || !bc_in_one_range(a, u) ||
	       !bc_in_one_range(b, u);
}

// One round of exact rewrites; returns the new count, and sets *changed.
static size_t simplify_round(struct bcube *c, size_t n,
			     const struct buniverse *u, bool *changed)
{
	*changed = false;
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < n; j++) {
			uint64_t d = c[i].val ^ c[j].val;
			struct bcube m = { c[i].val & ~d, c[i].care & ~d };
			if (i == j)
				continue;
			if (c[i].care == c[j].care && __builtin_popcountll(d) == 1 &&
			    may_merge(c[i], c[j], m, u)) {
				c[i] = m;       // siblings: their union is one cube
			} else if (!bc_contains(c[i], c[j])) {
				continue;
			}
			n = drop_inside(c, n, &i);
			*changed = true;
			return n;
		}
	}
	return n;
}

size_t bm_simplify(struct bcube *c, size_t n, const struct buniverse *u)
{
	bool changed = true;

	while (changed)
		n = simplify_round(c, n, u, &changed);
	return n;
}

size_t bm_merge_closest(struct bcube *c, size_t n)
{
	uint64_t best = UINT64_MAX;
	size_t bi = 0, bj = 1;

	for (size_t i = 0; i < n; i++) {
		uint64_t si = 1ULL << bc_free_bits(c[i]);
		for (size_t j = i + 1; j < n; j++) {
			uint64_t sj = 1ULL << bc_free_bits(c[j]);
			uint64_t sm = 1ULL << bc_free_bits(bc_join(c[i], c[j]));
			// Pages the merge adds, if a and b were disjoint.
			uint64_t add = sm > si + sj ? sm - si - sj : 0;
			if (add < best) {
				best = add;
				bi = i;
				bj = j;
			}
		}
	}
	c[bi] = bc_join(c[bi], c[bj]);
	n = drop(c, n, bj);
	return drop_inside(c, n, &bi);
}
