// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/dram's row hammer test (hammer.h) against the
// disturbance model of tools/dram's simulated controller (sim.h): under
// published controller mappings (DRAMA's Sandy Bridge, Haswell and
// Skylake, as in test_dram_learn.c, cut to 16-32 MiB), the test finds
// every victim cell at thresholds from 5 K activations per 64 ms window
// up to the 640 K the simulated machine reaches double-sided, none above
// it; the two-rate rule makes flips below 200 K errors and the others
// hammer_only; two CPUs' shares find them all too; many-sided patterns
// reach less per aggressor; and rows guessed one stride apart find the
// victims only where the bank takes no row bit. No flip is reported that
// is no victim's.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>

#include "dram/hammer.h"
#include "dram/sim.h"

#define M (1ull << 20)
#define VICTIMS 24

static const struct {
	const char *name;
	struct dram_map map;
	uint64_t size;
	uint64_t row_stride;	// 0: hammer with the map; else guess
	unsigned sides, decoys, cpus;
	uint32_t threshold;
	unsigned want_found;
	enum { NONE, ERRORS, ONLY } want_kind;	// how the flips are reported
	uint32_t want_rate;
} cases[] = {
	{ "sandy bridge 1ch, 5 K", { { 0x22000, 0x44000, 0x88000 }, 3, 16, 23 }, 16 * M,
	  0, 2, 0, 1, 5000, VICTIMS, ERRORS, 640000 },
	{ "sandy bridge 1ch, 700 K", { { 0x22000, 0x44000, 0x88000 }, 3, 16, 23 }, 16 * M,
	  0, 2, 0, 1, 700000, 0, NONE, 640000 },
	{ "sandy bridge 2ch 2rank, 200 K",
	  { { 0x40, 0x44000, 0x88000, 0x110000, 0x220000 }, 5, 18, 24 }, 32 * M,
	  0, 2, 0, 1, 200000, VICTIMS, ERRORS, 640000 },
	{ "haswell 2ch, 300 K, 2 CPUs", { { 0xc3380, 0x44000, 0x88000, 0x110000 }, 4, 17, 23 },
	  16 * M, 0, 2, 0, 2, 300000, VICTIMS, ONLY, 640000 },
	{ "haswell 2ch, 640 K", { { 0xc3380, 0x44000, 0x88000, 0x110000 }, 4, 17, 23 },
	  16 * M, 0, 2, 0, 1, 640000, VICTIMS, ONLY, 640000 },
	{ "skylake 2ch 2rank, 10 K, 3 CPUs",
	  { { 0xc3300, 0x4080, 0x88000, 0x110000, 0x220000, 0x440000 }, 6, 19, 24 }, 32 * M,
	  0, 2, 0, 3, 10000, VICTIMS, ERRORS, 640000 },
	{ "skylake 2ch 2rank, 640 K and one", 
	  { { 0xc3300, 0x4080, 0x88000, 0x110000, 0x220000, 0x440000 }, 6, 19, 24 }, 32 * M,
	  0, 2, 0, 1, 640001, 0, NONE, 640000 },
	// 8 aggressors share the window: 160 K each.
	{ "sandy bridge 1ch, 8-sided, 100 K", { { 0x22000, 0x44000, 0x88000 }, 3, 16, 23 },
	  16 * M, 0, 8, 0, 1, 100000, VICTIMS, ERRORS, 160000 },
	{ "sandy bridge 1ch, 8-sided, 170 K", { { 0x22000, 0x44000, 0x88000 }, 3, 16, 23 },
	  16 * M, 0, 8, 0, 1, 170000, 0, NONE, 160000 },
	{ "no row bit in the bank, guessed", { { 0x2000, 0x4000, 0x8000 }, 3, 16, 23 }, 16 * M,
	  1ull << 16, 2, 0, 2, 5000, VICTIMS, ERRORS, 640000 },
	{ "sandy bridge 1ch, guessed", { { 0x22000, 0x44000, 0x88000 }, 3, 16, 23 }, 16 * M,
	  1ull << 16, 2, 0, 1, 5000, 0, NONE, 640000 },
};

#define SEED 7

static void test_find_victims(void **state)
{
	static struct sim_hammer h;
	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const struct sim_config cfg = { .map = cases[c].map, .size = cases[c].size,
						.hammer = cases[c].threshold, .victims = VICTIMS };
		const struct range all = { 0, cases[c].size };
		struct sim s;
		struct hammer_plan p;
		struct hammer_result sum = { 0 }, res;
		const struct hammer_ctx ctx = {
			.fill = sim_hammer_fill, .read = sim_hammer_read,
			.hammer = sim_hammer_activate, .error = sim_hammer_report,
			.vulnerable = sim_hammer_report, .cb_ctx = &h, .tsc_hz = SIM_TSC_HZ,
			.max_rate = UINT32_MAX, .low_rate = HAMMER_LOW_RATE,
		};

		sim_init(&s, &cfg, SEED);
		assert_true(sim_hammer_init(&h, &s, SEED));
		assert_true(hammer_plan_init(&p, cases[c].row_stride ? NULL : &cases[c].map,
					     cases[c].row_stride, &all, 1, cases[c].sides,
					     cases[c].decoys, 1024));
		uint64_t passes = (p.sites + p.per_pass - 1) / p.per_pass;
		for (uint64_t pass = 0; pass < passes; pass++)
			for (unsigned cpu = 0; cpu < cases[c].cpus; cpu++) {
				assert_true(hammer_run(&p, pass, cpu, cases[c].cpus, &ctx, &res));
				sum.errors += res.errors;
				sum.hammer_only += res.hammer_only;
				sum.acts += res.acts;
				sum.ticks += res.ticks;
				sum.rows += res.rows;
			}
		unsigned found = sim_hammer_found(&h);
		uint32_t rate = hammer_rate(&sum, SIM_TSC_HZ);
		if (found != cases[c].want_found || h.strays != 0 || rate != cases[c].want_rate)
			fail_msg("case \"%s\": found %u strays %u rate %u; want %u, 0, %u",
				 cases[c].name, found, h.strays, rate, cases[c].want_found,
				 cases[c].want_rate);
		// Each victim flips in one polarity; many-sided sites at the end
		// of memory may hammer a victim row twice.
		uint32_t kind = cases[c].want_kind == ERRORS ? sum.errors : sum.hammer_only;
		uint32_t other = cases[c].want_kind == ERRORS ? sum.hammer_only : sum.errors;
		bool exact = cases[c].sides == 2;
		if (cases[c].want_kind == NONE ? sum.errors || sum.hammer_only
		    : other || kind < found || (exact && kind != found) || kind > 2 * found)
			fail_msg("case \"%s\": %u errors, %u hammer_only for %u victims found; want "
				 "them all %s", cases[c].name, sum.errors, sum.hammer_only, found,
				 cases[c].want_kind == ERRORS ? "errors" : "hammer_only");
		if (sum.rows < p.sites * (cases[c].sides - 1))
			fail_msg("case \"%s\": %u rows hammered of %llu", cases[c].name, sum.rows,
				 (unsigned long long)(p.sites * (cases[c].sides - 1)));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find_victims),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
