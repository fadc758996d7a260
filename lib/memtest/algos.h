// SPDX-License-Identifier: GPL-2.0-or-later
// The memory test algorithms, one per lib/memtest/*.c file, and their parameter
// structs: the contract between each algorithm and the test table in
// memtest.c. Every entry point has the mt_test.run signature: it takes the
// caller's context and its own parameter block, reports failing words through
// ctx->error, and returns false only when a callback asked to abort. What each
// detects is said in its source file.
#ifndef RAMSIFT_LIB_MEMTEST_ALGOS_H
#define RAMSIFT_LIB_MEMTEST_ALGOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "memtest/memtest.h"

// address-walk (addrwalk.c): walking ones, then zeros, over the address
// lines of each range. No parameter (pass NULL).
bool mt_addrwalk(const struct mt_ctx *ctx, const void *param);

// own-address (ownaddr.c): every word holds its own address, then its
// complement. No parameter.
bool mt_ownaddr(const struct mt_ctx *ctx, const void *param);

// Moving inversions (movinv.c), once per pattern: ascending fill with p;
// ascending (check p, write ~p); descending (check ~p, write p).
enum mt_mi_kind {
	MT_MI_SOLID,  // pattern i: all zeros (i even), all ones (i odd)
	MT_MI_WALK8,  // pattern i: a one walking in every byte, bit i % 8
	MT_MI_RANDOM, // pattern i: the i-th output of the seeded generator
	MT_MI_WALK64, // pattern i: a one walking in the word, bit i % 64
};

struct mt_movinv_param {
	enum mt_mi_kind kind;
	unsigned count; // patterns 0..count-1, 3 sweeps each
};

bool mt_movinv(const struct mt_ctx *ctx, const void *param);

// march-c (march.c): March C- over the first data background, then a short
// march over each further background for intra-word coupling. Over shares
// (nshares >= 2) the second background's march is a March C- core too, in
// another order of the steps.
struct mt_march_param {
	const uint64_t *backgrounds; // first one is used by the full March C-
	size_t count;                // >= 2; 3 * count + 3 sweeps (+ 2 over
				     // shares: the second one's march a core)
};

bool mt_march(const struct mt_ctx *ctx, const void *param);

// random (random.c): a seeded sequence, verified, then its complement.
// No parameter.
bool mt_random(const struct mt_ctx *ctx, const void *param);

// modulo-N (modulo.c): every N-th word against its neighbours.
struct mt_modulo_param {
	unsigned stride; // N, >= 2 words; 6 * N sweeps
};

bool mt_modulo(const struct mt_ctx *ctx, const void *param);

// block-move (blockmove.c): block patterns copied with string moves.
// No parameter.
bool mt_blockmove(const struct mt_ctx *ctx, const void *param);

// bit-fade (bitfade.c): fill, wait ctx->bitfade_s, check; both polarities.
// No parameter.
bool mt_bitfade(const struct mt_ctx *ctx, const void *param);

// hammer (rowhammer.c): row hammer through ctx->hammer, double-sided, then
// many-sided with decoys. No parameter.
bool mt_hammer(const struct mt_ctx *ctx, const void *param);

#endif
