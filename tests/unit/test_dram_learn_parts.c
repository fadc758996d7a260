// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for the parts of lib/dram's learning and its simulator: the
// GF(2) routines (null space, lowest-weight basis, span equality, solving
// for bits), the conflict threshold (bimodal or not), the MAP file parser
// (good files, and every kind of bad line named with its line and item),
// and the simulator's latencies and activation hook.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "memstr.h"
#include "dram/gf2.h"
#include "dram/hist.h"
#include "dram/mapfile.h"
#include "dram/sim.h"

// The differences: every bit of 7..19 but 14 and 18, and extra.
static void differences(struct gf2_basis *b, uint64_t extra)
{
	gf2_clear(b);
	for (unsigned bit = 7; bit < 20; bit++)
		if (bit != 14 && bit != 18)
			gf2_insert(b, 1ull << bit);
	gf2_insert(b, extra);
}

static void test_null_space(void **state)
{
	static const uint64_t want[] = { 0x40, 0x44000 }, no14[] = { 0x40, 0x40000 };
	uint64_t vary = 0xfffc0, null[8];
	struct gf2_basis b;
	unsigned dim;

	(void)state;
	// 14 and 18 always change together: functions 6 and 14^18.
	differences(&b, 0x44000);
	dim = gf2_null_space(&b, vary, null, 8);
	assert_int_equal(dim, 2);
	assert_true(gf2_same_span(null, dim, want, 2));
	for (unsigned i = 0; i < dim; i++)
		for (unsigned j = 0; j < 64; j++)
			assert_int_equal(gf2_parity(null[i] & b.rows[j]), 0);
	// 14 changes alone: 18 is free, 14 in no function.
	differences(&b, 0x4000);
	dim = gf2_null_space(&b, vary, null, 8);
	assert_int_equal(dim, 2);
	assert_true(gf2_same_span(null, dim, no14, 2));
	assert_false(gf2_same_span(null, dim, want, 2));
	// A cap smaller than the dimension says so.
	assert_int_equal(gf2_null_space(&b, vary, null, 1), 2);
	// Bits that never vary are in no function.
	assert_int_equal(gf2_null_space(&b, 0xfff80, null, 8), 1);
}

static void test_min_weight_basis(void **state)
{
	// The Skylake channel function written two ways, mixed with 15^19.
	static const uint64_t mixed[] = { 0xc3300 ^ 0x88000, 0x88000 ^ 0x4080, 0x4080 };
	uint64_t out[3];

	(void)state;
	gf2_min_weight_basis(mixed, 3, out);
	assert_int_equal(out[0], 0x4080);
	assert_int_equal(out[1], 0x88000);
	// 8^9^12^13^15^18 (0x4b300) and 8^9^12^13^18^19 (0xc3300) both weigh
	// 6: the smaller value wins.
	assert_int_equal(out[2], 0x4b300);
	assert_true(gf2_same_span(out, 3, mixed, 3));
	assert_false(gf2_same_span(out, 2, mixed, 3));
}

static void test_solve(void **state)
{
	static const uint64_t funcs[] = { 0x44000, 0x88000, 0x40 };
	uint64_t c;

	(void)state;
	// Undo flipping bit 18 (function 0) with bits below 16.
	assert_true(gf2_solve(funcs, 3, 0xffff, 1, &c));
	assert_int_equal(c, 0x4000);
	// Function 2 (bit 6) cannot be changed without bit 6.
	assert_false(gf2_solve(funcs, 3, 0xff80, 4, &c));
	assert_true(gf2_solve(funcs, 3, 0xffff, 7, &c));
	assert_int_equal(c, 0xc040);
}

// Samples: n_fast around fast, n_slow around slow, each +0..spread-1.
static uint32_t fill(uint32_t *v, uint32_t n_fast, uint32_t fast, uint32_t n_slow,
		     uint32_t slow, uint32_t spread)
{
	uint32_t x = 12345;

	for (uint32_t i = 0; i < n_fast + n_slow; i++) {
		x = x * 1103515245u + 12345u;
		v[i] = (i < n_fast ? fast : slow) + (x >> 16) % spread;
	}
	hist_sort(v, n_fast + n_slow);
	for (uint32_t i = 1; i < n_fast + n_slow; i++)
		assert_true(v[i - 1] <= v[i]);
	return n_fast + n_slow;
}

static void test_threshold(void **state)
{
	static uint32_t v[4000];
	uint32_t t = 0, n;

	(void)state;
	n = fill(v, 3940, 200, 60, 260, 8);
	assert_true(hist_threshold(v, n, &t));
	assert_in_range(t, 208, 259);
	// Too few slow samples, too many, one mode, overlapping modes.
	n = fill(v, 3996, 200, 4, 260, 8);
	assert_false(hist_threshold(v, n, &t));
	n = fill(v, 2000, 200, 2000, 260, 8);
	assert_false(hist_threshold(v, n, &t));
	n = fill(v, 4000, 200, 0, 0, 100);
	assert_false(hist_threshold(v, n, &t));
	n = fill(v, 3800, 200, 200, 230, 60);
	assert_false(hist_threshold(v, n, &t));
	n = fill(v, 4000, 200, 0, 0, 1);
	assert_false(hist_threshold(v, n, &t));
}

