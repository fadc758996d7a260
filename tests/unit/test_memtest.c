// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for the memory tests (lib/memtest/memtest.c and lib/memtest/*.c), run over
// the simulated memory of tests/sim: the table's contract; every test silent
// on a fault-free memory in several layouts (holes between ranges, address 0,
// the top of the 64-bit address space, more than one chunk), touching nothing
// outside its ranges and reporting exactly passes * bytes of progress; a
// single stuck bit reported at exactly one address, the right one, with the
// right expected and actual values; retention found by bit-fade only after
// its delay; an abort honoured at once.
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "memtest/memtest.h"
#include "simmem.h"
#include "memstr.h"

#include "memtest_rec.h"
#include "word_ranges.h"

#define BASE 0x100000ull
#define N 1024u // a power of two: address-walk reaches words 0, 511, 512, 1023

static struct mt_ctx make_ctx(const struct range *ranges, size_t n,
			      struct rec *r, uint32_t bitfade_s)
{
	return (struct mt_ctx){
		.ranges = ranges, .nranges = n, .error = on_error,
		.progress = on_progress, .sleep = on_sleep, .cb_ctx = r,
		.seed = 0x1234, .bitfade_s = bitfade_s,
	};
}

static void test_table(void **state)
{
	static const char *const contract[] = {
		"address-walk", "own-address", "mi-ones",   "mi-8bit",
		"mi-random",    "mi-walk64",   "march-c",   "random",
		"modulo-20",    "block-move",  "bit-fade",  "hammer",
	};
	size_t ndefault = 0;

	(void)state;
	if (mt_ntests != sizeof(contract) / sizeof(contract[0]))
		fail_msg("table has %zu tests, contract names %zu", mt_ntests,
			 sizeof(contract) / sizeof(contract[0]));
	for (size_t i = 0; i < sizeof(contract) / sizeof(contract[0]); i++) {
		const struct mt_test *t = mt_find(contract[i], str_len(contract[i]));

		if (!t)
			fail_msg("%s: not in the table", contract[i]);
		if (!t->run || !t->summary || !t->summary[0])
			fail_msg("%s: no run function or summary", contract[i]);
	}
	for (size_t i = 0; i < mt_ntests; i++) {
		ndefault += mt_tests[i].in_default_pass;
		for (size_t j = 0; j < i; j++)
			if (str_eq(mt_tests[i].name, mt_tests[j].name))
				fail_msg("%s: listed twice", mt_tests[i].name);
	}
	if (ndefault == 0)
		fail_msg("the default pass is empty");
	// mt_find takes a length: a word cut from a command line.
	assert_ptr_equal(mt_find("march-c,random", 7), mt_find("march-c", 7));
	assert_null(mt_find("march", 5));
	assert_null(mt_find("march-c-", 8));
	assert_null(mt_find("", 0));
}

// Memory layouts: a simulated memory of nwords words at base, tested as up
// to three ranges of word indices [from, to).
static const struct layout {
	const char *name;
	uint64_t base;
	size_t nwords, nranges;
	struct word_range r[3];
} layouts[] = {
	{ "one range", BASE, N, 1, { { 0, N } } },
	{ "holes, odd sizes, one word", BASE, N, 3,
	  { { 3, 300 }, { 341, 342 }, { 400, N - 1 } } },
	{ "an empty range", BASE, N, 3, { { 0, 10 }, { 10, 10 }, { 20, N } } },
	{ "at address 0", 0, N, 1, { { 0, N } } },
	{ "ending at 2^64 - 8", 0xfffffffffffffff8ull - 8ull * N, N, 1,
	  { { 0, N } } },
	{ "two chunks", 0x40000000ull, MT_CHUNK_BYTES / 8 + 5, 1,
	  { { 0, MT_CHUNK_BYTES / 8 + 5 } } },
};

