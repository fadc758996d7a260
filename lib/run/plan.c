// SPDX-License-Identifier: GPL-2.0-or-later
// The run's choices (see plan.h).
#include "memtest/prng.h"
#include "page.h"
#include "plan.h"


size_t plan_tests(const struct config *cfg, const struct mt_test **out, size_t cap)
{
	size_t n = 0;

	if (cfg->ntests) {
		for (size_t i = 0; i < cfg->ntests && n < cap; i++)
			out[n++] = &mt_tests[cfg->tests[i]];
		return n;
	}
	for (size_t i = 0; i < mt_ntests && n < cap; i++)
		if (mt_tests[i].in_default_pass)
			out[n++] = &mt_tests[i];
	return n;
}

uint64_t plan_seed(const struct config *cfg, uint64_t entropy)
{
	return cfg->seed_set ? cfg->seed : entropy * PRNG_GOLDEN_GAMMA;
}

uint64_t plan_pass_seed(uint64_t seed, uint32_t pass)
{
	return seed + pass * PRNG_GOLDEN_GAMMA;
}

uint64_t plan_move(const struct ram *ram, uint64_t bytes, const struct badram_table *bad)
{
	for (size_t i = ram->nfree; i-- > 0;) {
		uint64_t lo = ram->free[i].start > PLAN_MOVE_MIN_ADDR ? ram->free[i].start
								     : PLAN_MOVE_MIN_ADDR;
		uint64_t end = ram->free[i].end;
		// Slide the block down below the highest failing page inside it.
		while (end > lo && end - lo >= bytes) {
			uint64_t page = end;
			while (page > end - bytes && !badram_table_has(bad, page - PAGE_SIZE))
				page -= PAGE_SIZE;
			if (page == end - bytes)
				return page;
			end = page - PAGE_SIZE;
		}
	}
	return 0;
}

struct badram_budget plan_fold_budget(const struct config *cfg, bool uefi)
{
	struct badram_budget b = badram_budget_default();

	b.pairs = cfg->patterns;
	b.holes = cfg->holes;
	b.uefi_only = uefi;
	return b;
}
