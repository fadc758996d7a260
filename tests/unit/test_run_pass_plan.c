// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/run/pass_plan.c: which tests of a pass sweep and
// whether it has the retention test, how many homes it uses, where
// ramsift moves when its home failed, and, walking a whole pass's steps as
// src/pass.c does, which parts it misses and the bytes it tested.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "const.h"
#include "run/pass_plan.h"

static struct pass_plan plan;

// The index of the test named name in mt_tests.
static uint8_t test_index(const char *name)
{
	for (size_t i = 0; i < mt_ntests; i++)
		if (strcmp(mt_tests[i].name, name) == 0)
			return (uint8_t)i;
	fail_msg("no test named %s", name);
	return 0;
}

static const struct {
	const char *what;
	const char *tests[3];	// tests=, NULL-terminated
	uint32_t bitfade_s;
	const char *sweeps[3];	// what sweeps, in order, NULL-terminated
	bool retention;
} test_cases[] = {
	{ "march-c,bit-fade", { "march-c", "bit-fade" }, 300, { "march-c" }, true },
	{ "bit-fade,march-c", { "bit-fade", "march-c" }, 300, { "march-c" }, true },
	{ "bitfade=0 skips bit-fade", { "march-c", "bit-fade" }, 0, { "march-c" }, false },
	{ "bit-fade alone", { "bit-fade" }, 300, { NULL }, true },
	{ "march-c alone", { "march-c" }, 300, { "march-c" }, false },
};

static void test_tests(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(test_cases) / sizeof(test_cases[0]); c++) {
		struct config cfg;
		size_t want = 0;

		config_defaults(&cfg);
		cfg.bitfade_s = test_cases[c].bitfade_s;
		for (cfg.ntests = 0; test_cases[c].tests[cfg.ntests]; cfg.ntests++)
			cfg.tests[cfg.ntests] = test_index(test_cases[c].tests[cfg.ntests]);
		pass_plan_tests(&plan, &cfg);
		while (test_cases[c].sweeps[want])
			want++;
		if (plan.nsweeps != want || plan.retention != test_cases[c].retention)
			fail_msg("%s: %zu sweeping tests and retention %d, want %zu and %d",
				 test_cases[c].what, plan.nsweeps, plan.retention, want,
				 test_cases[c].retention);
		for (size_t i = 0; i < want; i++)
			if (strcmp(plan.sweeps[i]->name, test_cases[c].sweeps[i]) != 0)
				fail_msg("%s: sweep %zu is %s, want %s", test_cases[c].what, i,
					 plan.sweeps[i]->name, test_cases[c].sweeps[i]);
	}
}

static void test_homes(void **state)
{
	// want[retention][found]
	static const unsigned want[2][3] = { { 0, 1, 1 }, { 0, 1, 2 } };
	(void)state;

	for (int retention = 0; retention < 2; retention++)
		for (unsigned found = 0; found < 3; found++) {
			plan.retention = retention;
			unsigned got = pass_plan_homes(&plan, found);
			if (got != want[retention][found])
				fail_msg("retention %d, %u homes found: uses %u, want %u", retention, found,
					 got, want[retention][found]);
		}
}

// A pass over free RAM [1 MiB, 64 MiB): ramsift (4 MiB) at 10 MiB, its
// homes at 60 MiB (NEXT) and 56 MiB (LAST) as many as homes says; MAIN
// the rest.
#define RAMSIFT_BYTES (4 * MiB)
static struct ram ram;
static uint64_t slots[64];
static struct badram_table bad;

static void pass_of(unsigned homes, bool retention)
{
	static const struct range usable = { 1 * MiB, 64 * MiB };
	uint64_t main_end = 64 * MiB - homes * RAMSIFT_BYTES;

	memset(&plan.parts, 0, sizeof(plan.parts));
	plan.retention = retention;
	plan.parts.main[0] = (struct range){ 1 * MiB, 10 * MiB };
	plan.parts.main[1] = (struct range){ 14 * MiB, main_end };
	plan.parts.nmain = 2;
	plan.parts.part[SCHED_OLD][0] = (struct range){ 10 * MiB, 14 * MiB };
	plan.parts.n[SCHED_OLD] = 1;
	if (homes >= 1) {
		plan.parts.part[SCHED_NEXT][0] = (struct range){ 60 * MiB, 64 * MiB };
		plan.parts.n[SCHED_NEXT] = 1;
	}
	if (homes == 2) {
		plan.parts.part[SCHED_LAST][0] = (struct range){ 56 * MiB, 60 * MiB };
		plan.parts.n[SCHED_LAST] = 1;
	}
	ram.usable[0] = usable;
	ram.nusable = 1;
	ram_release_all(&ram);
	badram_table_init(&bad, slots, sizeof(slots) / sizeof(slots[0]));
}

