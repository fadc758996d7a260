// SPDX-License-Identifier: GPL-2.0-or-later
// Same-bank sets and the bank functions (steps.h). Every address in a set
// conflicts with the set's base, so base and member are in one bank and
// every bank function has the same value for both: each difference
// member ^ base is orthogonal to every function, and the functions are the
// null space of the differences (Pessl et al. search the functions instead;
// the null space gives them all at once). One false member (a delay taken
// for a conflict) would remove a true function, so a member must conflict
// twice with the base and once with the set's first member.
#include "dram/gf2.h"
#include "dram/steps.h"

// Differences in a row that added nothing: the sets span all they will.
#define GROUP_SATURATED 24
// Bases tried at most.
#define GROUP_MAX_SETS 64

uint64_t steps_vary(const uint64_t *pool, uint32_t n)
{
	uint64_t vary = 0;

	for (uint32_t i = 1; i < n; i++)
		vary |= pool[i] ^ pool[0];
	return vary;
}

static bool same_bank(struct probe *p, uint64_t base, uint64_t first, uint64_t a)
{
	if (a == base || a == first || !probe_conflict(p, base, a) || !probe_conflict(p, base, a))
		return false;
	return !first || probe_conflict(p, first, a);
}

// Time base against pool[0..*n), move its set out of the pool, add the
// differences to diffs; *stale counts the differences in a row that were
// already in diffs' span.
static void take_set(struct probe *p, uint64_t base, uint64_t *pool, uint32_t *n,
		     struct gf2_basis *diffs, uint32_t *stale)
{
	uint64_t first = 0;

	for (uint32_t i = 0; i < *n && !p->stopped; i++) {
		uint64_t a = pool[i];

		if (!same_bank(p, base, first, a))
			continue;
		if (!first)
			first = a;
		*stale = gf2_insert(diffs, a ^ base) ? 0 : *stale + 1;
		pool[i--] = pool[--*n];
	}
}

enum dram_outcome group_solve(struct probe *p, uint64_t *pool, uint32_t n, uint64_t vary,
			      struct dram_map *map)
{
	struct gf2_basis diffs;
	uint64_t null[DRAM_MAX_FUNCS];
	uint32_t stale = 0;
	unsigned dim;

	gf2_clear(&diffs);
	for (unsigned s = 0; s < GROUP_MAX_SETS && n > 1 && stale < GROUP_SATURATED; s++) {
		uint64_t base = pool[--n];

		take_set(p, base, pool, &n, &diffs, &stale);
		if (p->stopped)
			return DRAM_OUT_OF_TIME;
	}
	if (stale < GROUP_SATURATED)
		return DRAM_NO_SOLUTION;
	dim = gf2_null_space(&diffs, vary, null, DRAM_MAX_FUNCS);
	if (dim == 0 || dim > DRAM_MAX_FUNCS)
		return DRAM_NO_SOLUTION;
	gf2_min_weight_basis(null, dim, map->funcs);
	map->nfuncs = dim;
	return DRAM_LEARNED;
}
