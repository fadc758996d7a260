// SPDX-License-Identifier: GPL-2.0-or-later
// The record's reserved pages tested again (recheck.h): the failures are
// counted, not recorded, since the pages are out of the map already.
#include "recheck.h"
#include "run/plan.h"
#include "x86/timer.h"

// The tests run over the pages again and again for this long at least:
// a cell that fails now and then (or a fault injector's, which restores
// its bit every 100 us) gets many chances in a few pages.
#define RECHECK_MS 1000

static void insert_sorted(struct recheck *r, struct range x)
{
	size_t i = r->nranges++;

	for (; i > 0 && r->range[i - 1].start > x.start; i--)
		r->range[i] = r->range[i - 1];
	r->range[i] = x;
}

bool recheck_from_map(struct recheck *r, const struct mmap_entry *map, size_t n)
{
	bool complete = true;

	for (size_t i = 0; i < n; i++) {
		uint64_t start = (map[i].base + PAGE_SIZE - 1) & ~(uint64_t)(PAGE_SIZE - 1);
		uint64_t end = (map[i].base + map[i].len) & ~(uint64_t)(PAGE_SIZE - 1);
		if (map[i].type != MMAP_BAD || map[i].base >= RANGE_MAX_ADDR ||
		    map[i].len > RANGE_MAX_ADDR - map[i].base || end <= start)
			continue;
		if (r->nranges == RECHECK_RANGES_MAX) {
			complete = false;
			continue;
		}
		insert_sorted(r, (struct range){ start, end });
		r->pages += (end - start) / PAGE_SIZE;
	}
	return complete;
}

struct tally {
	uint64_t reads;
	uint64_t first;		// the first failing address
};

static void failed(void *ctx, uint64_t addr, uint64_t expected, uint64_t actual)
{
	struct tally *t = ctx;

	(void)expected, (void)actual;
	if (t->reads++ == 0)
		t->first = addr;
}

static bool go_on(void *ctx, uint64_t bytes)
{
	(void)ctx, (void)bytes;
	return true;
}

uint64_t recheck_run(const struct recheck *r, const struct config *cfg, uint64_t seed,
		     uint64_t *first)
{
	const struct mt_test *tests[CMDLINE_MAX_TESTS];
	size_t n = plan_tests(cfg, tests, CMDLINE_MAX_TESTS);
	struct tally t = { 0, 0 };
	struct mt_ctx ctx = { .ranges = r->range, .nranges = r->nranges, .error = failed,
			      .progress = go_on, .cb_ctx = &t, .seed = seed };

	uint64_t start = timer_ms();
	do {
		for (size_t i = 0; i < n && t.reads == 0; i++)
			tests[i]->run(&ctx, tests[i]->param);
	} while (t.reads == 0 && timer_ms() - start < RECHECK_MS);
	*first = t.first;
	return t.reads;
}
