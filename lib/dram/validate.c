// SPDX-License-Identifier: GPL-2.0-or-later
// The validation of a mapping (learn.h) and its precision and recall
// (dram.h). Random pairs alone would test a map poorly: with 64 banks one
// pair in 64 shares a bank, so most pairs say nothing. The pairs are
// stratified instead, in eighths: one random; one with the second address
// moved into the first one's bank under the map (a missing function makes
// half of these non-conflicts: precision drops); two near the first address
// and moved into its bank, their rows differing in the lowest row bit at
// most (row bits too low or too high show); four moved into a bank one
// function apart (a function too many makes these conflicts: recall drops).
#include "dram/gf2.h"
#include "dram/probe.h"

// Tries to place a moved address in readable memory before a pair is drawn
// anew.
#define VALIDATE_TRIES 16

uint32_t dram_precision_milli(const struct dram_validation *v)
{
	return v->predicted ? (uint32_t)((uint64_t)v->both * 1000 / v->predicted) : 0;
}

uint32_t dram_recall_milli(const struct dram_validation *v)
{
	return v->measured ? (uint32_t)((uint64_t)v->both * 1000 / v->measured) : 0;
}

// A candidate for pair i's second address, before it is moved into a bank:
// random, or for the near stratum a with random bits below row_lo + 1
// flipped (so that the rows differ in bit row_lo at most).
static uint64_t candidate(struct probe *p, const struct dram_map *map, unsigned stratum,
			  uint64_t a)
{
	uint64_t near = (2ull << map->row_lo) - 1;

	if (stratum == 2 || stratum == 3)
		return a ^ (probe_random(p) & near & ~63ull);
	return probe_address(p);
}

// Pair i's second address, b or drawn for i's stratum (of 8): 0 b itself;
// 1 moved into a's bank under the map; 2, 3 near a and moved into its
// bank; 4 to 7 moved into a bank one function from a's. b itself when no
// try lands in readable memory.
static uint64_t second(struct probe *p, const struct dram_map *map, uint32_t i, uint64_t a,
		       uint64_t b)
{
	uint64_t below_row = (1ull << map->row_lo) - 1, fix;
	uint32_t want = probe_bank(map->funcs, map->nfuncs, a);
	unsigned stratum = i % 8;

	if (stratum == 0)
		return b;
	if (stratum >= 4)
		want ^= 1u << (probe_random(p) % map->nfuncs);
	for (unsigned t = 0; t < VALIDATE_TRIES; t++) {
		uint64_t c = candidate(p, map, stratum, a);

		if (gf2_solve(map->funcs, map->nfuncs, below_row,
			      want ^ probe_bank(map->funcs, map->nfuncs, c), &fix) &&
		    (c ^ fix) != a && probe_readable(p, c ^ fix))
			return c ^ fix;
	}
	return b;
}

// Does map say a and b conflict: one bank, different rows.
static bool predicted(const struct dram_map *map, uint64_t a, uint64_t b)
{
	uint64_t rows = (~0ull >> (63 - map->row_hi)) >> map->row_lo << map->row_lo;

	return probe_bank(map->funcs, map->nfuncs, a ^ b) == 0 && ((a ^ b) & rows);
}

bool dram_validate(const struct dram_machine *m, const struct dram_limits *lim, uint64_t seed,
		   const struct dram_map *map, uint32_t threshold, struct dram_validation *v,
		   uint32_t *measurements)
{
	struct probe p;

	*v = (struct dram_validation){ 0 };
	probe_init(&p, m, lim, seed, *measurements);
	p.threshold = threshold;
	if (!p.total || !map->nfuncs || map->nfuncs > DRAM_MAX_FUNCS || map->row_lo > map->row_hi ||
	    map->row_hi > 63)
		return false;
	for (uint32_t i = 0; i < lim->validation_pairs && !p.stopped; i++) {
		uint64_t a = probe_address(&p), b = second(&p, map, i, a, probe_address(&p));
		bool measured, pred;

		if (a == b)
			continue;
		measured = probe_conflict(&p, a, b);
		if (p.stopped)
			break;
		pred = predicted(map, a, b);
		v->pairs++;
		v->measured += measured;
		v->predicted += pred;
		v->both += measured && pred;
	}
	*measurements = p.measurements;
	return !p.stopped && dram_precision_milli(v) >= DRAM_TRUST_MILLI &&
	       dram_recall_milli(v) >= DRAM_TRUST_MILLI;
}
