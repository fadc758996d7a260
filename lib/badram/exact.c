// SPDX-License-Identifier: GPL-2.0-or-later
// Exact cover search (see exact.h). Why projecting a symmetric bit
// away loses nothing: if S = S' x {0,1} along bit b, any exact cover of S
// restricted to the plane b = 0 is an exact cover of S' with no more cubes,
// and any cover of S' with b freed covers S; so both minima are equal.
#include "badram/exact.h"

#define EXACT_MAX_NODES 20000      // branch-and-bound nodes before giving up

bool exact_symmetric(const uint64_t *a, size_t n, uint64_t bit)
{
	size_t i = 0, j = 0;

	// The pages with the bit clear and those with it set (bit removed)
	// must be the same sorted sequence: clearing a bit every member has
	// set keeps their order.
	for (;;) {
		while (i < n && (a[i] & bit))
			i++;
		while (j < n && !(a[j] & bit))
			j++;
		if (i == n || j == n)
			return i == n && j == n;
		if (a[i] != (a[j] ^ bit))
			return false;
		i++;
		j++;
	}
}

struct implicant {
	struct cube c;
	uint64_t covers;        // bit k: representative point k is in c
	bool merged;            // part of a larger implicant: not prime
};

struct search {
	const struct implicant *imp;
	size_t nimp;
	uint64_t all;           // every representative point
	size_t best, chosen[EXACT_MAX_POINTS], best_set[EXACT_MAX_POINTS];
	unsigned long nodes;
};

// Branch on the uncovered point with the fewest primes covering it.
static void cover_search(struct search *s, uint64_t covered, size_t depth)
{
	if (covered == s->all) {
		s->best = depth;
		for (size_t k = 0; k < depth; k++)
			s->best_set[k] = s->chosen[k];
		return;
	}
	if (depth + 1 >= s->best || ++s->nodes > EXACT_MAX_NODES)
		return;
	uint64_t pick = 0;
	size_t fewest = SIZE_MAX;
	for (uint64_t left = s->all & ~covered; left; left &= left - 1) {
		uint64_t pt = left & -left;
		size_t k = 0;
		for (size_t p = 0; p < s->nimp; p++)
			k += (s->imp[p].covers & pt) != 0;
		if (k < fewest) {
			fewest = k;
			pick = pt;
		}
	}
	for (size_t p = 0; p < s->nimp; p++) {
		if (!(s->imp[p].covers & pick))
			continue;
		s->chosen[depth] = p;
		cover_search(s, covered | s->imp[p].covers, depth + 1);
	}
}

// Add c to imp[from..*n) unless already there; false when out of room.
static bool add_unique(struct implicant *imp, size_t from, size_t *n,
		       size_t cap, struct cube c)
{
	for (size_t k = from; k < *n; k++)
		if (imp[k].c.val == c.val && imp[k].c.care == c.care)
			return true;
	if (*n == cap)
		return false;
	imp[*n].c = c;
	imp[*n].merged = false;
	(*n)++;
	return true;
}

// Quine-McCluskey: grow implicants level by level from the points in
// imp[0..*n); returns false when they do not fit in cap.
static bool grow_implicants(struct implicant *imp, size_t *n, size_t cap)
{
	size_t from = 0, to = *n;

	while (from < to) {
		for (size_t i = from; i < to; i++) {
			for (size_t j = i + 1; j < to; j++) {
				uint64_t d = imp[i].c.val ^ imp[j].c.val;
				if (imp[i].c.care != imp[j].c.care ||
				    __builtin_popcountll(d) != 1)
					continue;
				struct cube m = { imp[i].c.val & ~d,
						   imp[i].c.care & ~d };
				imp[i].merged = imp[j].merged = true;
				if (!add_unique(imp, to, n, cap, m))
					return false;
			}
		}
		from = to;
		to = *n;
	}
	return true;
}

size_t exact_cover(const uint64_t *page, size_t n, size_t max,
		      struct cube *out, void *scratch, size_t bytes)
{
	uint64_t and_all = ~0ULL, or_all = 0, sym = 0;
	struct implicant *imp = scratch;
	size_t cap = bytes / sizeof(*imp), m = 0, nimp, np = 0;

	for (size_t i = 0; i < n; i++) {
		and_all &= page[i];
		or_all |= page[i];
	}
	for (uint64_t f = and_all ^ or_all; f; f &= f - 1)
		if (exact_symmetric(page, n, f & -f))
			sym |= f & -f;
	// Representatives: the points with every symmetric bit clear.
	for (size_t i = 0; i < n; i++) {
		if (page[i] & sym)
			continue;
		if (m == EXACT_MAX_POINTS || m == cap)
			return 0;
		imp[m].c.val = page[i];
		imp[m].c.care = CUBE_DOMAIN & ~sym;
		imp[m].merged = false;
		m++;
	}
	nimp = m;
	if (!grow_implicants(imp, &nimp, cap))
		return 0;
	// Mark what each prime covers, then pack the primes to the front (the
	// points, imp[0..m), are only read before being overwritten).
	for (size_t p = 0; p < nimp; p++) {
		imp[p].covers = 0;
		for (size_t k = 0; k < m && !imp[p].merged; k++)
			if (cube_match(imp[p].c, imp[k].c.val))
				imp[p].covers |= 1ULL << k;
	}
	for (size_t p = 0; p < nimp; p++)
		if (!imp[p].merged)
			imp[np++] = imp[p];

	struct search s = { .imp = imp, .nimp = np, .best = max + 1 };
	s.all = m == 64 ? ~0ULL : (1ULL << m) - 1;
	cover_search(&s, 0, 0);
	if (s.best > max)
		return 0;
	for (size_t k = 0; k < s.best; k++)
		out[k] = imp[s.best_set[k]].c;
	return s.best;
}
