// SPDX-License-Identifier: GPL-2.0-or-later
// The sweep engine the memory tests are built from: a walker that visits the
// ranges of a context in chunks (reporting progress and honouring an abort
// between chunks), the word check every test uses, and the three sweeps that
// March-like tests are made of (fill, check, read-then-write). Internal to
// the memory tests; callers use memtest.h.
#ifndef RAMSIFT_LIB_MEMTEST_SWEEP_H
#define RAMSIFT_LIB_MEMTEST_SWEEP_H

#include "memtest/memaccess.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "memtest/memtest.h"

enum mt_dir { MT_UP, MT_DOWN };

// Walks ctx's ranges in chunks of at most MT_CHUNK_BYTES: ascending (ranges
// first to last, chunks low to high) or descending (the reverse). Loops over
// a chunk count its words, (hi - lo) / 8, rather than compare addresses: an
// ascending address then only ever reaches hi, a representable value, so
// nothing wraps at the top of the address space. Use as
//	struct mt_walk w;
//	mt_walk_begin(&w, ctx, MT_UP);
//	while (mt_walk_next(&w))
//		... words of [w.lo, w.hi) ...
//	return !w.aborted;
// A walk may also cover only a part of the ranges (mt_walk_begin_part):
// bytes [part_lo, part_hi) of the ranges taken end to end.
struct mt_walk {
	const struct mt_ctx *ctx;
	enum mt_dir dir;
	size_t next;       // index of the next range to enter (MT_UP), or one
			   // past it (MT_DOWN)
	uint64_t start;    // the current range (its part walked), [start, end)
	uint64_t end;
	uint64_t lo, hi;   // the current chunk, [lo, hi), 8-byte aligned
	uint64_t part_lo, part_hi; // the part walked, bytes end to end
	uint64_t pos;      // bytes end to end before the next range (MT_UP),
			   // or up to the end of the one entered last (MT_DOWN)
	bool in_chunk;     // lo..hi is a chunk not yet reported
	bool aborted;      // progress asked to stop
};

// Set w up to walk ctx's ranges in direction dir. No callback is made.
void mt_walk_begin(struct mt_walk *w, const struct mt_ctx *ctx,
		   enum mt_dir dir);

// Set w up to walk only bytes [lo, hi) of ctx's ranges taken end to end
// (both multiples of 8; hi beyond the end means to the end), in direction
// dir. Chunks start where the part starts in each range. No callback.
void mt_walk_begin_part(struct mt_walk *w, const struct mt_ctx *ctx,
			enum mt_dir dir, uint64_t lo, uint64_t hi);

// Bytes in ctx's ranges.
uint64_t mt_ranges_bytes(const struct mt_ctx *ctx);

// The end of a phase of a test: with ctx->sync, wait for every CPU running
// the test to end it (sync), passing flush; alone, flush the caches when
// flush says so (mem_flush_cache). Returns false when the test must stop.
// Tests call it after every phase (memtest.h, mt_sync_fn).
static inline bool mt_phase_end(const struct mt_ctx *ctx, bool flush)
{
	if (ctx->sync)
		return ctx->sync(ctx->cb_ctx, flush);
	if (flush)
		mem_flush_cache();
	return true;
}

// Report the chunk just visited (if any) to ctx->progress, then move to the
// next non-empty chunk. Returns true with w->lo/hi (and w->start/end, its
// range) set, or false at the end of the ranges or when progress returned
// false (then w->aborted is true).
bool mt_walk_next(struct mt_walk *w);

// The hot loops handle a line of MT_LINE_WORDS words per iteration (one
// 64-byte cache line when the chunk starts on a line) and prefetch the line
// MT_PREFETCH_BYTES ahead of the one they are at (mem_prefetch): on the
// host of bench/ the hardware prefetchers alone leave sequential reads
// 15-25 % short, and a fixed 2 KiB was the best distance between 256 B and
// 4 KiB. Each word is compared on its own (mt_check_word): ORing a line's
// differences and branching once per line was slower there, as the values
// read must be kept for the report and no longer fit in registers.
#define MT_LINE_WORDS 8
#define MT_PREFETCH_BYTES 2048

// Read the word at addr and report it when it is not expect. The only call a
// hot loop makes, and it is unlikely.
static inline void mt_check_word(const struct mt_ctx *ctx, uint64_t addr,
				 uint64_t expect)
{
	uint64_t v = mem_read64(addr);

	if (__builtin_expect(v != expect, 0))
		ctx->error(ctx->cb_ctx, addr, expect, v);
}

// One word of a sweep that fills or checks: when check, report the word at
// addr unless it holds x (mt_check_word), else store x non-temporally. The
// sweeps inline it with check a constant, so each loop keeps only its half.
// ctx's error callback for the word at base + off, out of line and cold.
void __attribute__((cold)) mt_report(const struct mt_ctx *ctx, uint64_t base, uint64_t off,
				     uint64_t expect, uint64_t actual);

// Read the word at base + off, write write there, then report the value read
// if it was not expect. The address is only ever an addressing mode in the
// hot path (mt_report adds base and off on the cold one), and the store needs
// nothing the check computes: four instructions a word, not five, in the
// read-then-write sweeps (bench/README.md, instrument 3).
static inline void mt_check_then_write(const struct mt_ctx *ctx, uint64_t base, uint64_t off,
				       uint64_t expect, uint64_t write)
{
	uint64_t v = mem_read64(base + off);

	mem_write64(base + off, write);
	if (__builtin_expect(v != expect, 0))
		mt_report(ctx, base, off, expect, v);
}

static inline void mt_fill_or_check(const struct mt_ctx *ctx, uint64_t addr,
				    uint64_t x, bool check)
{
	if (check)
		mt_check_word(ctx, addr, x);
	else
		mem_write64_nt(addr, x);
}

// Each sweep below is one phase: it ends with mt_phase_end.

// One ascending pass writing (addr & amask) ^ pattern to every word: amask 0
// writes the constant pattern, amask ~0 each word's own address (xor
// pattern). Non-temporal stores, fenced at the end. Returns false if aborted.
bool mt_sweep_fill(const struct mt_ctx *ctx, uint64_t pattern, uint64_t amask);

// One ascending pass checking that every word holds (addr & amask) ^ pattern.
// Returns false if aborted.
bool mt_sweep_check(const struct mt_ctx *ctx, uint64_t pattern,
		    uint64_t amask);

// One pass in direction dir that, word by word, checks expect then writes
// write: the March element (r expect, w write). Cached stores, caches flushed
// at the end. Returns false if aborted.
bool mt_sweep_rw(const struct mt_ctx *ctx, enum mt_dir dir, uint64_t expect,
		 uint64_t write);

// mt_sweep_rw over bytes [lo, hi) of the ranges end to end only, and not a
// phase: no flush, no sync (the caller ends the phase). Returns false if
// aborted.
bool mt_sweep_rw_part(const struct mt_ctx *ctx, enum mt_dir dir, uint64_t lo,
		      uint64_t hi, uint64_t expect, uint64_t write);

#endif
