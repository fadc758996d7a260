// SPDX-License-Identifier: GPL-2.0-or-later
// bit-fade: fill every word with zeros, wait ctx->bitfade_s seconds, check;
// then the same with ones. Finds data-retention faults: cells that lose
// their charge within the wait (DRAM's true and anti cells leak to opposite
// values, hence both polarities). The fill uses non-temporal stores and the
// check starts after the wait, so every word is read from DRAM, not cache.
// A bitfade_s of 0 skips the test (it touches nothing and reports no
// progress).
#include "algos.h"
#include "sweep.h"

bool mt_bitfade(const struct mt_ctx *ctx, const void *param)
{
	(void)param;
	if (ctx->bitfade_s == 0)
		return true;
	for (int ones = 0; ones < 2; ones++) {
		uint64_t pat = ones ? ~0ull : 0;

		// Three phases: fill, wait, check. With several CPUs every
		// share is filled before any CPU starts its wait.
		if (!mt_sweep_fill(ctx, pat, 0) ||
		    !ctx->sleep(ctx->cb_ctx, ctx->bitfade_s) ||
		    !mt_phase_end(ctx, false) || !mt_sweep_check(ctx, pat, 0))
			return false;
	}
	return true;
}
