// SPDX-License-Identifier: GPL-2.0-or-later
// hammer: the row hammer test of lib/dram/hammer.c in the test table. Each
// CPU builds the same plan over the job's whole memory and hammers its
// banks of it (hammer_site_cpu), so no two CPUs touch the same rows:
// double-sided first, then many-sided with decoys (TRRespass's way past
// TRR) with what is left of the budget. Flips at both rates are errors
// through ctx->error; those at the maximum rate only go to the machine's
// vulnerable callback (the two-rate rule). Without ctx->hammer (the host
// simulators) it does nothing.
#include "memtest/algos.h"

// Many-sided: aggressors (victims between them) and far decoys.
#define MANY_SIDES 8
#define MANY_DECOYS 2
// Sites per pass at most; the budget in ticks usually ends it first.
#define SITES_PER_PASS 4096
// The retest's rate is HAMMER_LOW_RATE; the first round's as fast as the
// machine goes.
#define MAX_RATE 100000000u

struct run {
	const struct mt_ctx *mt;
	bool stop;
};

static void fill(void *cb_ctx, uint64_t start, uint64_t end, uint64_t value)
{
	((struct run *)cb_ctx)->mt->hammer->fill(NULL, start, end, value);
}

static uint64_t read_word(void *cb_ctx, uint64_t addr)
{
	return ((struct run *)cb_ctx)->mt->hammer->read(NULL, addr);
}

static uint64_t hammer(void *cb_ctx, const uint64_t *aggr, unsigned naggr, uint32_t count,
		       uint64_t hold_ticks)
{
	return ((struct run *)cb_ctx)->mt->hammer->hammer(NULL, aggr, naggr, count, hold_ticks);
}

static void error(void *cb_ctx, uint64_t addr, uint64_t expected, uint64_t actual)
{
	const struct mt_ctx *mt = ((struct run *)cb_ctx)->mt;

	mt->error(mt->cb_ctx, addr, expected, actual);
}

static void vulnerable(void *cb_ctx, uint64_t addr, uint64_t expected, uint64_t actual)
{
	const struct mt_hammer *h = ((struct run *)cb_ctx)->mt->hammer;

	h->vulnerable(h->ctx, addr, expected, actual);
}

// Between sites: the keys, the stall watch (nothing swept, so 0 bytes).
static bool progress(void *cb_ctx, uint32_t sites_done)
{
	struct run *r = cb_ctx;

	(void)sites_done;
	r->stop = r->stop || !r->mt->progress(r->mt->cb_ctx, 0);
	return !r->stop;
}

// One pattern over this CPU's banks within budget ticks; false when a key
// stopped it.
static bool pattern(struct run *r, unsigned sides, unsigned decoys, uint64_t budget,
		    struct hammer_result *res)
{
	const struct mt_hammer *h = r->mt->hammer;
	struct hammer_plan plan;
	struct hammer_ctx hc = {
		.fill = fill, .read = read_word, .hammer = hammer, .error = error,
		.vulnerable = vulnerable, .progress = progress, .cb_ctx = r,
		.tsc_hz = h->tsc_hz, .max_rate = MAX_RATE, .low_rate = HAMMER_LOW_RATE,
		.max_ticks = budget,
	};
	unsigned cpu = r->mt->sync ? r->mt->share : 0;
	unsigned ncpus = r->mt->sync && r->mt->nshares ? r->mt->nshares : 1;

	*res = (struct hammer_result){ 0 };
	if (budget == 0 || !hammer_plan_init(&plan, h->map, h->row_stride, h->ranges, h->nranges,
					     sides, decoys, SITES_PER_PASS))
		return true;
	return hammer_run(&plan, h->pass, cpu, ncpus, &hc, res);
}

bool mt_hammer(const struct mt_ctx *ctx, const void *param)
{
	const struct mt_hammer *h = ctx->hammer;
	struct run r = { ctx, false };
	struct hammer_result two, many;

	(void)param;
	if (h) {
		// Half the budget each (a site at least); what double-sided
		// leaves goes to many-sided.
		if (pattern(&r, 2, 0, h->max_ticks / 2 + 1, &two)) {
			uint64_t left = h->max_ticks > two.spent ? h->max_ticks - two.spent : 0;
			pattern(&r, MANY_SIDES, MANY_DECOYS, left, &many);
		} else {
			many = (struct hammer_result){ 0 };
		}
		h->done(h->ctx, &two, &many);
	}
	// Every CPU meets once at the end, as the parallel tests' contract asks.
	if (ctx->sync && !ctx->sync(ctx->cb_ctx, false))
		return false;
	return !r.stop;
}
