// SPDX-License-Identifier: GPL-2.0-or-later
// modulo-N (modulo-20 in the table), as memtest86 made it known: with a
// seeded random pattern p, for each offset k in 0..N-1,
//	⇑ write p to every word whose index in its range is k mod N;
//	⇑ write ~p to every other word;
//	⇑ check that the words at k mod N still hold p;
// then all of it again with p and ~p swapped. Each checked word has had
// every other word of its range written after it, with the opposite value:
// the access pattern that provokes disturbance between neighbouring rows and
// cells, which marches (one sequential sweep per element) produce much less
// of, and the sparse stride breaks the streaming pattern that caches and
// prefetchers are tuned for. Most neighbours already hold ~p when they are
// rewritten, though, so in the cell fault models of tests/sim (a coupling
// needs a transition) it finds stuck-at and decoder faults but few coupling
// faults; its value is outside that model.
// 6N passes (the stride passes touch one word in N, but are counted whole).
#include "mt_algos.h"
#include "mt_sweep.h"
#include "prng.h"

// Salt for the seed, so the pattern differs from random's first word.
#define MODULO_SEED_SALT 0x6d6f64756c6f2d6eull

// Write value to (or, when check, check it in) every word whose index in its
// range is k mod stride, ascending.
static bool stride_pass(const struct mt_ctx *ctx, unsigned stride, unsigned k,
			uint64_t value, bool check)
{
	struct mt_walk w;

	mt_walk_begin(&w, ctx, MT_UP);
	while (mt_walk_next(&w)) {
		uint64_t n = (w.hi - w.lo) / 8;
		uint64_t phase = ((w.lo - w.start) / 8) % stride;
		uint64_t first = (k + stride - phase) % stride;
		uint64_t a = w.lo + 8 * first;

		if (first >= n)
			continue;
		// Counted, so a is only used while inside the chunk; the step
		// after the last word may wrap, harmlessly (unsigned).
		for (uint64_t c = (n - first - 1) / stride + 1; c;
		     c--, a += 8ull * stride) {
			if (check)
				mt_check_word(ctx, a, value);
			else
				mem_write64_nt(a, value);
		}
	}
	if (!check)
		mem_store_fence();
	return !w.aborted;
}

// Write value to every word whose index in its range is not k mod stride.
static bool others_pass(const struct mt_ctx *ctx, unsigned stride, unsigned k,
			uint64_t value)
{
	struct mt_walk w;

	mt_walk_begin(&w, ctx, MT_UP);
	while (mt_walk_next(&w)) {
		uint64_t phase = ((w.lo - w.start) / 8) % stride;
		uint64_t a = w.lo;

		for (uint64_t c = (w.hi - w.lo) / 8; c; c--, a += 8) {
			if (phase != k)
				mem_write64_nt(a, value);
			if (++phase == stride)
				phase = 0;
		}
	}
	mem_store_fence();
	return !w.aborted;
}

bool mt_modulo(const struct mt_ctx *ctx, const void *param)
{
	const struct mt_modulo_param *p = param;
	struct prng rng;

	prng_seed(&rng, ctx->seed ^ MODULO_SEED_SALT);
	uint64_t pat = prng_next(&rng);

	for (int inverted = 0; inverted < 2; inverted++, pat = ~pat) {
		for (unsigned k = 0; k < p->stride; k++) {
			if (!stride_pass(ctx, p->stride, k, pat, false) ||
			    !others_pass(ctx, p->stride, k, ~pat) ||
			    !stride_pass(ctx, p->stride, k, pat, true))
				return false;
		}
	}
	return true;
}
