// SPDX-License-Identifier: GPL-2.0-or-later
// march-c: March C- (van de Goor 1991) on a solid background,
//	{⇕(w0); ⇑(r0,w1); ⇑(r1,w0); ⇓(r0,w1); ⇓(r1,w0); ⇕(r0)},
// then for each further background D (0x5555.. to 0x00000000FFFFFFFF),
// which together separate every pair of bits of a word, the short march
//	{⇑(r D_prev, w D); ⇑(r D, w ~D); ⇑(r ~D, w D)}.
// Over several CPUs' shares (ctx->nshares >= 2) nothing orders two words of
// different shares, so ordered elements run in K barrier-separated steps,
// the core in family A's order and the 0x5555.. march turned into a March C-
// core of its own in family C's, so that every two-word coupling is found
// whatever the CPUs' timing (26 sweeps instead of 24). Why these backgrounds,
// why two families and why nothing cheaper works: docs/memory-tests.md,
// "The tests" and "march-c across shares".
#include "memtest/algos.h"
#include "memtest/sweep.h"

// The step orders of the parallel schedule (above).
enum family { FAMILY_A, FAMILY_C };

// One element (r expect, w write) of a core in direction dir: alone (n 1) a
// sweep; with n CPUs, n steps of one slice each, in family f's order.
static bool element(const struct mt_ctx *ctx, unsigned n, enum family f,
		    enum mt_dir dir, uint64_t expect, uint64_t write)
{
	if (n == 1)
		return mt_sweep_rw(ctx, dir, expect, write);

	uint64_t words = mt_ranges_bytes(ctx) / 8;

	for (unsigned s = 0; s < n; s++) {
		unsigned t = dir == MT_UP ? s : n - 1 - s;
		unsigned slice = f == FAMILY_A ? t : (t + ctx->share) % n;
		// Slice k is words [words * k / n, words * (k + 1) / n), the
		// product split so that nothing overflows.
		uint64_t lo = words / n * slice + words % n * slice / n;
		uint64_t hi = words / n * (slice + 1) + words % n * (slice + 1) / n;

		// The steps of one element read what the last element wrote
		// and flushed; only its end needs this one's stores in DRAM.
		if (!mt_sweep_rw_part(ctx, dir, 8 * lo, 8 * hi, expect, write) ||
		    !mt_phase_end(ctx, s + 1 == n))
			return false;
	}
	return true;
}

// March C-'s four read-then-write elements over background d.
static bool core(const struct mt_ctx *ctx, unsigned n, enum family f,
		 uint64_t d)
{
	return element(ctx, n, f, MT_UP, d, ~d) &&
	       element(ctx, n, f, MT_UP, ~d, d) &&
	       element(ctx, n, f, MT_DOWN, d, ~d) &&
	       element(ctx, n, f, MT_DOWN, ~d, d);
}

// The march of further background e after its first element: ⇑(r e, w ~e);
// ⇑(r ~e, w e), or over shares for the first one (first) the family C core.
static bool background(const struct mt_ctx *ctx, unsigned n, bool first,
		       uint64_t e)
{
	if (n > 1 && first)
		return core(ctx, n, FAMILY_C, e);
	return mt_sweep_rw(ctx, MT_UP, e, ~e) && mt_sweep_rw(ctx, MT_UP, ~e, e);
}

bool mt_march(const struct mt_ctx *ctx, const void *param)
{
	const struct mt_march_param *p = param;
	uint64_t d = p->backgrounds[0];
	unsigned n = ctx->sync && ctx->nshares > 1 ? ctx->nshares : 1;

	if (!mt_sweep_fill(ctx, d, 0) || !core(ctx, n, FAMILY_A, d))
		return false;
	for (size_t i = 1; i < p->count; i++) {
		uint64_t e = p->backgrounds[i];

		if (!mt_sweep_rw(ctx, MT_UP, d, e) ||
		    !background(ctx, n, i == 1, e))
			return false;
		d = e;
	}
	return mt_sweep_check(ctx, d, 0);
}
