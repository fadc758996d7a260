// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/dram/hammer*.c: the two-rate rule alone; the plan
// (every site's rows in one bank and one range, aggressors at victim row
// +-1, same column, decoys apart; every inner row of every bank a victim
// over a round of passes, exactly once double-sided; a pass going round the banks and
// spread over memory; CPU shares disjoint); the run's bounds (sites per
// pass, ticks); the stride guess without a map; and the run against a
// fake machine with weak cells of known thresholds (the rule's split, the
// rate reached). The simulated controller's runs are in
// test_dram_hammer_sim.c.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "dram/decode.h"
#include "dram/hammer.h"

#define B(n) (1ull << (n))
#define N_OF(a) (sizeof(a) / sizeof((a)[0]))
#define TSC_HZ 1000000000ull	// the fake's ticks are nanoseconds

// ---- the two-rate rule ----

static const struct {
	const char *name;
	struct hammer_flip f;
	uint32_t rate;
	struct hammer_flip low[2];
	size_t nlow;
	bool lost;
	bool want_only;
} rule_cases[] = {
	{ "not seen at the low rate", { 0x1000, 0, 0x10 }, 640000, { { 0 } }, 0, false, true },
	{ "seen again at the low rate", { 0x1000, 0, 0x10 }, 640000,
	  { { 0x1000, 0, 0x10 } }, 1, false, false },
	{ "seen again with another bit too", { 0x1000, 0, 0x10 }, 640000,
	  { { 0x1000, 0, 0x11 } }, 1, false, false },
	{ "same word, another bit at the low rate", { 0x1000, 0, 0x10 }, 640000,
	  { { 0x1000, 0, 0x20 } }, 1, false, true },
	{ "same bit, another word at the low rate", { 0x1000, 0, 0x10 }, 640000,
	  { { 0x1008, 0, 0x10 }, { 0x2000, ~0ull, ~0x10ull } }, 2, false, true },
	{ "a one flipped to zero, seen again", { 0x1000, ~0ull, ~0x8ull }, 640000,
	  { { 0x2000, 0, 1 }, { 0x1000, ~0ull, ~0x8ull } }, 2, false, false },
	{ "the maximum no higher than the low rate", { 0x1000, 0, 0x10 }, 200000,
	  { { 0 } }, 0, false, false },
	{ "the maximum below the low rate", { 0x1000, 0, 0x10 }, 150000, { { 0 } }, 0, false, false },
	{ "the retest lost flips", { 0x1000, 0, 0x10 }, 640000, { { 0 } }, 0, true, false },
};

static void test_two_rate_rule(void **state)
{
	(void)state;
	for (size_t c = 0; c < N_OF(rule_cases); c++) {
		bool got = hammer_only_at_max(&rule_cases[c].f, rule_cases[c].rate,
					      HAMMER_LOW_RATE, rule_cases[c].low,
					      rule_cases[c].nlow, rule_cases[c].lost);
		if (got != rule_cases[c].want_only)
			fail_msg("rule case \"%s\": got only_at_max=%d want %d",
				 rule_cases[c].name, got, rule_cases[c].want_only);
	}
}

// ---- the plan ----

struct plan_case {
	const char *name;
	struct dram_map map;
	struct range ranges[2];
	size_t nranges;
	unsigned sides, decoys;
	uint32_t per_pass;
};

