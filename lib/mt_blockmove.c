// SPDX-License-Identifier: GPL-2.0-or-later
// block-move, as memtest86 made it known: memory filled with block patterns
// is moved around with string moves (rep movsq in the image) and checked. Its
// point is the traffic, not a cell model: long back-to-back bursts of line
// reads and writes, the pattern of real copies, which word-at-a-time tests
// never produce, and which brings out faults that only show under sustained
// burst load (signal integrity, timing margins, the memory controller). In
// the cell fault models of tests/sim it finds every stuck-at fault (each bit
// holds both values over the two polarities) and part of the others.
//
// For each range of n words: halves A = words [0, h) and B = [h, 2h),
// h = n / 2, the odd last word (if any) only filled and checked; the pattern
// pat(i) = (1 << i % 64) ^ (all ones in every other 64-word block); then all
// again inverted:
//	⇑ fill word i with pat(i);	⇑ check word i holds pat(i);
//	copy A to B;			compare B with A;
//	copy B to A rotated by r = h / 2 (A[i] = B[(i + r) mod h]);
//	compare A with B, rotated the same way.
// A copied word is compared with its source, not with the pattern: a wrong
// source word (already reported at its own address by the check) is copied
// faithfully and not reported again at the destination, so every reported
// address is a word that failed itself. Each of the six phases counts as one
// pass (the odd word counts as swept in the copy and compare phases), 12 in
// all.
#include "mt_algos.h"
#include "mt_sweep.h"

// Words per copy or compare call: a chunk's worth of reads plus writes.
#define MOVE_WORDS (MT_CHUNK_BYTES / 16)

static inline uint64_t pat(uint64_t i)
{
	return (1ull << (i & 63)) ^ -((i >> 6) & 1);
}

// Fill (or, when check, check) every word i of every range with pat(i) ^ inv.
static bool pattern_pass(const struct mt_ctx *ctx, uint64_t inv, bool check)
{
	struct mt_walk w;

	mt_walk_begin(&w, ctx, MT_UP);
	while (mt_walk_next(&w)) {
		uint64_t a = w.lo, i = (w.lo - w.start) / 8;

		for (uint64_t k = (w.hi - w.lo) / 8; k; k--, a += 8, i++) {
			if (check)
				mt_check_word(ctx, a, pat(i) ^ inv);
			else
				mem_write64_nt(a, pat(i) ^ inv);
		}
	}
	if (!check)
		mem_store_fence();
	return !w.aborted;
}

// Copy nwords words from src to dst (or, when compare, check that each word
// of dst equals the word of src), in chunks, reporting progress.
static bool move(const struct mt_ctx *ctx, uint64_t dst, uint64_t src,
		 uint64_t nwords, bool compare)
{
	while (nwords) {
		uint64_t len = nwords < MOVE_WORDS ? nwords : MOVE_WORDS;

		if (!compare)
			mem_copy64(dst, src, len);
		else
			for (uint64_t k = 0; k < len; k++)
				mt_check_word(ctx, dst + 8 * k,
					      mem_read64(src + 8 * k));
		if (!ctx->progress(ctx->cb_ctx, 16 * len))
			return false;
		dst += 8 * len;
		src += 8 * len;
		nwords -= len;
	}
	return true;
}

// Copy (or compare) A to B in every range, or, when rotated, B to A rotated.
static bool move_phase(const struct mt_ctx *ctx, bool rotated, bool compare)
{
	for (size_t j = 0; j < ctx->nranges; j++) {
		uint64_t s = ctx->ranges[j].start;
		uint64_t n = (ctx->ranges[j].end - s) / 8, h = n / 2, r = h / 2;
		uint64_t b = s + 8 * h;
		bool ok;

		if (!rotated)
			ok = move(ctx, b, s, h, compare);
		else
			ok = move(ctx, s, b + 8 * r, h - r, compare) &&
			     move(ctx, s + 8 * (h - r), b, r, compare);
		if (!ok || ((n & 1) && !ctx->progress(ctx->cb_ctx, 8)))
			return false;
	}
	if (!compare)
		mem_flush_cache();
	return true;
}

bool mt_blockmove(const struct mt_ctx *ctx, const void *param)
{
	(void)param;
	for (int inverted = 0; inverted < 2; inverted++) {
		uint64_t inv = inverted ? ~0ull : 0;

		if (!pattern_pass(ctx, inv, false) ||
		    !pattern_pass(ctx, inv, true) ||
		    !move_phase(ctx, false, false) ||
		    !move_phase(ctx, false, true) ||
		    !move_phase(ctx, true, false) ||
		    !move_phase(ctx, true, true))
			return false;
	}
	return true;
}
