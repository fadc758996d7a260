// SPDX-License-Identifier: GPL-2.0-or-later
// Moving inversions (mi-ones, mi-8bit, mi-random, mi-walk64), as memtest86
// made them known: for each pattern p, {⇑(w p); ⇑(r p, w ~p); ⇓(r ~p, w p)}.
// Every bit is written and read back at both values, so every stuck-at fault
// is found with any pattern, and the ascending then descending elements catch
// transition faults and most coupling faults between words. The patterns
// differ in what they put next to each bit inside a word and across the data
// bus: solid zeros/ones (fast), a one walking through every byte, seeded
// random words, and a one walking through the whole word (slowest: 64
// patterns); the inversion gives the walking-zero variant for free.
#include "memtest/algos.h"
#include "memtest/sweep.h"
#include "memtest/prng.h"

// Salt for the seed, so mi-random and random draw different sequences.
#define MI_SEED_SALT 0x6d692d72616e646full

// Pattern i of kind: computed between sweeps, never in the hot loop.
static uint64_t mi_pattern(enum mt_mi_kind kind, unsigned i, struct prng *rng)
{
	switch (kind) {
	case MT_MI_SOLID:
		return i & 1 ? ~0ull : 0;
	case MT_MI_WALK8:
		return 0x0101010101010101ull << (i % 8);
	case MT_MI_RANDOM:
		return prng_next(rng);
	case MT_MI_WALK64:
		return 1ull << (i % 64);
	}
	return 0;
}

bool mt_movinv(const struct mt_ctx *ctx, const void *param)
{
	const struct mt_movinv_param *p = param;
	struct prng rng;

	prng_seed(&rng, ctx->seed ^ MI_SEED_SALT);
	for (unsigned i = 0; i < p->count; i++) {
		uint64_t pat = mi_pattern(p->kind, i, &rng);

		if (!mt_sweep_fill(ctx, pat, 0) ||
		    !mt_sweep_rw(ctx, MT_UP, pat, ~pat) ||
		    !mt_sweep_rw(ctx, MT_DOWN, ~pat, pat))
			return false;
	}
	return true;
}
