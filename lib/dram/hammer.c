// SPDX-License-Identifier: GPL-2.0-or-later
// The row hammer test's run: for each of this CPU's sites in a pass, two
// polarities of the row-stripe pattern (the victims' data the complement
// of the aggressors', the worst case Kim et al. 2014 found), each a round
// of fill, two refresh windows of hammering at the maximum rate and a check
// of the victims; words that flipped are hammered again at the lower rate
// and sorted by the two-rate rule. Only the site's bank's part of each row
// is written or read, so that CPUs hammering other banks in the same rows
// never see each other's data.
#include "dram/hammer.h"

// Activations per aggressor of the one timed call that measures how fast
// this machine hammers, before the first site: short, and long enough for
// a TSC reading to be exact to a fraction of a percent.
#define CALIBRATE_COUNT 20000u

// Calls of one window's activations per round, back to back. Whatever the
// phase of the victim's refresh, two windows of hammering contain one whole
// refresh interval at the full rate; and at the low rate, two bursts a
// window apart put the whole count in one interval, or its two parts in
// the interval between them, never more.
#define ROUND_WINDOWS 2

struct run {
	const struct hammer_plan *p;
	const struct hammer_ctx *c;
	struct hammer_result *res;
	unsigned chunk_bits;	// the bank is the same over aligned 2^chunk_bits bytes
	uint64_t window;	// ticks of one refresh window
	uint32_t max_count;	// per aggressor per round at the maximum; 0: not yet measured
	uint32_t bank_step[64];	// see bank_steps()
};

// The flips of one round, kept for the two-rate rule.
struct flips {
	struct hammer_flip f[HAMMER_MAX_FLIPS];
	size_t n;
	bool lost;		// more flipped than f holds
};

static uint64_t low_mask(unsigned n)
{
	return n >= 64 ? UINT64_MAX : (1ull << n) - 1;
}

// The lowest address bit any bank function reads below the row, or the
// row's first bit; never below a word's.
static unsigned chunk_bits(const struct dram_map *map)
{
	unsigned bits = map->row_lo;

	for (unsigned i = 0; i < map->nfuncs; i++) {
		uint64_t below = map->funcs[i] & low_mask(map->row_lo);
		if (below && (unsigned)__builtin_ctzll(below) < bits)
			bits = (unsigned)__builtin_ctzll(below);
	}
	return bits < 3 ? 3 : bits;
}

static uint32_t bank_of(const struct dram_map *map, uint64_t addr)
{
	uint32_t bank = 0;

	for (unsigned i = 0; i < map->nfuncs; i++)
		bank |= (uint32_t)__builtin_parityll(map->funcs[i] & addr) << i;
	return bank;
}

// Call visit on each maximal run of row's bank inside row's block (the
// 2^row_lo bytes sharing its row bits and those above). The plan keeps
// rows inside ranges below RANGE_MAX_ADDR, so the block's end cannot wrap.
static void for_bank_part(const struct run *r, uint64_t row, uint64_t value,
			  void (*visit)(const struct run *r, uint64_t start,
					uint64_t end, uint64_t value, struct flips *fl),
			  struct flips *fl)
{
	const struct dram_map *map = &r->p->map;
	uint64_t base = row & ~low_mask(map->row_lo), chunk = 1ull << r->chunk_bits;
	uint64_t chunks = 1ull << (map->row_lo - r->chunk_bits), from = 0;
	uint32_t want = bank_of(map, row), bank = bank_of(map, base);
	bool in_run = false;

	for (uint64_t j = 0; j < chunks; j++) {
		if (j)
			bank ^= r->bank_step[__builtin_ctzll(j)];
		bool in = bank == want;
		if (in && !in_run)
			from = base + j * chunk;
		else if (!in && in_run)
			visit(r, from, base + j * chunk, value, fl);
		in_run = in;
	}
	if (in_run)
		visit(r, from, base + chunks * chunk, value, fl);
}

// From chunk j - 1 to chunk j the address bits j ^ (j - 1) flip, the
// lowest ctz(j) + 1 chunk bits, and since every function is a parity, the
// bank flips by theirs: bank_step[ctz(j)].
static void bank_steps(struct run *r)
{
	const struct dram_map *map = &r->p->map;

	for (unsigned t = 0; t + r->chunk_bits < map->row_lo; t++)
		r->bank_step[t] = bank_of(map, low_mask(t + 1) << r->chunk_bits);
}

static void fill_part(const struct run *r, uint64_t start, uint64_t end,
		      uint64_t value, struct flips *fl)
{
	(void)fl;
	r->c->fill(r->c->cb_ctx, start, end, value);
}

// A flip beyond what fl holds is reported at once as a plain error: the
// rule could not weigh it.
static void keep_flip(const struct run *r, struct flips *fl, uint64_t addr,
		      uint64_t expected, uint64_t actual)
{
	if (fl->n < HAMMER_MAX_FLIPS) {
		fl->f[fl->n++] = (struct hammer_flip){ addr, expected, actual };
		return;
	}
	fl->lost = true;
	r->c->error(r->c->cb_ctx, addr, expected, actual);
	r->res->errors++;
}

static void check_part(const struct run *r, uint64_t start, uint64_t end,
		       uint64_t value, struct flips *fl)
{
	for (uint64_t a = start; a < end; a += 8) {
		uint64_t got = r->c->read(r->c->cb_ctx, a);
		if (got != value)
			keep_flip(r, fl, a, value, got);
	}
}

// The ticks of a hammer call as the rate counts them: a call that took
// less than a window held to the window's end, so its activations are one
// window's.
static uint64_t window_ticks_of(const struct run *r, uint64_t ticks)
{
	return ticks > r->window ? ticks : r->window;
}

