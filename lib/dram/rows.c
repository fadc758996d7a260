// SPDX-License-Identifier: GPL-2.0-or-later
// The row bits (steps.h). Bits are tested from the lowest up: flipping bit
// b of a base moves it to another bank when b is in a function, so lower
// bits already known not to be row bits undo that bank change; the pair is
// then in one bank, and conflicts exactly when b (the only row bit that
// changed) is a row bit. A bit whose bank change no lower non-row bit can
// undo sits under the row bits on every controller DRAMA describes (a
// function's lowest bit is a column or bank bit), so it is not a row bit.
// Three votes per bit outvote one noisy measurement.
#include "dram/gf2.h"
#include "dram/steps.h"

#define ROWS_VOTES 3
// Bases tried per vote before a bit counts as untestable here (the flipped
// address must also be memory the learning may read).
#define ROWS_TRIES 16

// One vote on bit b: 1 conflict, 0 none, -1 untestable on this base, -2
// no lower non-row bits undo its bank change (not a row bit).
static int vote(struct probe *p, uint64_t base, unsigned b, uint64_t nonrow,
		const struct dram_map *map)
{
	uint64_t flip = 1ull << b, fix;

	if (!gf2_solve(map->funcs, map->nfuncs, nonrow & (flip - 1),
		       probe_bank(map->funcs, map->nfuncs, flip), &fix))
		return -2;
	if (!probe_readable(p, base ^ flip ^ fix))
		return -1;
	return probe_conflict(p, base, base ^ flip ^ fix);
}

// Is bit b a row bit: 1 yes, 0 no, -1 untestable.
static int row_bit(struct probe *p, const uint64_t *pool, uint32_t n, unsigned b,
		   uint64_t nonrow, const struct dram_map *map)
{
	unsigned votes = 0, yes = 0;

	for (unsigned t = 0; t < ROWS_TRIES && votes < ROWS_VOTES; t++) {
		int v = vote(p, pool[probe_random(p) % n], b, nonrow, map);

		if (v == -2)
			return 0;
		if (v >= 0) {
			votes++;
			yes += (unsigned)v;
		}
	}
	return votes ? yes * 2 > votes : -1;
}

enum dram_outcome rows_find(struct probe *p, const uint64_t *pool, uint32_t n, uint64_t vary,
			    struct dram_map *map)
{
	uint64_t nonrow = 0, row = 0;

	for (unsigned b = 0; b < 64; b++) {
		int r;

		if (!(vary >> b & 1))
			continue;
		r = row_bit(p, pool, n, b, nonrow, map);
		if (p->stopped)
			return DRAM_OUT_OF_TIME;
		if (r < 0)
			continue;
		if (r)
			row |= 1ull << b;
		else
			nonrow |= 1ull << b;
	}
	if (!row)
		return DRAM_NO_SOLUTION;
	map->row_lo = (unsigned)__builtin_ctzll(row);
	// Bits too high to test in the memory at hand (scattered huge pages:
	// the flipped address is not ours) count as row bits: above the row
	// bits lie only row bits on every controller DRAMA describes.
	map->row_hi = 63u - (unsigned)__builtin_clzll(row | (vary & ~nonrow & ~0ull << map->row_lo));
	// Contiguous: no tested non-row bit between the lowest and highest.
	if (nonrow >> map->row_lo << map->row_lo & ~(~0ull << map->row_hi))
		return DRAM_NO_SOLUTION;
	return DRAM_LEARNED;
}