static const struct {
	const char *what;
	unsigned homes;
	bool retention;
	enum sched_part to;
	uint64_t failing;	// a failing address, or 0
	uint64_t limit;
	uint64_t want;
} moves[] = {
	{ "home sound", 2, true, SCHED_NEXT, 0, ~0ull, 60 * MiB },
	{ "LAST sound", 2, true, SCHED_LAST, 0, ~0ull, 56 * MiB },
	{ "a page of it failed, retention", 2, true, SCHED_NEXT, 61 * MiB, ~0ull, 0 },
	// Every other part is tested by then: the highest sound block will do.
	{ "a page of it failed, no retention", 1, false, SCHED_NEXT, 61 * MiB + 8, ~0ull, 57 * MiB },
	{ "a page failed, below a limit", 1, false, SCHED_NEXT, 61 * MiB, 20 * MiB, 16 * MiB },
	{ "a page failed elsewhere", 1, false, SCHED_NEXT, 30 * MiB, ~0ull, 60 * MiB },
	{ "no home", 0, false, SCHED_NEXT, 0, ~0ull, 0 },
};

static void test_move(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(moves) / sizeof(moves[0]); c++) {
		pass_of(moves[c].homes, moves[c].retention);
		if (moves[c].failing)
			badram_table_add(&bad, moves[c].failing);
		uint64_t got = pass_plan_move(&plan, moves[c].to, &ram, RAMSIFT_BYTES, moves[c].limit,
					      &bad);
		if (got != moves[c].want)
			fail_msg("%s: moves to 0x%llx, want 0x%llx", moves[c].what,
				 (unsigned long long)got, (unsigned long long)moves[c].want);
	}
}

// Walk a pass's steps as src/pass.c does: a move succeeds or leaves ramsift
// where it is; every other step but a wait tests the parts ramsift is not
// in. With a home, every byte is tested; without one, all but its place
// (which no step names, so it never counts as missed either).
static const struct {
	bool retention;
	unsigned homes;
	unsigned want_missed;
	uint64_t want_tested;
} walks[] = {
	{ true, 2, 0, 63 * MiB },
	{ true, 1, 0, 63 * MiB },
	{ false, 1, 0, 63 * MiB },
	// No step is for ramsift's place: it misses none, and is not tested.
	{ true, 0, 0, 59 * MiB },
	{ false, 0, 0, 59 * MiB },
};

static void test_walk(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(walks) / sizeof(walks[0]); c++) {
		size_t n;
		const struct sched_step *steps = sched_steps(walks[c].retention, walks[c].homes, &n);

		pass_of(walks[c].homes, walks[c].retention);
		pass_plan_begin(&plan);
		for (size_t i = 0; i < n; i++) {
			if (steps[i].op == SCHED_MOVE) {
				if (pass_plan_move(&plan, steps[i].to, &ram, RAMSIFT_BYTES, ~0ull, &bad))
					plan.occupied = SCHED_BIT(steps[i].to);
				continue;
			}
			if (steps[i].op == SCHED_WAIT)
				continue;
			unsigned mask = pass_plan_free_parts(&plan, steps[i].parts);
			if (mask & plan.occupied)
				fail_msg("retention %d, %u homes, step %zu tests the part ramsift is in",
					 walks[c].retention, walks[c].homes, i);
		}
		uint64_t tested = pass_plan_tested(&plan);
		if (plan.missed != walks[c].want_missed || tested != walks[c].want_tested)
			fail_msg("retention %d, %u homes: missed 0x%x and tested %llu MiB, want 0x%x "
				 "and %llu MiB", walks[c].retention, walks[c].homes, plan.missed,
				 (unsigned long long)(tested / MiB), walks[c].want_missed,
				 (unsigned long long)(walks[c].want_tested / MiB));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tests),
		cmocka_unit_test(test_homes),
		cmocka_unit_test(test_move),
		cmocka_unit_test(test_walk),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