static const struct plan_case plan_cases[] = {
	{ "xor pairs, double-sided", { { B(3) | B(10), B(4) | B(11), B(5) | B(12) }, 3, 10, 15 },
	  { { 0, B(16) } }, 1, 2, 0, 7 },
	{ "channel hash, two ranges",
	  { { B(6) | B(7) | B(8) | B(11) | B(12), B(7) | B(11), B(8) | B(12) }, 3, 10, 15 },
	  { { 0x400, 0x6000 }, { 0x6810, 0xff00 } }, 2, 2, 0, 16 },
	{ "xor pairs, 5-sided", { { B(3) | B(10), B(4) | B(11), B(5) | B(12) }, 3, 10, 15 },
	  { { 0, B(16) } }, 1, 5, 0, 9 },
	{ "xor pairs, 4-sided with 2 decoys",
	  { { B(3) | B(10), B(4) | B(11), B(5) | B(12) }, 3, 10, 15 }, { { 0, B(16) } }, 1, 4, 2, 5 },
	{ "channel hash, 9-sided with a decoy",
	  { { B(6) | B(7) | B(8) | B(11) | B(12), B(7) | B(11), B(8) | B(12) }, 3, 10, 15 },
	  { { 0x400, B(16) } }, 1, 9, 1, 3 },
	{ "sandy-like 1ch 2rank",
	  { { B(13) | B(17), B(14) | B(18), B(15) | B(19), B(16) | B(20) }, 4, 17, 32 },
	  { { B(20), B(26) + B(20) } }, 1, 2, 0, 256 },
	{ "haswell-like 2ch 2rank, 10-sided",
	  { { B(7) | B(8) | B(9) | B(12) | B(13) | B(18) | B(19) | B(20) | B(21),
	      B(14) | B(18), B(15) | B(19), B(16) | B(20), B(17) | B(21) }, 5, 18, 34 },
	  { { B(20), B(27) } }, 1, 10, 4, 100 },
};

static void decode(const struct dram_map *m, uint64_t a, struct dram_addr *d)
{
	dram_decode(m, a, d);
}

// One row of a site: in the site's bank, offset rows from the first
// aggressor, in the first aggressor's column and range.
static void expect_row(const struct plan_case *pc, const struct hammer_site *s,
		       const char *what, unsigned k, uint64_t addr, uint64_t offset)
{
	struct dram_addr first, d;

	decode(&pc->map, s->aggr[0], &first);
	decode(&pc->map, addr, &d);
	if (d.bank != s->bank || d.row != first.row + offset || d.column != first.column)
		fail_msg("plan case \"%s\": %s %u at %#llx: got bank %u row %llu column %llu, "
			 "want bank %u row %llu column %llu", pc->name, what, k,
			 (unsigned long long)addr, d.bank, (unsigned long long)d.row,
			 (unsigned long long)d.column, s->bank,
			 (unsigned long long)(first.row + offset), (unsigned long long)first.column);
	for (size_t i = 0; i < pc->nranges; i++) {
		const struct range *r = &pc->ranges[i];
		if (s->aggr[0] >= r->start && s->aggr[0] < r->end) {
			uint64_t block = addr & ~(B(pc->map.row_lo) - 1);
			if (block < r->start || block + B(pc->map.row_lo) > r->end)
				fail_msg("plan case \"%s\": %s %u's row [%#llx, +%#llx) leaves "
					 "range [%#llx, %#llx)", pc->name, what, k,
					 (unsigned long long)block,
					 (unsigned long long)B(pc->map.row_lo),
					 (unsigned long long)r->start, (unsigned long long)r->end);
			return;
		}
	}
	fail_msg("plan case \"%s\": first aggressor %#llx in no range", pc->name,
		 (unsigned long long)s->aggr[0]);
}

static void expect_site_shape(const struct plan_case *pc, const struct hammer_site *s)
{
	assert_int_equal(s->nvictims, pc->sides - 1);
	assert_int_equal(s->naggr, pc->sides + pc->decoys);
	for (unsigned k = 0; k < pc->sides; k++)
		expect_row(pc, s, "aggressor", k, s->aggr[k], 2 * k);
	for (unsigned k = 0; k < s->nvictims; k++)
		expect_row(pc, s, "victim", k, s->victim[k], 2 * k + 1);
	for (unsigned k = 0; k < pc->decoys; k++)
		expect_row(pc, s, "decoy", k, s->aggr[pc->sides + k], 2 * pc->sides + 2 + 2 * k);
}

// Victim rows seen, one counter per (bank, row block).
struct seen {
	uint8_t *n;
	uint64_t blocks;
};

// Double-sided sites tile the rows; many-sided ones overlap at the end.
static unsigned max_times(const struct plan_case *pc)
{
	return pc->sides == 2 ? 1 : 2;
}

static void count_victims(const struct plan_case *pc, const struct hammer_site *s,
			  struct seen *seen)
{
	for (unsigned k = 0; k < s->nvictims; k++) {
		uint64_t q = s->victim[k] >> pc->map.row_lo;
		uint8_t *n = &seen->n[s->bank * seen->blocks + q];
		if (++*n > max_times(pc))
			fail_msg("plan case \"%s\": bank %u row block %llu a victim %u times",
				 pc->name, s->bank, (unsigned long long)q, *n);
	}
}

