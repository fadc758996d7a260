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
#include "algos.h"
#include "sweep.h"

bool mt_march(const struct mt_ctx *ctx, const void *param)
{
	const struct mt_march_param *p = param;
	uint64_t d = p->backgrounds[0];

	if (!mt_sweep_fill(ctx, d, 0) || !mt_sweep_rw(ctx, MT_UP, d, ~d) ||
	    !mt_sweep_rw(ctx, MT_UP, ~d, d) ||
	    !mt_sweep_rw(ctx, MT_DOWN, d, ~d) ||
	    !mt_sweep_rw(ctx, MT_DOWN, ~d, d))
		return false;
	for (size_t i = 1; i < p->count; i++) {
		uint64_t e = p->backgrounds[i];

		if (!mt_sweep_rw(ctx, MT_UP, d, e) ||
		    !mt_sweep_rw(ctx, MT_UP, e, ~e) ||
		    !mt_sweep_rw(ctx, MT_UP, ~e, e))
			return false;
		d = e;
	}
	return mt_sweep_check(ctx, d, 0);
}
