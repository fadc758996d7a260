// SPDX-License-Identifier: GPL-2.0-or-later
// The chunk walker and the fill / check / read-then-write sweeps of
// sweep.h. Hot loops count words rather than compare addresses: a chunk of
// n words starting at lo ends at hi = lo + 8n, a representable address, so
// the ascending address never passes hi and nothing wraps at the top of the
// address space. Loops handle one line of MT_LINE_WORDS words per iteration
// with a prefetch ahead (sweep.h), the odd words at a chunk's end one by
// one (see bench/ for the measured bandwidth).
#include "memtest/sweep.h"

void mt_report(const struct mt_ctx *ctx, uint64_t base, uint64_t off, uint64_t expect,
	       uint64_t actual)
{
	ctx->error(ctx->cb_ctx, base + off, expect, actual);
}

uint64_t mt_ranges_bytes(const struct mt_ctx *ctx)
{
	uint64_t n = 0;

	// Disjoint ranges of the 64-bit space: the sum is below 2^64.
	for (size_t i = 0; i < ctx->nranges; i++)
		n += ctx->ranges[i].end - ctx->ranges[i].start;
	return n;
}

void mt_walk_begin_part(struct mt_walk *w, const struct mt_ctx *ctx,
			enum mt_dir dir, uint64_t lo, uint64_t hi)
{
	*w = (struct mt_walk){
		.ctx = ctx,
		.dir = dir,
		.next = dir == MT_UP ? 0 : ctx->nranges,
		.part_lo = lo,
		.part_hi = hi,
		.pos = dir == MT_UP ? 0 : mt_ranges_bytes(ctx),
	};
}

void mt_walk_begin(struct mt_walk *w, const struct mt_ctx *ctx,
		   enum mt_dir dir)
{
	mt_walk_begin_part(w, ctx, dir, 0, UINT64_MAX);
}

bool mt_walk_next(struct mt_walk *w)
{
	const struct mt_ctx *ctx = w->ctx;

	if (w->in_chunk) {
		w->in_chunk = false;
		if (!ctx->progress(ctx->cb_ctx, w->hi - w->lo)) {
			w->aborted = true;
			return false;
		}
	}
	for (;;) {
		// Chunk sizes come from differences inside one range, so no
		// address computed here can leave [start, end].
		if (w->dir == MT_UP && w->hi < w->end) {
			uint64_t left = w->end - w->hi;

			w->lo = w->hi;
			w->hi += left < MT_CHUNK_BYTES ? left : MT_CHUNK_BYTES;
			w->in_chunk = true;
			return true;
		}
		if (w->dir == MT_DOWN && w->lo > w->start) {
			uint64_t left = w->lo - w->start;

			w->hi = w->lo;
			w->lo -= left < MT_CHUNK_BYTES ? left : MT_CHUNK_BYTES;
			w->in_chunk = true;
			return true;
		}
		// This range is done (or there was none yet): enter the next.
		if (w->dir == MT_UP ? w->next == ctx->nranges : w->next == 0)
			return false;
		const struct range *r =
			&ctx->ranges[w->dir == MT_UP ? w->next++ : --w->next];
		uint64_t size = r->end - r->start, at;

		// The range holds bytes [at, at + size) of the ranges end to
		// end (at + size <= their sum, so nothing wraps); walk what of
		// it lies in the part. The whole walk keeps the whole range.
		if (w->dir == MT_UP) {
			at = w->pos;
			w->pos += size;
		} else {
			w->pos -= size;
			at = w->pos;
		}
		w->start = w->end = r->start;
		if (w->part_hi > at && w->part_lo < at + size) {
			w->start += w->part_lo > at ? w->part_lo - at : 0;
			w->end += w->part_hi - at < size ? w->part_hi - at : size;
		}
		w->lo = w->hi = w->dir == MT_UP ? w->start : w->end;
	}
}

