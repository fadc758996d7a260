// SPDX-License-Identifier: GPL-2.0-or-later
// random: {⇑(w x_i); ⇑(r x_i); ⇑(w ~x_i); ⇑(r ~x_i)} where x_i is the i-th
// output of the counter-based generator of prng.h seeded from ctx->seed (a
// serial generator would bound the sweeps by its latency, not by memory).
// Every word gets an unrelated value, so data-dependent faults that fixed
// patterns never provoke get a chance, and every bit holds both values (all
// stuck-at faults; with the values distinct per word, most address faults
// too). The same seed writes the same values, so a failure can be reproduced
// with seed=.
#include "mt_algos.h"
#include "mt_sweep.h"
#include "prng.h"

// Salt for the seed, so random and mi-random draw different sequences.
#define RANDOM_SEED_SALT 0x72616e646f6d2d73ull

// The counter of the sequence's first word (prng.h): word i of the
// ascending sweep gets prng_ctr_mix(start + (i + 1) * PRNG_CTR_STEP). The
// loops keep the counter in a local, so it lives in a register and each
// word costs one multiply, with no chain through memory between words.
static uint64_t sequence_start(const struct mt_ctx *ctx)
{
	struct prng_ctr rng;

	prng_ctr_seed(&rng, ctx->seed ^ RANDOM_SEED_SALT);
	return rng.ctr;
}

// Write the sequence (xor inv) over all ranges, ascending.
static bool fill(const struct mt_ctx *ctx, uint64_t inv)
{
	uint64_t c = sequence_start(ctx);
	struct mt_walk w;

	mt_walk_begin(&w, ctx, MT_UP);
	while (mt_walk_next(&w)) {
		uint64_t a = w.lo;

		for (uint64_t k = (w.hi - w.lo) / 8; k; k--, a += 8)
			mem_write64_nt(a, prng_ctr_mix(c += PRNG_CTR_STEP) ^ inv);
	}
	mem_store_fence();
	return !w.aborted;
}

// Check the same sequence (xor inv), regenerated from the seed.
static bool check(const struct mt_ctx *ctx, uint64_t inv)
{
	uint64_t c = sequence_start(ctx);
	struct mt_walk w;

	mt_walk_begin(&w, ctx, MT_UP);
	while (mt_walk_next(&w)) {
		uint64_t a = w.lo, n = (w.hi - w.lo) / 8;

		for (uint64_t k = n / MT_LINE_WORDS; k; k--, a += 8 * MT_LINE_WORDS) {
			uint64_t expect[MT_LINE_WORDS];

			mem_prefetch(a + MT_PREFETCH_BYTES);
#pragma GCC unroll 8
			for (unsigned j = 0; j < MT_LINE_WORDS; j++)
				expect[j] = prng_ctr_mix(c += PRNG_CTR_STEP) ^ inv;
			mt_check_line(ctx, a, expect);
		}
		for (uint64_t k = n % MT_LINE_WORDS; k; k--, a += 8)
			mt_check_word(ctx, a, prng_ctr_mix(c += PRNG_CTR_STEP) ^ inv);
	}
	return !w.aborted;
}

bool mt_random(const struct mt_ctx *ctx, const void *param)
{
	(void)param;
	return fill(ctx, 0) && check(ctx, 0) && fill(ctx, ~0ull) &&
	       check(ctx, ~0ull);
}