static void test_mapfile_good(void **state)
{
	struct sim_config c;
	char err[160];

	(void)state;
	assert_true(mapfile_parse("# Skylake\nfunction 0x4080  # BG0\n\nfunction 0xc3300\n"
				  "row 19-33\nsize 16G\nnoise 20\nhammer 50000\nvictims 2\n",
				  &c, err, sizeof(err)));
	assert_int_equal(c.map.nfuncs, 2);
	assert_int_equal(c.map.funcs[1], 0xc3300);
	assert_int_equal(c.map.row_lo, 19);
	assert_int_equal(c.map.row_hi, 33);
	assert_int_equal(c.size, 16ull << 30);
	assert_int_equal(c.noise, 20);
	assert_int_equal(c.hammer, 50000);
	assert_int_equal(c.victims, 2);
	assert_true(mapfile_parse("function 0x2\nrow 10-19\r\nsize 1024K", &c, err, sizeof(err)));
	assert_int_equal(c.size, 1u << 20);
}

static void test_mapfile_bad(void **state)
{
	static const struct {
		const char *text, *err;
	} cases[] = {
		{ "function 0xZZ\n", "line 1: function 0xZZ: not a hexadecimal mask like 0x42000" },
		{ "function 42\n", "line 1: function 42: not a hexadecimal mask like 0x42000" },
		{ "function 0x0\n", "line 1: function 0x0: an empty mask" },
		{ "function 0x3\nfunction 0x5\nfunction 0x6\n",
		  "line 3: function 0x6: a combination of the functions before it" },
		{ "\nrow 18\n", "line 2: row 18: not a bit range like 18-33" },
		{ "row 20-18\n", "line 1: row 20-18: needs A <= B <= 63" },
		{ "row 1-2\nrow 1-2\n", "line 2: row 1-2: a second row line" },
		{ "size 3G\n", "line 1: size 3G: not a power of two from 1M to 2^62 bytes" },
		{ "size 16T\n", "line 1: size 16T: not a size like 16G (suffixes K, M, G)" },
		{ "size 512K\n", "line 1: size 512K: not a power of two from 1M to 2^62 bytes" },
		{ "noise 101\n", "line 1: noise 101: not a whole number from 0 to 100" },
		{ "noise -1\n", "line 1: noise -1: not a whole number from 0 to 100" },
		{ "hammer 1e6\n", "line 1: hammer 1e6: not a whole number from 0 to 4294967295" },
		{ "victims\n", "line 1: victims: needs a value" },
		{ "row 1-2 3\n", "line 1: row 1-2: unexpected \"3\" after the value" },
		{ "bank 0x40\n", "line 1: bank: unknown item (function, row, size, noise, hammer, victims)" },
		{ "row 18-33\nsize 16G\n", "no function line" },
		{ "function 0x40\nsize 16G\n", "no row line" },
		{ "function 0x40\nrow 18-33\n", "no size line" },
		{ "function 0x400000000\nrow 18-32\nsize 16G\n",
		  "function 0x400000000: uses bits at or above the size's 34" },
		{ "function 0x40\nrow 18-34\nsize 16G\n",
		  "row 18-34: bit 34 is at or above the size's 34" },
	};
	struct sim_config c;
	char err[160];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (mapfile_parse(cases[i].text, &c, err, sizeof(err)))
			fail_msg("case %zu parsed: %s", i, cases[i].text);
		if (!str_eq(err, cases[i].err))
			fail_msg("case %zu: \"%s\", want \"%s\"", i, err, cases[i].err);
	}
}

static uint64_t activations;

static void count(void *ctx, uint32_t bank, uint64_t row, uint32_t n)
{
	(void)ctx;
	(void)bank;
	(void)row;
	activations += n;
}

static void test_sim(void **state)
{
	struct sim_config c = { .map = { .funcs = { 0x44000, 0x40 }, .nfuncs = 2, .row_lo = 17,
					 .row_hi = 32 },
				.size = 8ull << 30 };
	struct sim s;
	uint32_t t;

	(void)state;
	sim_init(&s, &c, 1);
	s.activate = count;
	t = sim_time_pair(&s, 0x0, 0x80);	// one bank, one row
	assert_in_range(t, SIM_ROW_HIT, SIM_ROW_HIT + SIM_JITTER - 1);
	assert_int_equal(activations, 1);
	t = sim_time_pair(&s, 0x0, 0x40);	// another bank (bit 6)
	assert_in_range(t, SIM_OTHER_BANK, SIM_OTHER_BANK + SIM_JITTER - 1);
	assert_int_equal(activations, 3);
	t = sim_time_pair(&s, 0x0, 0x44000);	// one bank, rows 0 and 2
	assert_in_range(t, SIM_CONFLICT, SIM_CONFLICT + SIM_JITTER - 1);
	assert_int_equal(activations, 3 + 2 * SIM_ALTERNATIONS);
	assert_int_equal(sim_row(&s, 0x44000), 2);
	assert_int_equal(sim_bank(&s, 0x4040), 3);
	assert_int_equal(s.rounds, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_null_space),
		cmocka_unit_test(test_min_weight_basis),
		cmocka_unit_test(test_solve),
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_mapfile_good),
		cmocka_unit_test(test_mapfile_bad),
		cmocka_unit_test(test_sim),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
