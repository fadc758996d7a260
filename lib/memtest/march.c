// SPDX-License-Identifier: GPL-2.0-or-later
// march-c: March C- (van de Goor 1991), in its usual notation
//	{⇕(w0); ⇑(r0,w1); ⇑(r1,w0); ⇓(r0,w1); ⇓(r1,w0); ⇕(r0)}
// where "0" is a word-wide data background D and "1" its complement. Over one
// background it detects every stuck-at, transition and address-decoder fault
// and every unlinked inversion, idempotent and state coupling fault between
// two cells in different words, whatever their distance (10 accesses a word).
//
// Coupling between two bits of one word needs more: a write changes both bits
// at once, so the aggressor bit must rise or fall while the victim bit is
// written to each value. For bits i and j that means a background in which
// they differ; the backgrounds 0x5555.., 0x3333.., 0x0F0F.., 0x00FF..,
// 0x0000FFFF.., 0x00000000FFFFFFFF differ in bits i and j whenever the bit
// indices i and j differ in bit 0, 1, .., 5, so together they separate every
// pair (log2(64) + 1 = 7 backgrounds with the solid one). Address order no
// longer matters for a pair inside one word, so each further background D
// gets the short march
//	{⇑(r D_prev, w D); ⇑(r D, w ~D); ⇑(r ~D, w D)}
// (6 accesses a word) rather than all of March C- again (10): it raises and
// lowers every bit under each background and reads every write back. The
// final ⇕(r D_last) ends the test. tests/sim's coverage table shows the
// result.
//
// Several CPUs (ctx->nshares >= 2, each over its share): March C- finds a
// coupling between words a and v because its ⇑ and ⇓ elements visit a and v
// in opposite orders. Between two shares, concurrent CPUs give no order at
// all: if the CPU of a's share happens to be ahead of v's in every element
// (or the two run in lockstep and the victim's read and write straddle the
// aggressor's write), half the idempotent couplings between the shares go
// unseen. Barriers order what they separate, so an ordered element runs in
// K = nshares steps, a barrier after each, every CPU doing one slice (1/K of
// its share) per step:
//	family A: step t does slice t of every share (t = 0..K-1 for ⇑,
//	          K-1..0 for ⇓): a CPU walks its share in address order;
//	family C: step t does slice (t + share) mod K of each share.
// Two words in different shares are ordered by family A unless they lie in
// the same slice of their shares, and by family C unless t differs by the
// difference of their shares' numbers (mod K); K >= nshares makes the two
// exclusive, so every pair is ordered by one family, and ⇓ reverses it. The
// core runs in family A's steps (inside a share, March C- as alone), and
// the first further background's march becomes a March C- core of its own
// in family C's steps:
//	{⇑(r D_prev, w D); ⇑(r D, w ~D); ⇑(r ~D, w D); ⇓(r D, w ~D); ⇓(r ~D, w D)}
// Over any background, a March C- core finds every two-word coupling
// between words it orders (each cell's bits only relabelled), so every
// two-word coupling is found whatever the CPUs' timing. The price is two
// sweeps (26 instead of 24, the table's shared_sweeps) and 8K barriers.
// Nothing cheaper can: tests/sim/pairmodel.c checks every two-cell fault
// against every interleaving, shows the misses of one core, and shows that
// no order of the backgrounds' elements without a sweep more finds them
// all; docs/memory-tests.md has the argument and the numbers.
#include "algos.h"
#include "sweep.h"

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