// One ascending pass that fills every word with (addr & amask) ^ pattern
// (non-temporal stores, fenced at the end) or, when check, checks it (a
// prefetch ahead of the line being read).
static inline __attribute__((always_inline)) bool
pattern_sweep(const struct mt_ctx *ctx, uint64_t pattern, uint64_t amask,
	      bool check)
{
	struct mt_walk w;

	mt_walk_begin(&w, ctx, MT_UP);
	while (mt_walk_next(&w)) {
		uint64_t a = w.lo, n = (w.hi - w.lo) / 8;

		for (uint64_t k = n / MT_LINE_WORDS; k; k--) {
			if (check)
				mem_prefetch(a + MT_PREFETCH_BYTES);
#pragma GCC unroll 8
			for (unsigned j = 0; j < MT_LINE_WORDS; j++)
				mt_fill_or_check(ctx, a + 8 * j,
						 ((a + 8 * j) & amask) ^ pattern,
						 check);
			a += 8 * MT_LINE_WORDS;
		}
		for (uint64_t k = n % MT_LINE_WORDS; k; k--, a += 8)
			mt_fill_or_check(ctx, a, (a & amask) ^ pattern, check);
	}
	if (!check)
		mem_store_fence();
	return !w.aborted && mt_phase_end(ctx, false);
}

// pattern_sweep with amask a constant where it can be: the value of a word
// then costs one register (amask 0) or one xor (amask ~0), not an and and
// an xor. Always inlined, so check stays a constant too.
static inline __attribute__((always_inline)) bool
pattern_pass(const struct mt_ctx *ctx, uint64_t pattern, uint64_t amask,
	     bool check)
{
	if (amask == 0)
		return pattern_sweep(ctx, pattern, 0, check);
	if (amask == ~0ull)
		return pattern_sweep(ctx, pattern, ~0ull, check);
	return pattern_sweep(ctx, pattern, amask, check);
}

bool mt_sweep_fill(const struct mt_ctx *ctx, uint64_t pattern, uint64_t amask)
{
	return pattern_pass(ctx, pattern, amask, false);
}

bool mt_sweep_check(const struct mt_ctx *ctx, uint64_t pattern,
		    uint64_t amask)
{
	return pattern_pass(ctx, pattern, amask, true);
}

// The read-then-write sweep in one direction over bytes [lo, hi) of the
// ranges end to end (no phase end). Always inlined, so that the callers can
// give the compiler dir as a constant: every word of a line is then a
// constant offset from one register.
static inline __attribute__((always_inline)) bool
rw_sweep(const struct mt_ctx *ctx, enum mt_dir dir, uint64_t lo, uint64_t hi,
	 uint64_t expect, uint64_t write)
{
	struct mt_walk w;
	// Descending steps by -8 in two's complement: the address after the
	// last word is lo - 8, which wraps when lo is 0; it is never used (nor
	// is a prefetch address that wraps: a hint, never a fault).
	uint64_t step = dir == MT_UP ? 8 : -(uint64_t)8;

	mt_walk_begin_part(&w, ctx, dir, lo, hi);
	while (mt_walk_next(&w)) {
		uint64_t a = dir == MT_UP ? w.lo : w.hi - 8;
		uint64_t n = (w.hi - w.lo) / 8;

		// Word by word, each read then written: a coupling between
		// two words of a line must see the write of the one before the
		// read of the next.
		for (uint64_t k = n / MT_LINE_WORDS; k; k--) {
			mem_prefetch(a + MT_PREFETCH_BYTES / 8 * step);
#pragma GCC unroll 8
			for (unsigned j = 0; j < MT_LINE_WORDS; j++)
				mt_check_then_write(ctx, a, j * step, expect, write);
			a += MT_LINE_WORDS * step;
		}
		for (uint64_t k = n % MT_LINE_WORDS; k; k--, a += step)
			mt_check_then_write(ctx, a, 0, expect, write);
	}
	return !w.aborted;
}

bool mt_sweep_rw_part(const struct mt_ctx *ctx, enum mt_dir dir, uint64_t lo,
		      uint64_t hi, uint64_t expect, uint64_t write)
{
	if (dir == MT_UP)
		return rw_sweep(ctx, MT_UP, lo, hi, expect, write);
	return rw_sweep(ctx, MT_DOWN, lo, hi, expect, write);
}

bool mt_sweep_rw(const struct mt_ctx *ctx, enum mt_dir dir, uint64_t expect,
		 uint64_t write)
{
	return mt_sweep_rw_part(ctx, dir, 0, UINT64_MAX, expect, write) &&
	       mt_phase_end(ctx, true);
}