// Measure how many activations per aggressor fit in one window on s's
// aggressors, and aim each maximum-rate round at that (or max_rate).
static void calibrate(struct run *r, const struct hammer_site *s)
{
	const struct hammer_ctx *c = r->c;
	uint64_t ticks = c->hammer(c->cb_ctx, s->aggr, s->naggr, CALIBRATE_COUNT, 0);
	uint64_t fits = ticks ? (uint64_t)((unsigned __int128)CALIBRATE_COUNT * r->window / ticks)
			      : c->max_rate;

	r->res->spent += ticks;
	r->max_count = fits < c->max_rate ? (uint32_t)fits : c->max_rate;
	if (r->max_count == 0)
		r->max_count = 1;
}

// One round: victims hold victim_value, aggressors its complement; then
// ROUND_WINDOWS calls of count activations per aggressor, each held to at
// least a window, and a check of the victims, their flips into fl. Returns
// the ticks of the calls, each counted as at least a window.
static uint64_t round_at(struct run *r, const struct hammer_site *s,
			 uint64_t victim_value, uint32_t count, struct flips *fl)
{
	const struct hammer_ctx *c = r->c;
	uint64_t ticks = 0;

	for (unsigned k = 0; k < s->nvictims; k++)
		for_bank_part(r, s->victim[k], victim_value, fill_part, NULL);
	for (unsigned k = 0; k <= s->nvictims; k++)
		for_bank_part(r, s->aggr[k], ~victim_value, fill_part, NULL);
	for (unsigned w = 0; w < ROUND_WINDOWS; w++)
		ticks += window_ticks_of(r, c->hammer(c->cb_ctx, s->aggr, s->naggr, count,
						      r->window));
	r->res->spent += ticks;
	for (unsigned k = 0; k < s->nvictims; k++)
		for_bank_part(r, s->victim[k], victim_value, check_part, fl);
	return ticks;
}

static bool in_flips(const struct hammer_flip *f, const struct flips *fl)
{
	for (size_t i = 0; i < fl->n; i++)
		if (hammer_same_flip(f, &fl->f[i]))
			return true;
	return false;
}

// The two-rate rule over one polarity's rounds; rate: the maximum round's.
static void sort_flips(struct run *r, const struct flips *at_max,
		       const struct flips *at_low, uint32_t rate)
{
	const struct hammer_ctx *c = r->c;

	for (size_t i = 0; i < at_max->n; i++) {
		const struct hammer_flip *f = &at_max->f[i];
		if (hammer_only_at_max(f, rate, c->low_rate, at_low->f, at_low->n,
				       at_low->lost)) {
			r->res->hammer_only++;
			if (c->vulnerable)
				c->vulnerable(c->cb_ctx, f->addr, f->expected, f->actual);
		} else {
			r->res->errors++;
			c->error(c->cb_ctx, f->addr, f->expected, f->actual);
		}
	}
	for (size_t i = 0; i < at_low->n; i++) {
		const struct hammer_flip *f = &at_low->f[i];
		if (!in_flips(f, at_max)) {
			r->res->errors++;
			c->error(c->cb_ctx, f->addr, f->expected, f->actual);
		}
	}
}

static void hammer_site(struct run *r, const struct hammer_site *s)
{
	for (unsigned polarity = 0; polarity < 2; polarity++) {
		uint64_t victim_value = polarity ? UINT64_MAX : 0;
		struct flips at_max = { .n = 0 }, at_low = { .n = 0 };
		uint64_t ticks = round_at(r, s, victim_value, r->max_count, &at_max);
		uint64_t acts = (uint64_t)r->max_count * ROUND_WINDOWS;

		r->res->acts += acts;
		r->res->ticks += ticks;
		if (at_max.n == 0)
			continue;
		uint32_t rate = (uint32_t)((unsigned __int128)acts * r->window / ticks);
		round_at(r, s, victim_value, r->c->low_rate, &at_low);
		sort_flips(r, &at_max, &at_low, rate);
	}
	r->res->sites++;
	r->res->rows += s->nvictims;
}

bool hammer_run(const struct hammer_plan *p, uint64_t pass, unsigned cpu,
		unsigned ncpus, const struct hammer_ctx *ctx,
		struct hammer_result *res)
{
	struct run r = { .p = p, .c = ctx, .res = res, .chunk_bits = chunk_bits(&p->map),
			 .window = hammer_window_ticks(ctx->tsc_hz), .max_count = 0 };
	struct hammer_site s;

	bank_steps(&r);
	*res = (struct hammer_result){ .guessed = p->guessed };
	for (uint32_t i = 0; i < p->per_pass; i++) {
		if (hammer_site_cpu(p, pass, i, ncpus) != cpu || !hammer_plan_site(p, pass, i, &s))
			continue;
		if (ctx->max_ticks && res->spent >= ctx->max_ticks) {
			res->budget_spent = true;
			break;
		}
		if (r.max_count == 0)
			calibrate(&r, &s);
		hammer_site(&r, &s);
		if (ctx->progress && !ctx->progress(ctx->cb_ctx, res->sites)) {
			res->stopped = true;
			return false;
		}
	}
	return true;
}

uint64_t hammer_window_ticks(uint64_t tsc_hz)
{
	return tsc_hz / 1000 * HAMMER_WINDOW_MS + tsc_hz % 1000 * HAMMER_WINDOW_MS / 1000;
}

uint32_t hammer_rate(const struct hammer_result *res, uint64_t tsc_hz)
{
	if (res->ticks == 0)
		return 0;
	unsigned __int128 rate = (unsigned __int128)res->acts * hammer_window_ticks(tsc_hz) / res->ticks;
	return rate > UINT32_MAX ? UINT32_MAX : (uint32_t)rate;
}
