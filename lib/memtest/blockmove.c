// SPDX-License-Identifier: GPL-2.0-or-later
// block-move, as memtest86 made it known: memory filled with block patterns
// is moved around with string moves (rep movsq in the image) and checked.
// Its point is the traffic, not a cell model: long back-to-back bursts of
// line reads and writes, which word-at-a-time tests never produce and which
// bring out faults of signal integrity, timing and the memory controller.
// For each range, halves A and B (an odd last word only filled and checked),
// pattern pat(i) = (1 << i % 64) ^ (all ones in every other 64-word block),
// then all again inverted:
//	⇑ fill word i with pat(i);	⇑ check word i holds pat(i);
//	copy A to B;			compare B with A;
//	copy B to A rotated by h / 2;	compare A with B, rotated the same way.
// A copy is compared with its source, not with the pattern, so a bad source
// word is reported once, at its own address. 12 sweeps.
#include "memtest/algos.h"
#include "memtest/sweep.h"

// Words per compare call: a chunk's worth of reads of the two halves.
#define COMPARE_WORDS (MT_CHUNK_BYTES / 16)

// Words per copy call: a string move far longer than the last-level cache.
// On the host of bench/ (32 MiB L3) rep movsq over 2 MiB runs at half of
// memcpy's bandwidth, over 64 MiB at 85 %, over 128 MiB and more at
// memcpy's: the long move streams its stores instead of reading every line
// for ownership. Its progress is still reported per chunk, after it (it
// takes 5-10 ms, the longest an abort waits).
#define COPY_WORDS ((128u << 20) / 8)

static inline uint64_t pat(uint64_t i)
{
	return (1ull << (i & 63)) ^ -((i >> 6) & 1);
}

// Fill (or, when check, check) every word i of every range with pat(i) ^ inv.
// A chunk starts a multiple of MT_CHUNK_BYTES into its range (mt_walk), so
// the lines from its start are lines of words i..i+7 with i a multiple of 8:
// each lies in one 64-word block, and its one bit moves up a place a word.
_Static_assert(MT_CHUNK_BYTES % (8 * MT_LINE_WORDS) == 0,
	       "chunks start on a line of the pattern");

static inline __attribute__((always_inline)) bool
pattern_sweep(const struct mt_ctx *ctx, uint64_t inv, bool check)
{
	struct mt_walk w;

	mt_walk_begin(&w, ctx, MT_UP);
	while (mt_walk_next(&w)) {
		uint64_t a = w.lo, i = (w.lo - w.start) / 8;
		uint64_t n = (w.hi - w.lo) / 8;

		for (uint64_t k = n / MT_LINE_WORDS; k; k--) {
			uint64_t bit = 1ull << (i & 63);
			uint64_t block = pat(i) ^ bit ^ inv; // 0 or ~0, ^ inv

			if (check)
				mem_prefetch(a + MT_PREFETCH_BYTES);
#pragma GCC unroll 8
			for (unsigned j = 0; j < MT_LINE_WORDS; j++)
				mt_fill_or_check(ctx, a + 8 * j,
						 (bit << j) ^ block, check);
			a += 8 * MT_LINE_WORDS;
			i += MT_LINE_WORDS;
		}
		for (uint64_t k = n % MT_LINE_WORDS; k; k--, a += 8, i++)
			mt_fill_or_check(ctx, a, pat(i) ^ inv, check);
	}
	if (!check)
		mem_store_fence();
	return !w.aborted && mt_phase_end(ctx, false);
}

// pattern_sweep with check a constant, so that each loop keeps nothing of
// the other.
static bool pattern_pass(const struct mt_ctx *ctx, uint64_t inv, bool check)
{
	return check ? pattern_sweep(ctx, inv, true)
		     : pattern_sweep(ctx, inv, false);
}

// Check that each of the nwords words at dst equals the word at src, a line
// at a time, both streams prefetched.
static void compare_words(const struct mt_ctx *ctx, uint64_t dst,
			  uint64_t src, uint64_t nwords)
{
	for (uint64_t k = nwords / MT_LINE_WORDS; k; k--) {
		mem_prefetch(src + MT_PREFETCH_BYTES);
		mem_prefetch(dst + MT_PREFETCH_BYTES);
#pragma GCC unroll 8
		for (unsigned j = 0; j < MT_LINE_WORDS; j++)
			mt_check_word(ctx, dst + 8 * j,
				      mem_read64(src + 8 * j));
		dst += 8 * MT_LINE_WORDS;
		src += 8 * MT_LINE_WORDS;
	}
	for (uint64_t k = nwords % MT_LINE_WORDS; k; k--, dst += 8, src += 8)
		mt_check_word(ctx, dst, mem_read64(src));
}

// Report bytes of progress in calls of at most MT_CHUNK_BYTES. Returns false
// as soon as one says stop.
static bool report(const struct mt_ctx *ctx, uint64_t bytes)
{
	while (bytes) {
		uint64_t b = bytes < MT_CHUNK_BYTES ? bytes : MT_CHUNK_BYTES;

		if (!ctx->progress(ctx->cb_ctx, b))
			return false;
		bytes -= b;
	}
	return true;
}

// Copy nwords words from src to dst (or, when compare, check that each word
// of dst equals the word of src), in pieces, reporting progress.
static bool move(const struct mt_ctx *ctx, uint64_t dst, uint64_t src,
		 uint64_t nwords, bool compare)
{
	uint64_t piece = compare ? COMPARE_WORDS : COPY_WORDS;

	while (nwords) {
		uint64_t len = nwords < piece ? nwords : piece;

		if (!compare)
			mem_copy64(dst, src, len);
		else
			compare_words(ctx, dst, src, len);
		if (!report(ctx, 16 * len))
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
	return mt_phase_end(ctx, !compare);
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
