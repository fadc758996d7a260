// SPDX-License-Identifier: GPL-2.0-or-later
// bit-fade: fill every word with zeros, wait ctx->bitfade_s seconds, check;
// then the same with ones. Finds data-retention faults: cells that lose
// their charge within the wait (DRAM's true and anti cells leak to opposite
// values, hence both polarities). The fill uses non-temporal stores and the
// check starts after the wait, so every word is read from DRAM, not cache.
// A bitfade_s of 0 skips the test (it touches nothing and reports no
// progress). Its halves, a fill and a check, are tests of their own too:
// a pass that lays out its retention windows itself (lib/run/schedule.h)
// runs them with other work and a wait between.
#include "memtest/algos.h"
#include "memtest/sweep.h"

static const bool zeros = false, ones = true;

static uint64_t pattern(const void *param)
{
	return *(const bool *)param ? ~0ull : 0;
}

static bool fade_fill(const struct mt_ctx *ctx, const void *param)
{
	return mt_sweep_fill(ctx, pattern(param), 0) && mt_phase_end(ctx, false);
}

static bool fade_check(const struct mt_ctx *ctx, const void *param)
{
	return mt_sweep_check(ctx, pattern(param), 0) && mt_phase_end(ctx, false);
}

#define HALF(fn, p, what) { .name = "bit-fade", .run = fn, .param = &p, .summary = what, \
			    .sweeps = 1, .parallel = true, .shared_sweeps = 1 }
const struct mt_test mt_fade_fill[2] = {
	HALF(fade_fill, zeros, "bit-fade's fill with zeros"),
	HALF(fade_fill, ones, "bit-fade's fill with ones"),
};
const struct mt_test mt_fade_check[2] = {
	HALF(fade_check, zeros, "bit-fade's check of zeros"),
	HALF(fade_check, ones, "bit-fade's check of ones"),
};

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
