// SPDX-License-Identifier: GPL-2.0-or-later
// modulo-N (modulo-20 in the table), as memtest86 made it known: with a
// seeded random pattern p, for each offset k in 0..N-1,
//	⇑ write p to every word whose index is k mod N;
//	⇑ write ~p to every other word;
//	⇑ check that the words at k mod N still hold p;
// then all of it again with p and ~p swapped (6N sweeps). Each checked word
// has had every other word written after it with the opposite value, the
// pattern that provokes disturbance between neighbouring cells and breaks
// what prefetchers expect. Over shares a word's index is its address / 8, so
// the sets do not depend on where the memory is cut, and a share smaller
// than N words is still tested (docs/memory-tests.md, "What each test does
// over a share").
#include "memtest/algos.h"
#include "memtest/sweep.h"
#include "memtest/prng.h"

// Salt for the seed, so the pattern differs from random's first word.
#define MODULO_SEED_SALT 0x6d6f64756c6f2d6eull

// The index of the word at address a in the range that starts at start, for
// the sets: its index in the range, or over shares its address / 8.
static inline uint64_t index_of(const struct mt_ctx *ctx, uint64_t a,
				uint64_t start)
{
	return ctx->sync ? a / 8 : (a - start) / 8;
}

// Write value to (or, when check, check it in) every word whose index in its
// range is k mod stride, ascending. Plain stores, the caches flushed at the
// end: each word written is alone in its 64-byte line (stride >= 8), and a
// partial line costs a read of the line either way; a non-temporal store
// made it a partial write to DRAM, slower than the read for ownership
// (bench/: about 1.8 times).
static inline __attribute__((always_inline)) bool
stride_sweep(const struct mt_ctx *ctx, unsigned stride, unsigned k,
	     uint64_t value, bool check)
{
	struct mt_walk w;

	mt_walk_begin(&w, ctx, MT_UP);
	while (mt_walk_next(&w)) {
		uint64_t n = (w.hi - w.lo) / 8;
		uint64_t phase = index_of(ctx, w.lo, w.start) % stride;
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
				mem_write64(a, value);
		}
	}
	return !w.aborted && mt_phase_end(ctx, !check);
}

// stride_sweep with check a constant, so that each loop keeps nothing of
// the other.
static bool stride_pass(const struct mt_ctx *ctx, unsigned stride, unsigned k,
			uint64_t value, bool check)
{
	return check ? stride_sweep(ctx, stride, k, value, true)
		     : stride_sweep(ctx, stride, k, value, false);
}

// Write value to every word whose index in its range is not k mod stride:
// runs of stride - 1 words between the skipped ones. Plain stores, the
// caches flushed at the end: the lines with a skipped word must be read
// anyway, and mixing non-temporal stores for the whole lines in between
// with them was several times slower than plain stores alone (bench/).
static bool others_pass(const struct mt_ctx *ctx, unsigned stride, unsigned k,
			uint64_t value)
{
	struct mt_walk w;

	mt_walk_begin(&w, ctx, MT_UP);
	while (mt_walk_next(&w)) {
		uint64_t phase = index_of(ctx, w.lo, w.start) % stride;
		uint64_t n = (w.hi - w.lo) / 8, a = w.lo;
		// Words before the next one to skip.
		uint64_t run = (k + stride - phase) % stride;

		while (n) {
			uint64_t len = run < n ? run : n;

			for (uint64_t c = len; c; c--, a += 8)
				mem_write64(a, value);
			n -= len;
			if (n) { // the word at k mod stride: skip it
				a += 8;
				n--;
			}
			run = stride - 1;
		}
	}
	return !w.aborted && mt_phase_end(ctx, true);
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