// Every bank's rows but the edges of each range are victims, and but the
// last decoys' rows (2 decoys + 3 of them).
static void expect_covered(const struct plan_case *pc, const struct hammer_plan *p,
			   const struct seen *seen)
{
	uint64_t slack = pc->decoys ? 2ull * pc->decoys + 2 : 0;

	for (size_t i = 0; i < pc->nranges; i++) {
		uint64_t sz = B(pc->map.row_lo);
		uint64_t q0 = (pc->ranges[i].start + sz - 1) / sz, q1 = pc->ranges[i].end / sz;
		for (uint64_t q = q0 + 1; q + 1 + slack < q1; q++)
			for (uint32_t b = 0; b < p->banks; b++)
				if (seen->n[b * seen->blocks + q] == 0)
					fail_msg("plan case \"%s\": bank %u row block %llu never a "
						 "victim", pc->name, b, (unsigned long long)q);
	}
}

// Within a pass, site i + k is k banks after site i.
static void expect_round_the_banks(const struct plan_case *pc, const struct hammer_plan *p,
				   uint64_t pass)
{
	struct hammer_site s;
	uint32_t first_i = 0, first_bank = 0;
	bool seen_one = false;

	for (uint32_t i = 0; i < p->per_pass; i++) {
		if (!hammer_plan_site(p, pass, i, &s))
			continue;
		if (!seen_one) {
			first_i = i;
			first_bank = s.bank;
			seen_one = true;
		}
		uint32_t want = (first_bank + (i - first_i)) % p->banks;
		if (s.bank != want)
			fail_msg("plan case \"%s\" pass %llu: site %u on bank %u, want %u",
				 pc->name, (unsigned long long)pass, i, s.bank, want);
	}
}

