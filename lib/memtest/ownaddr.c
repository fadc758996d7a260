// SPDX-License-Identifier: GPL-2.0-or-later
// own-address: {⇑(w a); ⇑(r a); ⇑(w ~a); ⇑(r ~a)} where a is each word's own
// physical address. Every word holds a value no other word holds, and all
// writes finish before the first read, so any two addresses that reach the
// same cell, an address that reaches no cell, and an address that also writes
// another cell show up as a wrong value; with the complement pass every bit
// also holds both values, so stuck-at faults are found too. Cheap (4 sweeps)
// and what a user's "the board aliases memory" question needs.
#include "memtest/algos.h"
#include "memtest/sweep.h"

bool mt_ownaddr(const struct mt_ctx *ctx, const void *param)
{
	(void)param;
	return mt_sweep_fill(ctx, 0, ~0ull) && mt_sweep_check(ctx, 0, ~0ull) &&
	       mt_sweep_fill(ctx, ~0ull, ~0ull) &&
	       mt_sweep_check(ctx, ~0ull, ~0ull);
}