static void test_clean(void **state)
{
	static uint64_t before[N];

	(void)state;
	for (size_t li = 0; li < sizeof(layouts) / sizeof(layouts[0]); li++) {
		const struct layout *l = &layouts[li];
		struct range ranges[3];
		size_t nr = ranges_of(l->base, l->r, l->nranges, ranges);
		uint64_t bytes = 0;

		for (size_t i = 0; i < nr; i++)
			bytes += ranges[i].end - ranges[i].start;
		for (size_t t = 0; t < mt_ntests; t++) {
			const struct mt_test *test = &mt_tests[t];
			struct rec r = { 0 };
			struct mt_ctx ctx = make_ctx(ranges, nr, &r, 3);

			sim_reset(l->base, l->nwords, 77 + t);
			for (size_t w = 0; w < N && w < l->nwords; w++)
				before[w] = sim_cell(w);
			if (!test->run(&ctx, test->param))
				fail_msg("%s, %s: returned false", l->name,
					 test->name);
			if (r.nerrors)
				fail_msg("%s, %s: %llu errors on clean memory, "
					 "first at 0x%016llx",
					 l->name, test->name,
					 (unsigned long long)r.nerrors,
					 (unsigned long long)r.err[0].addr);
			if (r.progress != test->sweeps * bytes)
				fail_msg("%s, %s: progress %llu bytes, want "
					 "%u passes * %llu", l->name, test->name,
					 (unsigned long long)r.progress,
					 test->sweeps, (unsigned long long)bytes);
			if (r.slept != (str_eq(test->name, "bit-fade") ? 6 : 0))
				fail_msg("%s, %s: slept %llu s", l->name,
					 test->name, (unsigned long long)r.slept);
			for (size_t w = 0; w < N && w < l->nwords; w++)
				if (!in_ranges(l->r, l->nranges, w) && sim_cell(w) != before[w])
					fail_msg("%s, %s: word %zu outside the "
						 "ranges changed", l->name,
						 test->name, w);
		}
	}
}

static const struct {
	size_t word;
	unsigned bit;
	bool value;
} stuck_cases[] = {
	{ 0, 0, 1 }, { N - 1, 63, 0 }, { N / 2, 17, 1 }, { N / 2 - 1, 40, 0 },
};

static void test_stuck_bit(void **state)
{
	static const struct range range = { BASE, BASE + 8ull * N };

	(void)state;
	for (size_t t = 0; t < mt_ntests; t++) {
		const struct mt_test *test = &mt_tests[t];

		// hammer checks only the rows it hammers, through the machine's
		// callbacks (no mt_ctx.hammer here): test_dram_hammer*.c test it.
		if (str_eq(test->name, "hammer"))
			continue;
		for (size_t c = 0; c < sizeof(stuck_cases) / sizeof(stuck_cases[0]);
		     c++) {
			struct sim_fault f = { .kind = SIM_SAF,
					       .vword = stuck_cases[c].word,
					       .vbit = stuck_cases[c].bit,
					       .value = stuck_cases[c].value };
			uint64_t want = BASE + 8ull * f.vword;
			struct rec r = { 0 };
			struct mt_ctx ctx = make_ctx(&range, 1, &r, 1);

			sim_reset(BASE, N, 5);
			sim_inject(&f);
			test->run(&ctx, test->param);
			if (r.naddrs != 1 || r.addrs[0] != want)
				fail_msg("%s, word %zu bit %u stuck at %d: %zu "
					 "failing addresses, first 0x%016llx, "
					 "want only 0x%016llx",
					 test->name, f.vword, f.vbit, f.value,
					 r.naddrs, (unsigned long long)r.addrs[0],
					 (unsigned long long)want);
			for (uint64_t e = 0; e < r.nerrors && e < MAX_ERRORS; e++) {
				uint64_t x = r.err[e].expected, y = r.err[e].actual;

				if ((x ^ y) != 1ull << f.vbit ||
				    ((y >> f.vbit) & 1) != f.value)
					fail_msg("%s, word %zu bit %u stuck at %d: "
						 "expected 0x%016llx actual "
						 "0x%016llx", test->name, f.vword,
						 f.vbit, f.value,
						 (unsigned long long)x,
						 (unsigned long long)y);
			}
		}
	}
}

// Two addresses to one cell: own-address names the address that reads the
// other word's value.
static void test_alias_address(void **state)
{
	static const struct range range = { BASE, BASE + 8ull * N };
	struct sim_fault f = { .kind = SIM_AF_ALIAS, .vword = 10, .aword = 700 };
	struct rec r = { 0 };
	struct mt_ctx ctx = make_ctx(&range, 1, &r, 0);

	(void)state;
	sim_reset(BASE, N, 9);
	sim_inject(&f);
	mt_find("own-address", 11)->run(&ctx, NULL);
	assert_int_equal(r.naddrs, 1);
	assert_int_equal(r.addrs[0], BASE + 8 * 10);
	assert_int_equal(r.err[0].expected, BASE + 8 * 10);
	assert_int_equal(r.err[0].actual, BASE + 8 * 700);
}

