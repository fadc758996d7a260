// SPDX-License-Identifier: GPL-2.0-or-later
// address-walk: walking ones, then walking zeros, over the address lines of
// each range. With base the range's first word and n its length in words:
//	ones:  the words at base + 8 * o for o = 0 and o = 2^k < n;
//	zeros: with M = 2^m - 1 the largest all-ones word offset below n, the
//	       words at o = M and o = M ^ 2^k for k < m.
// Each set is written with every word's own address; then in turn one word
// gets its complement and the whole set is checked before it is restored, so
// any two addresses that reach the same cell show: an address line stuck,
// open or shorted, from line 3 up to the range's size (lines above it are
// left to own-address and march-c). The sets hold at most 65 words: the test
// costs microseconds and reports no progress.
#include "memtest/algos.h"
#include "memtest/sweep.h"

// At most 1 + 64 offsets (n < 2^61 words in a 64-bit address space).
#define MAX_SET 65

// Walk one set of word offsets from base.
static void walk_set(const struct mt_ctx *ctx, uint64_t base,
		     const uint64_t *off, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		mem_write64_nt(base + 8 * off[i], base + 8 * off[i]);
	mem_store_fence();
	for (unsigned f = 0; f < n; f++) {
		uint64_t fa = base + 8 * off[f];

		mem_write64_nt(fa, ~fa);
		mem_store_fence();
		for (unsigned i = 0; i < n; i++) {
			uint64_t a = base + 8 * off[i];

			mt_check_word(ctx, a, i == f ? ~a : a);
		}
		mem_write64_nt(fa, fa);
		mem_store_fence();
	}
}

bool mt_addrwalk(const struct mt_ctx *ctx, const void *param)
{
	(void)param;
	for (size_t j = 0; j < ctx->nranges; j++) {
		uint64_t base = ctx->ranges[j].start;
		uint64_t n = (ctx->ranges[j].end - base) / 8;
		uint64_t off[MAX_SET];
		unsigned cnt = 0, m = 0;

		if (n == 0)
			continue;
		off[cnt++] = 0;
		for (unsigned k = 0; k < 64 && (1ull << k) < n; k++)
			off[cnt++] = 1ull << k;
		walk_set(ctx, base, off, cnt);

		while (m < 63 && (2ull << m) <= n)
			m++;
		// 2^m <= n, so M = 2^m - 1 and every M ^ 2^k lie below n.
		uint64_t mask = (1ull << m) - 1;

		cnt = 0;
		off[cnt++] = mask;
		for (unsigned k = 0; k < m; k++)
			off[cnt++] = mask ^ (1ull << k);
		walk_set(ctx, base, off, cnt);
	}
	return true;
}