static void test_plan_sites(void **state)
{
	(void)state;
	for (size_t c = 0; c < N_OF(plan_cases); c++) {
		const struct plan_case *pc = &plan_cases[c];
		struct hammer_plan p;

		assert_true(hammer_plan_init(&p, &pc->map, 0, pc->ranges, pc->nranges,
					     pc->sides, pc->decoys, pc->per_pass));
		assert_false(p.guessed);
		assert_true(p.sites > 0);
		uint64_t top = pc->ranges[pc->nranges - 1].end >> pc->map.row_lo;
		struct seen seen = { calloc(p.banks * top, 1), top };
		uint64_t passes = (p.sites + p.per_pass - 1) / p.per_pass, planned = 0;
		for (uint64_t pass = 0; pass < passes; pass++) {
			struct hammer_site s;
			for (uint32_t i = 0; i < p.per_pass; i++) {
				if (!hammer_plan_site(&p, pass, i, &s))
					continue;
				planned++;
				expect_site_shape(pc, &s);
				count_victims(pc, &s, &seen);
			}
			expect_round_the_banks(pc, &p, pass);
		}
		if (planned != p.sites)
			fail_msg("plan case \"%s\": %llu sites over %llu passes, want %llu",
				 pc->name, (unsigned long long)planned,
				 (unsigned long long)passes, (unsigned long long)p.sites);
		expect_covered(pc, &p, &seen);
		free(seen.n);
	}
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

// A pass of 64 sites (4 positions, 16 banks) over 512 MiB leaves no gap of
// more than 2/5 of it (counting round the end), whereas 4 positions packed
// together would leave almost all of it.
static void test_plan_spread(void **state)
{
	const struct dram_map map = { { B(13) | B(17), B(14) | B(18), B(15) | B(19), B(16) | B(20) },
				      4, 17, 32 };
	const struct range r = { 0, B(29) };
	struct hammer_plan p;
	(void)state;

	assert_true(hammer_plan_init(&p, &map, 0, &r, 1, 2, 0, 64));
	for (uint64_t pass = 0; pass < 8; pass++) {
		uint64_t at[64], gap = 0;
		struct hammer_site s;
		for (uint32_t i = 0; i < p.per_pass; i++) {
			assert_true(hammer_plan_site(&p, pass, i, &s));
			at[i] = s.victim[0];
		}
		qsort(at, p.per_pass, sizeof(at[0]), by_value);
		for (uint32_t i = 0; i < p.per_pass; i++) {
			uint64_t next = i + 1 < p.per_pass ? at[i + 1] : at[0] + r.end;
			gap = next - at[i] > gap ? next - at[i] : gap;
		}
		if (gap > r.end / 5 * 2)
			fail_msg("pass %llu: a gap of %#llx between victims, want at most %#llx",
				 (unsigned long long)pass, (unsigned long long)gap,
				 (unsigned long long)(r.end / 5 * 2));
	}
}

// A pass its time budget cuts short after a few sites (fewer than the
// banks) is still spread over memory: its first 8 sites are in 8 different
// eighths of it, not in one row position on 8 banks.
static void test_plan_spread_first_sites(void **state)
{
	const struct dram_map map = { { B(13) | B(17), B(14) | B(18), B(15) | B(19), B(16) | B(20) },
				      4, 17, 32 };
	const struct range r = { 0, B(29) };
	struct hammer_plan p;
	(void)state;

	assert_true(hammer_plan_init(&p, &map, 0, &r, 1, 2, 0, 4096));
	for (uint64_t pass = 0; pass < 4; pass++) {
		unsigned eighths = 0;
		struct hammer_site s;
		for (uint32_t i = 0; i < 8; i++) {
			assert_true(hammer_plan_site(&p, pass, i, &s));
			eighths |= 1u << (s.victim[0] / (r.end / 8));
		}
		if (__builtin_popcount(eighths) < 4)
			fail_msg("pass %llu: the first 8 sites are in %d eighths of memory, want 4 or more",
				 (unsigned long long)pass, __builtin_popcount(eighths));
	}
}

static void test_plan_bad_arguments(void **state)
{
	const struct dram_map map = { { B(13) | B(17) }, 1, 17, 32 };
	const struct dram_map too_many = { { 0 }, DRAM_MAX_FUNCS + 1, 17, 32 };
	const struct range r = { 0, B(24) };
	struct hammer_plan p;
	(void)state;

	assert_false(hammer_plan_init(&p, &map, 0, &r, 1, 1, 0, 8));
	assert_false(hammer_plan_init(&p, &map, 0, &r, 1, HAMMER_MAX_SIDES + 1, 0, 8));
	assert_false(hammer_plan_init(&p, &map, 0, &r, 1, 2, HAMMER_MAX_DECOYS + 1, 8));
	assert_false(hammer_plan_init(&p, &map, 0, &r, 1, 2, 0, 0));
	assert_false(hammer_plan_init(&p, &too_many, 0, &r, 1, 2, 0, 8));
	assert_false(hammer_plan_init(&p, NULL, 12288, &r, 1, 2, 0, 8));
	assert_false(hammer_plan_init(&p, NULL, 32, &r, 1, 2, 0, 8));
	// A range of two rows has no site.
	const struct range tiny = { B(20), B(20) + 2 * B(17) };
	assert_true(hammer_plan_init(&p, &map, 0, &tiny, 1, 2, 0, 8));
	assert_int_equal(p.sites, 0);
	assert_int_equal(p.per_pass, 0);
}

// ---- the run against a fake machine ----

// Flat RAM [base, base + 8 * words) with weak cells: a cell's bit flips
// from 0 to 1 when a neighbouring row of its bank gets at least threshold
// activations in one window. Every activation takes ns_per_act.
struct weak_cell {
	uint64_t addr, bit;
	uint32_t threshold;
};

struct fake {
	const struct dram_map *map;
	uint64_t base, *mem;
	size_t words;
	uint64_t ns_per_act;
	const struct weak_cell *weak;
	size_t nweak;
	// Records, per CPU: the aggressor rows hammered, as (bank << 32 | row).
	unsigned cpu;
	uint64_t rows[4][4096];
	size_t nrows[4];
	size_t errors, vulnerable, calls;
	struct hammer_flip last_error, last_vulnerable;
};

static uint64_t *word(struct fake *f, uint64_t addr)
{
	if (addr < f->base || addr - f->base >= f->words * 8 || addr % 8)
		fail_msg("fake: access to %#llx outside RAM", (unsigned long long)addr);
	return &f->mem[(addr - f->base) / 8];
}

static void fake_fill(void *ctx, uint64_t start, uint64_t end, uint64_t value)
{
	for (uint64_t a = start; a < end; a += 8)
		*word(ctx, a) = value;
}

static uint64_t fake_read(void *ctx, uint64_t addr)
{
	return *word(ctx, addr);
}

static uint64_t bank_row(const struct dram_map *map, uint64_t addr)
{
	struct dram_addr d;

	dram_decode(map, addr, &d);
	return (uint64_t)d.bank << 32 | d.row;
}

static uint64_t fake_hammer(void *ctx, const uint64_t *aggr, unsigned naggr,
			    uint32_t count, uint64_t hold)
{
	struct fake *f = ctx;
	uint64_t ticks = (uint64_t)count * naggr * f->ns_per_act;
	uint64_t window = hammer_window_ticks(TSC_HZ);
	uint64_t dose = ticks <= window ? count : (uint64_t)count * window / ticks;

	(void)hold;
	f->calls++;
	for (unsigned k = 0; k < naggr; k++) {
		uint64_t br = bank_row(f->map, aggr[k]);
		if (f->nrows[f->cpu] < N_OF(f->rows[0]))
			f->rows[f->cpu][f->nrows[f->cpu]++] = br;
		for (size_t w = 0; w < f->nweak; w++) {
			uint64_t v = bank_row(f->map, f->weak[w].addr);
			if (dose >= f->weak[w].threshold && (v == br + 1 || v + 1 == br))
				*word(f, f->weak[w].addr) |= f->weak[w].bit;
		}
	}
	return ticks;
}

static void fake_error(void *ctx, uint64_t addr, uint64_t expected, uint64_t actual)
{
	struct fake *f = ctx;

	f->errors++;
	f->last_error = (struct hammer_flip){ addr, expected, actual };
}

static void fake_vulnerable(void *ctx, uint64_t addr, uint64_t expected, uint64_t actual)
{
	struct fake *f = ctx;

	f->vulnerable++;
	f->last_vulnerable = (struct hammer_flip){ addr, expected, actual };
}

static const struct dram_map sandy = {
	{ B(13) | B(17), B(14) | B(18), B(15) | B(19), B(16) | B(20) }, 4, 17, 32
};
#define FAKE_BASE B(24)
#define FAKE_SIZE B(23)

static struct fake *fake_new(const struct dram_map *map)
{
	struct fake *f = calloc(1, sizeof(*f));

	f->map = map;
	f->base = FAKE_BASE;
	f->words = FAKE_SIZE / 8;
	f->mem = calloc(f->words, 8);
	f->ns_per_act = 50;
	return f;
}

static void fake_free(struct fake *f)
{
	free(f->mem);
	free(f);
}

static struct hammer_ctx fake_ctx(struct fake *f, uint64_t max_ticks)
{
	return (struct hammer_ctx){ .fill = fake_fill, .read = fake_read,
				    .hammer = fake_hammer, .error = fake_error,
				    .vulnerable = fake_vulnerable, .cb_ctx = f,
				    .tsc_hz = TSC_HZ, .max_rate = 10000000,
				    .low_rate = HAMMER_LOW_RATE, .max_ticks = max_ticks };
}

static const struct range fake_range = { FAKE_BASE, FAKE_BASE + FAKE_SIZE };

// A weak cell of each threshold in the middle of the fake RAM, and what
// the run makes of it at 50 ns per activation, double-sided: 640 K per
// aggressor per window at the maximum.
static const struct {
	const char *name;
	uint32_t threshold;
	size_t want_errors, want_vulnerable;
} weak_cases[] = {
	{ "flips at the low rate too", 150000, 1, 0 },
	{ "flips at the low rate exactly", 200000, 1, 0 },
	{ "flips only at the maximum", 300000, 0, 1 },
	{ "flips at the maximum exactly", 640000, 0, 1 },
	{ "needs more than the maximum", 640001, 0, 0 },
};

static void test_run_two_rates(void **state)
{
	(void)state;
	for (size_t c = 0; c < N_OF(weak_cases); c++) {
		struct fake *f = fake_new(&sandy);
		const struct weak_cell cell = { FAKE_BASE + FAKE_SIZE / 2 + 7 * B(17) + 0x2a8, B(41),
						weak_cases[c].threshold };
		struct hammer_plan p;
		struct hammer_result res;
		struct hammer_ctx ctx = fake_ctx(f, 0);

		f->weak = &cell;
		f->nweak = 1;
		assert_true(hammer_plan_init(&p, &sandy, 0, &fake_range, 1, 2, 0, 100000));
		assert_true(hammer_run(&p, 0, 0, 1, &ctx, &res));
		if (f->errors != weak_cases[c].want_errors ||
		    f->vulnerable != weak_cases[c].want_vulnerable ||
		    res.errors != f->errors || res.hammer_only != f->vulnerable)
			fail_msg("weak case \"%s\": got errors=%zu hammer_only=%zu (result %u, %u), "
				 "want %zu, %zu", weak_cases[c].name, f->errors, f->vulnerable,
				 res.errors, res.hammer_only, weak_cases[c].want_errors,
				 weak_cases[c].want_vulnerable);
		const struct hammer_flip *got = f->errors ? &f->last_error : &f->last_vulnerable;
		if ((f->errors || f->vulnerable) &&
		    (got->addr != cell.addr || got->expected != 0 || got->actual != cell.bit))
			fail_msg("weak case \"%s\": flip at %#llx %#llx -> %#llx, want %#llx 0 -> %#llx",
				 weak_cases[c].name, (unsigned long long)got->addr,
				 (unsigned long long)got->expected, (unsigned long long)got->actual,
				 (unsigned long long)cell.addr, (unsigned long long)cell.bit);
		uint32_t rate = hammer_rate(&res, TSC_HZ);
		if (rate < 639000 || rate > 640000)
			fail_msg("weak case \"%s\": rate %u, want 640000", weak_cases[c].name, rate);
		assert_int_equal(res.sites, p.sites);
		assert_int_equal(res.rows, p.sites);
		fake_free(f);
	}
}

// The rate reached is what the machine manages, whatever max_rate asks.
static void test_run_rate(void **state)
{
	static const struct {
		unsigned sides, decoys;
		uint64_t ns;
		uint32_t max_rate, want;
	} cases[] = {
		{ 2, 0, 50, 10000000, 640000 },
		{ 2, 0, 50, 300000, 300000 },
		{ 8, 2, 50, 10000000, 128000 },
		{ 2, 0, 400, 10000000, 80000 },
	};
	(void)state;
	for (size_t c = 0; c < N_OF(cases); c++) {
		struct fake *f = fake_new(&sandy);
		struct hammer_plan p;
		struct hammer_result res;
		struct hammer_ctx ctx = fake_ctx(f, 0);

		f->ns_per_act = cases[c].ns;
		ctx.max_rate = cases[c].max_rate;
		assert_true(hammer_plan_init(&p, &sandy, 0, &fake_range, 1, cases[c].sides,
					     cases[c].decoys, 40));
		assert_true(hammer_run(&p, 0, 0, 1, &ctx, &res));
		uint32_t rate = hammer_rate(&res, TSC_HZ);
		if (rate > cases[c].want || rate < cases[c].want - cases[c].want / 500)
			fail_msg("rate case %zu (%u-sided, %u decoys, %llu ns, max %u): rate %u, "
				 "want %u", c, cases[c].sides, cases[c].decoys,
				 (unsigned long long)cases[c].ns, cases[c].max_rate, rate,
				 cases[c].want);
		fake_free(f);
	}
}

// Sites per pass and ticks per pass are bounded.
static void test_run_budget(void **state)
{
	static const struct {
		const char *name;
		uint32_t per_pass;
		uint64_t max_windows;	// 0: no tick budget
		uint32_t want_sites;
		bool want_budget_spent;
	} cases[] = {
		{ "10 sites a pass", 10, 0, 10, false },
		{ "1 site a pass", 1, 0, 1, false },
		// A site without flips takes four windows; the second starts
		// below 5 and ends at 8.
		{ "5 windows", 1000, 5, 2, true },
		{ "1 window", 1000, 1, 1, true },
	};
	(void)state;
	for (size_t c = 0; c < N_OF(cases); c++) {
		struct fake *f = fake_new(&sandy);
		struct hammer_plan p;
		struct hammer_result res;
		struct hammer_ctx ctx = fake_ctx(f, cases[c].max_windows * hammer_window_ticks(TSC_HZ));

		assert_true(hammer_plan_init(&p, &sandy, 0, &fake_range, 1, 2, 0, cases[c].per_pass));
		assert_true(hammer_run(&p, 3, 0, 1, &ctx, &res));
		if (res.sites != cases[c].want_sites || res.budget_spent != cases[c].want_budget_spent)
			fail_msg("budget case \"%s\": %u sites, budget_spent %d; want %u, %d",
				 cases[c].name, res.sites, res.budget_spent,
				 cases[c].want_sites, cases[c].want_budget_spent);
		fake_free(f);
	}
}

// CPU i of n hammers only banks = i mod n: no two CPUs share a row, and
// together they hammer every site of the pass.
static void test_run_shares(void **state)
{
	(void)state;
	for (unsigned ncpus = 1; ncpus <= 4; ncpus++) {
		struct fake *f = fake_new(&sandy);
		struct hammer_plan p;
		struct hammer_ctx ctx = fake_ctx(f, 0);
		uint32_t sites = 0;

		assert_true(hammer_plan_init(&p, &sandy, 0, &fake_range, 1, 2, 0, 48));
		for (unsigned cpu = 0; cpu < ncpus; cpu++) {
			struct hammer_result res;
			f->cpu = cpu;
			assert_true(hammer_run(&p, 1, cpu, ncpus, &ctx, &res));
			sites += res.sites;
			for (size_t k = 0; k < f->nrows[cpu]; k++)
				if ((f->rows[cpu][k] >> 32) % ncpus != cpu)
					fail_msg("%u CPUs: CPU %u hammered bank %llu", ncpus, cpu,
						 (unsigned long long)(f->rows[cpu][k] >> 32));
		}
		if (sites != p.per_pass)
			fail_msg("%u CPUs: %u sites together, want %u", ncpus, sites, p.per_pass);
		fake_free(f);
	}
}

// ---- without a map ----

// Rows guessed row_stride apart, each 8 KiB piece of a row a bank of its
// own: the aggressors are the victim's address +- the stride, and the
// result says it guessed.
static void test_stride_guess(void **state)
{
	static const struct {
		uint64_t stride;
		unsigned sides;
		uint32_t banks;
	} cases[] = { { B(13), 2, 1 }, { B(18), 2, 32 }, { B(17), 5, 16 }, { B(22), 2, 256 } };
	(void)state;
	for (size_t c = 0; c < N_OF(cases); c++) {
		struct fake *f = fake_new(&sandy);
		struct hammer_plan p;
		struct hammer_result res;
		struct hammer_ctx ctx = fake_ctx(f, 0);
		uint64_t st = cases[c].stride;

		assert_true(hammer_plan_init(&p, NULL, st, &fake_range, 1, cases[c].sides, 0, 16));
		assert_true(p.guessed);
		assert_int_equal(p.banks, cases[c].banks);
		for (uint32_t i = 0; i < p.per_pass; i++) {
			struct hammer_site s;
			uint64_t piece = st / cases[c].banks;
			assert_true(hammer_plan_site(&p, 0, i, &s));
			for (unsigned k = 0; k < s.nvictims; k++)
				if (s.aggr[k] + st != s.victim[k] || s.victim[k] + st != s.aggr[k + 1] ||
				    s.victim[k] % st != s.bank * piece)
					fail_msg("stride %#llx site %u: aggressors %#llx %#llx around "
						 "victim %#llx", (unsigned long long)st, i,
						 (unsigned long long)s.aggr[k],
						 (unsigned long long)s.aggr[k + 1],
						 (unsigned long long)s.victim[k]);
		}
		assert_true(hammer_run(&p, 0, 0, 1, &ctx, &res));
		assert_true(res.guessed);
		assert_int_equal(res.sites, p.per_pass);
		fake_free(f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_rate_rule),
		cmocka_unit_test(test_plan_sites),
		cmocka_unit_test(test_plan_spread),
		cmocka_unit_test(test_plan_bad_arguments),
		cmocka_unit_test(test_run_two_rates),
		cmocka_unit_test(test_run_rate),
		cmocka_unit_test(test_run_budget),
		cmocka_unit_test(test_run_shares),
		cmocka_unit_test(test_stride_guess),
		cmocka_unit_test(test_plan_spread_first_sites),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