static const struct {
	uint32_t bitfade_s;
	uint64_t nerrors, slept;
} fade_cases[] = {
	{ 60, 1, 120 }, // decays after 30 s: found in the ones half
	{ 20, 0, 40 },  // too short a wait
	{ 0, 0, 0 },    // disabled
};

static void test_retention(void **state)
{
	static const struct range range = { BASE, BASE + 8ull * N };
	const struct mt_test *fade = mt_find("bit-fade", 8);

	(void)state;
	for (size_t c = 0; c < sizeof(fade_cases) / sizeof(fade_cases[0]); c++) {
		struct sim_fault f = { .kind = SIM_RET, .vword = 100, .vbit = 5,
				       .value = 0, .delay_s = 30 };
		struct rec r = { 0 };
		struct mt_ctx ctx = make_ctx(&range, 1, &r, fade_cases[c].bitfade_s);

		sim_reset(BASE, N, 3);
		sim_inject(&f);
		assert_true(fade->run(&ctx, fade->param));
		if (r.nerrors != fade_cases[c].nerrors ||
		    r.slept != fade_cases[c].slept)
			fail_msg("bitfade=%u: %llu errors, slept %llu s; want "
				 "%llu, %llu", fade_cases[c].bitfade_s,
				 (unsigned long long)r.nerrors,
				 (unsigned long long)r.slept,
				 (unsigned long long)fade_cases[c].nerrors,
				 (unsigned long long)fade_cases[c].slept);
		if (r.nerrors && (r.err[0].addr != BASE + 800 ||
				  r.err[0].expected != ~0ull ||
				  r.err[0].actual != ~(1ull << 5)))
			fail_msg("bitfade=%u: error at 0x%016llx expected "
				 "0x%016llx actual 0x%016llx",
				 fade_cases[c].bitfade_s,
				 (unsigned long long)r.err[0].addr,
				 (unsigned long long)r.err[0].expected,
				 (unsigned long long)r.err[0].actual);
		if (fade_cases[c].bitfade_s == 0 && sim_reads() + sim_writes())
			fail_msg("bitfade=0 touched memory");
	}
}

// A false from progress (at the first or the second chunk) stops the test
// at once, and it returns false; so does a false from bit-fade's sleep.
static void test_abort(void **state)
{
	static const struct range ranges[] = {
		{ BASE, BASE + 8ull * 500 }, { BASE + 8ull * 600, BASE + 8ull * N },
	};

	(void)state;
	for (size_t t = 0; t < mt_ntests; t++) {
		const struct mt_test *test = &mt_tests[t];

		for (unsigned stop = 1; stop <= 2; stop++) {
			struct rec r = { .stop_at = stop };
			struct mt_ctx ctx = make_ctx(ranges, 2, &r, 5);
			bool ran;

			sim_reset(BASE, N, 1);
			ran = test->run(&ctx, test->param);
			if (test->sweeps == 0 ? !ran || r.calls : ran)
				fail_msg("%s, stop at call %u: returned %d, "
					 "%u calls", test->name, stop, ran,
					 r.calls);
			if (test->sweeps && r.calls != stop)
				fail_msg("%s, stop at call %u: %u calls",
					 test->name, stop, r.calls);
		}
	}

	struct rec r = { .stop_sleep = true };
	struct mt_ctx ctx = make_ctx(ranges, 2, &r, 5);

	sim_reset(BASE, N, 1);
	if (mt_find("bit-fade", 8)->run(&ctx, NULL) || r.slept != 5 ||
	    r.calls != 2)
		fail_msg("bit-fade, sleep says stop: went on (slept %llu s, "
			 "%u progress calls)", (unsigned long long)r.slept,
			 r.calls);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_stuck_bit),
		cmocka_unit_test(test_alias_address),
		cmocka_unit_test(test_retention),
		cmocka_unit_test(test_abort),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
