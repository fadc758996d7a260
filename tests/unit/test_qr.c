// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/qr/: Reed-Solomon against the standard's worked example
// and the generator roots, format information for all 32 level/mask pairs,
// version information for 7-40, the capacity and codeword tables at sample
// points, alignment centres, version fitting, the penalty score on hand-
// counted grids, and qr_encode's options and layout. Whole symbols are held
// against zbarimg and qrencode by `make check-qr` (tests/qr/check.sh).
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "memtest/prng.h"
#include "qr/format_info.h"
#include "qr/mask.h"
#include "qr/matrix.h"
#include "qr/qr.h"
#include "qr/rs.h"
#include "qr/tables.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char level_name[] = "LMQH";

static void test_gf_mul(void **state)
{
	(void)state;
	// 2 * 0x80 overflows x^8, which the field polynomial 0x11d folds back.
	assert_int_equal(qr_gf_mul(2, 0x80), 0x1d);
	assert_int_equal(qr_gf_mul(0, 0xff), 0);
	assert_int_equal(qr_gf_mul(1, 0xa7), 0xa7);
	// alpha = 2 is primitive: its powers reach 1 again first at 255.
	uint8_t p = 1;
	for (int i = 1; i <= 255; i++) {
		p = qr_gf_mul(p, 2);
		if ((p == 1) != (i == 255))
			fail_msg("alpha^%d = %d", i, p);
	}
	// Every product as the definition gives it: shift and add, reducing
	// by 0x11d (the tables could hold a wrong byte).
	for (unsigned a = 0; a < 256; a++) {
		for (unsigned b = 0; b < 256; b++) {
			unsigned want = 0, x = a;

			for (unsigned m = b; m != 0; m >>= 1) {
				if (m & 1)
					want ^= x;
				x <<= 1;
				if (x & 0x100)
					x ^= 0x11d;
			}
			if (qr_gf_mul((uint8_t)a, (uint8_t)b) != want)
				fail_msg("%#x * %#x = %#x, want %#x", a, b, qr_gf_mul((uint8_t)a, (uint8_t)b), want);
		}
	}
}

static void test_rs_generator(void **state)
{
	(void)state;
	// Annex A: the generator for 7 codewords,
	// x^7 + a^87 x^6 + a^229 x^5 + a^146 x^4 + a^149 x^3 + a^238 x^2 + a^102 x + a^21.
	static const uint8_t want[7] = { 127, 122, 154, 164, 11, 68, 117 };
	uint8_t gen[7];

	qr_rs_generator(7, gen);
	assert_memory_equal(gen, want, sizeof(want));
}

static void test_rs_standard_example(void **state)
{
	(void)state;
	// Annex I: "01234567" as symbol 1-M, its 16 data codewords and the 10
	// error-correction codewords the standard lists for them.
	static const uint8_t data[16] = {
		0x10, 0x20, 0x0c, 0x56, 0x61, 0x80, 0xec, 0x11,
		0xec, 0x11, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11,
	};
	static const uint8_t want[10] = {
		0xa5, 0x24, 0xd4, 0xc1, 0xed, 0x36, 0xc7, 0x87, 0x2c, 0x55,
	};
	uint8_t gen[10], ec[10];

	qr_rs_generator(10, gen);
	qr_rs_remainder(data, sizeof(data), gen, 10, ec);
	assert_memory_equal(ec, want, sizeof(want));
}

// The polynomial c[0] x^(n-1) + ... + c[n-1] at x.
static uint8_t poly_at(const uint8_t *c, int n, uint8_t x)
{
	uint8_t v = 0;

	for (int i = 0; i < n; i++)
		v = qr_gf_mul(v, x) ^ c[i];
	return v;
}

static void test_rs_roots(void **state)
{
	(void)state;
	// A codeword (data then EC) is a multiple of the generator, so it
	// vanishes at the generator's roots alpha^0 .. alpha^(degree-1).
	struct prng rng;
	uint8_t word[120 + QR_EC_PER_BLOCK_MAX], gen[QR_EC_PER_BLOCK_MAX];

	prng_seed(&rng, 12);
	for (int degree = 1; degree <= QR_EC_PER_BLOCK_MAX; degree++) {
		int len = 1 + (int)(prng_next(&rng) % 120);

		for (int i = 0; i < len; i++)
			word[i] = (uint8_t)prng_next(&rng);
		qr_rs_generator(degree, gen);
		qr_rs_remainder(word, (size_t)len, gen, degree, word + len);
		uint8_t root = 1;
		for (int r = 0; r < degree; r++) {
			uint8_t v = poly_at(word, len + degree, root);

			if (v != 0)
				fail_msg("degree %d, %d data: codeword at alpha^%d is %d",
					 degree, len, r, v);
			root = qr_gf_mul(root, 2);
		}
	}
}

// Table C.1: the 15 format bits of each level (L, M, Q, H) and mask 0-7.
static const uint16_t format_table[4][8] = {
	{ 0x77c4, 0x72f3, 0x7daa, 0x789d, 0x662f, 0x6318, 0x6c41, 0x6976 },
	{ 0x5412, 0x5125, 0x5e7c, 0x5b4b, 0x45f9, 0x40ce, 0x4f97, 0x4aa0 },
	{ 0x355f, 0x3068, 0x3f31, 0x3a06, 0x24b4, 0x2183, 0x2eda, 0x2bed },
	{ 0x1689, 0x13be, 0x1ce7, 0x19d0, 0x0762, 0x0255, 0x0d0c, 0x083b },
};

static void test_format_bits(void **state)
{
	(void)state;
	for (int l = 0; l < QR_LEVEL_COUNT; l++) {
		for (int m = 0; m < 8; m++) {
			uint16_t got = qr_format_bits((enum qr_level)l, m);

			if (got != format_table[l][m])
				fail_msg("%c mask %d: got 0x%04x want 0x%04x",
					 level_name[l], m, got, format_table[l][m]);
		}
	}
}

// Table D.1: the 18 version bits of versions 7-40.
static const uint32_t version_table[34] = {
	0x07c94, 0x085bc, 0x09a99, 0x0a4d3, 0x0bbf6, 0x0c762, 0x0d847, 0x0e60d,
	0x0f928, 0x10b78, 0x1145d, 0x12a17, 0x13532, 0x149a6, 0x15683, 0x168c9,
	0x177ec, 0x18ec4, 0x191e1, 0x1afab, 0x1b08e, 0x1cc1a, 0x1d33f, 0x1ed75,
	0x1f250, 0x209d5, 0x216f0, 0x228ba, 0x2379f, 0x24b0b, 0x2542e, 0x26a64,
	0x27541, 0x28c69,
};

static void test_version_bits(void **state)
{
	(void)state;
	for (int v = 7; v <= QR_VERSION_MAX; v++) {
		uint32_t got = qr_version_bits(v), want = version_table[v - 7];

		if (got != want)
			fail_msg("version %d: got 0x%05x want 0x%05x", v, got, want);
	}
}

// Table 7, byte mode.
static const struct {
	int version;
	enum qr_level level;
	size_t bytes;
} capacity_cases[] = {
	{ 1, QR_LEVEL_L, 17 },    { 1, QR_LEVEL_M, 14 },
	{ 1, QR_LEVEL_Q, 11 },    { 1, QR_LEVEL_H, 7 },
	{ 7, QR_LEVEL_L, 154 },   { 7, QR_LEVEL_M, 122 },
	{ 7, QR_LEVEL_Q, 86 },    { 7, QR_LEVEL_H, 64 },
	{ 9, QR_LEVEL_L, 230 },   { 10, QR_LEVEL_L, 271 },  // count field 8 -> 16
	{ 10, QR_LEVEL_M, 213 },  { 10, QR_LEVEL_Q, 151 },
	{ 10, QR_LEVEL_H, 119 },  { 40, QR_LEVEL_L, 2953 },
	{ 40, QR_LEVEL_M, 2331 }, { 40, QR_LEVEL_Q, 1663 },
	{ 40, QR_LEVEL_H, 1273 },
	{ 0, QR_LEVEL_L, 0 },     { 41, QR_LEVEL_L, 0 },
	{ 1, (enum qr_level)4, 0 },
};

static void test_capacity(void **state)
{
	(void)state;
	for (size_t i = 0; i < COUNT(capacity_cases); i++) {
		size_t got = qr_capacity(capacity_cases[i].version,
					 capacity_cases[i].level);

		if (got != capacity_cases[i].bytes)
			fail_msg("version %d level %d: got %zu want %zu",
				 capacity_cases[i].version, (int)capacity_cases[i].level,
				 got, capacity_cases[i].bytes);
	}
}

// Table 1 (codewords of a symbol) and Table 9 (data codewords).
static void test_codewords(void **state)
{
	(void)state;
	static const struct { int version, total; } totals[] = {
		{ 1, 26 }, { 2, 44 }, { 6, 172 }, { 7, 196 }, { 14, 581 },
		{ 21, 1156 }, { 32, 2465 }, { 35, 2876 }, { 40, 3706 },
	};
	for (size_t i = 0; i < COUNT(totals); i++) {
		int got = qr_total_codewords(totals[i].version);

		if (got != totals[i].total)
			fail_msg("version %d: %d codewords, want %d",
				 totals[i].version, got, totals[i].total);
	}
	assert_int_equal(qr_data_modules(1), 208);
	assert_int_equal(qr_data_modules(2), 359);      // 7 remainder bits
	assert_int_equal(qr_data_codewords(1, QR_LEVEL_M), 16);
	assert_int_equal(qr_data_codewords(5, QR_LEVEL_Q), 62);
	assert_int_equal(qr_data_codewords(40, QR_LEVEL_H), 1276);
}

static void test_alignment_centres(void **state)
{
	(void)state;
	static const struct {
		int version, n;
		uint8_t pos[QR_ALIGN_MAX];
	} cases[] = {
		{ 1, 0, { 0 } },
		{ 2, 2, { 6, 18 } },
		{ 7, 3, { 6, 22, 38 } },
		{ 14, 4, { 6, 26, 46, 66 } },
		{ 15, 4, { 6, 26, 48, 70 } },
		{ 32, 6, { 6, 34, 60, 86, 112, 138 } },
		{ 36, 7, { 6, 24, 50, 76, 102, 128, 154 } },
		{ 40, 7, { 6, 30, 58, 86, 114, 142, 170 } },
	};
	for (size_t i = 0; i < COUNT(cases); i++) {
		uint8_t pos[QR_ALIGN_MAX] = { 0 };
		int n = qr_alignment_centres(cases[i].version, pos);

		if (n != cases[i].n)
			fail_msg("version %d: %d centres, want %d",
				 cases[i].version, n, cases[i].n);
		for (int j = 0; j < n; j++) {
			if (pos[j] != cases[i].pos[j])
				fail_msg("version %d: centre %d at %d, want %d",
					 cases[i].version, j, pos[j], cases[i].pos[j]);
		}
	}
}

static void test_fit_version(void **state)
{
	(void)state;
	for (int l = 0; l < QR_LEVEL_COUNT; l++) {
		enum qr_level level = (enum qr_level)l;

		assert_int_equal(qr_fit_version(0, level), 1);
		for (int v = 1; v <= QR_VERSION_MAX; v++) {
			size_t cap = qr_capacity(v, level);
			int full = qr_fit_version(cap, level);
			int over = qr_fit_version(cap + 1, level);

			if (full != v || over != (v == QR_VERSION_MAX ? 0 : v + 1))
				fail_msg("%c: %zu bytes fit %d (want %d), %zu fit %d",
					 level_name[l], cap, full, v, cap + 1, over);
		}
	}
	assert_int_equal(qr_fit_version(1, (enum qr_level)4), 0);
}

static uint8_t symbol[QR_BUFFER_LEN_MAX];
static uint8_t work[QR_WORK_LEN_MAX];
static uint8_t payload[3000];

static enum qr_status encode(size_t len, enum qr_level level, int version,
			     int mask, size_t qr_len, size_t work_len)
{
	struct qr_options opt = { .level = level, .version = version, .mask = mask };

	return qr_encode(payload, len, &opt, symbol, qr_len, work, work_len);
}

static void test_encode_status(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		size_t len;
		enum qr_level level;
		int version, mask;
		size_t qr_len, work_len;
		enum qr_status want;
	} cases[] = {
		{ "fits 40-L", 2953, QR_LEVEL_L, 0, -1, QR_BUFFER_LEN_MAX, QR_WORK_LEN_MAX, QR_OK },
		{ "past 40-L", 2954, QR_LEVEL_L, 0, -1, QR_BUFFER_LEN_MAX, QR_WORK_LEN_MAX, QR_TOO_LONG },
		{ "past 40-H", 1274, QR_LEVEL_H, 0, -1, QR_BUFFER_LEN_MAX, QR_WORK_LEN_MAX, QR_TOO_LONG },
		{ "past forced 1-L", 18, QR_LEVEL_L, 1, -1, QR_BUFFER_LEN_MAX, QR_WORK_LEN_MAX, QR_TOO_LONG },
		{ "forced 2-L", 18, QR_LEVEL_L, 2, 3, QR_BUFFER_LEN(2), QR_WORK_LEN(2), QR_OK },
		{ "empty", 0, QR_LEVEL_H, 0, -1, QR_BUFFER_LEN(1), QR_WORK_LEN(1), QR_OK },
		{ "level 4", 1, (enum qr_level)4, 0, -1, QR_BUFFER_LEN_MAX, QR_WORK_LEN_MAX, QR_BAD_OPTION },
		{ "version 41", 1, QR_LEVEL_L, 41, -1, QR_BUFFER_LEN_MAX, QR_WORK_LEN_MAX, QR_BAD_OPTION },
		{ "version -1", 1, QR_LEVEL_L, -1, -1, QR_BUFFER_LEN_MAX, QR_WORK_LEN_MAX, QR_BAD_OPTION },
		{ "mask 8", 1, QR_LEVEL_L, 0, 8, QR_BUFFER_LEN_MAX, QR_WORK_LEN_MAX, QR_BAD_OPTION },
		{ "mask -2", 1, QR_LEVEL_L, 0, -2, QR_BUFFER_LEN_MAX, QR_WORK_LEN_MAX, QR_BAD_OPTION },
		{ "symbol short", 14, QR_LEVEL_M, 0, -1, QR_BUFFER_LEN(1) - 1, QR_WORK_LEN(1), QR_BUFFER_TOO_SMALL },
		{ "work short", 14, QR_LEVEL_M, 0, -1, QR_BUFFER_LEN(1), QR_WORK_LEN(1) - 1, QR_BUFFER_TOO_SMALL },
		{ "2 wanted", 15, QR_LEVEL_M, 0, -1, QR_BUFFER_LEN(1), QR_WORK_LEN_MAX, QR_BUFFER_TOO_SMALL },
	};
	for (size_t i = 0; i < COUNT(cases); i++) {
		enum qr_status got = encode(cases[i].len, cases[i].level,
					    cases[i].version, cases[i].mask,
					    cases[i].qr_len, cases[i].work_len);

		if (got != cases[i].want)
			fail_msg("%s: got %d want %d", cases[i].name, (int)got,
				 (int)cases[i].want);
	}
}

// The finder whose top-left module is (left, top): rings dark, light, dark
// core, and its light separator on the sides that face the symbol.
static void check_finder(int left, int top)
{
	for (int y = -1; y <= 7; y++) {
		for (int x = -1; x <= 7; x++) {
			int dx = x < 3 ? 3 - x : x - 3, dy = y < 3 ? 3 - y : y - 3;
			int ring = dx > dy ? dx : dy;
			bool want = ring != 2 && ring != 4;

			if (qr_module(symbol, left + x, top + y) != want)
				fail_msg("finder at (%d,%d): module (%d,%d) is %d",
					 left, top, left + x, top + y, !want);
		}
	}
}

static void test_encode_layout(void **state)
{
	(void)state;
	for (int i = 0; i < 30; i++)
		payload[i] = (uint8_t)("ramsift result=PASS errors=0 ."[i]);
	// 30 bytes at Q need version 3: 29 x 29 with one alignment pattern.
	assert_int_equal(encode(30, QR_LEVEL_Q, 0, 5, QR_BUFFER_LEN(3), QR_WORK_LEN(3)), QR_OK);
	assert_int_equal(qr_version(symbol), 3);
	assert_int_equal(qr_size(symbol), 29);
	assert_int_equal(qr_level(symbol), QR_LEVEL_Q);
	assert_int_equal(qr_mask(symbol), 5);
	check_finder(0, 0);
	check_finder(22, 0);
	check_finder(0, 22);
	for (int i = 8; i <= 20; i++) {
		if (qr_module(symbol, i, 6) != (i % 2 == 0) ||
		    qr_module(symbol, 6, i) != (i % 2 == 0))
			fail_msg("timing module %d", i);
	}
	assert_true(qr_module(symbol, 8, 21));          // the dark module
	assert_true(qr_module(symbol, 22, 22));         // alignment centre
	assert_false(qr_module(symbol, 21, 22));
	assert_true(qr_module(symbol, 20, 22));
	// Both copies of the format information, read as in Figure 25.
	uint16_t a = 0, b = 0;
	for (int i = 0; i < 15; i++) {
		int x = i < 8 ? 8 : (i == 8 ? 7 : 14 - i);
		int y = i < 6 ? i : (i < 8 ? i + 1 : 8);

		a |= (uint16_t)(qr_module(symbol, x, y) << i);
		b |= (uint16_t)((i < 8 ? qr_module(symbol, 28 - i, 8)
				       : qr_module(symbol, 8, 14 + i)) << i);
	}
	assert_int_equal(a, qr_format_bits(QR_LEVEL_Q, 5));
	assert_int_equal(b, a);
	assert_false(qr_module(symbol, -1, 0));
	assert_false(qr_module(symbol, 0, 29));
	assert_false(qr_module(symbol, 29, 28));
}

static void test_encode_version_info(void **state)
{
	(void)state;
	// Version 7's information, both copies (7.10: bit i at
	// (size - 11 + i % 3, i / 3) and mirrored).
	assert_int_equal(encode(1, QR_LEVEL_L, 7, -1, QR_BUFFER_LEN(7), QR_WORK_LEN(7)), QR_OK);
	for (int i = 0; i < 18; i++) {
		bool want = version_table[0] >> i & 1;
		int a = 45 - 11 + i % 3, b = i / 3;

		if (qr_module(symbol, a, b) != want || qr_module(symbol, b, a) != want)
			fail_msg("version bit %d", i);
	}
}

static void test_forced_mask_is_chosen_when_best(void **state)
{
	(void)state;
	// The mask chosen is the lowest score: forcing each mask and scoring
	// the result again finds none lower.
	for (int i = 0; i < 40; i++)
		payload[i] = (uint8_t)(i * 37 + 11);
	assert_int_equal(encode(40, QR_LEVEL_M, 0, -1, QR_BUFFER_LEN_MAX, QR_WORK_LEN_MAX), QR_OK);
	int chosen = qr_mask(symbol);
	int score[8];
	for (int m = 0; m < 8; m++) {
		struct qr_grid g;

		assert_int_equal(encode(40, QR_LEVEL_M, 0, m, QR_BUFFER_LEN_MAX, QR_WORK_LEN_MAX), QR_OK);
		g.bits = symbol + QR_HEADER_LEN;
		g.version = qr_version(symbol);
		g.size = qr_size(symbol);
		g.align_count = qr_alignment_centres(g.version, g.align);
		score[m] = qr_penalty(&g);
	}
	for (int m = 0; m < 8; m++) {
		if (score[m] < score[chosen] || (score[m] == score[chosen] && m < chosen))
			fail_msg("mask %d scores %d, the chosen %d scores %d",
				 m, score[m], chosen, score[chosen]);
	}
}

static void test_penalty(void **state)
{
	(void)state;
	uint8_t bits[(21 * 21 + 7) / 8];
	struct qr_grid g;

	// All light, 21 x 21. N1: 42 lines of 21 light, 3 + 16 each = 798.
	// N2: 20 x 20 blocks, 3 each = 1200. N4: 0 % dark is 10 steps = 100.
	qr_grid_init(&g, bits, 1);
	assert_int_equal(qr_penalty(&g), 798 + 1200 + 100);

	// Row 10 holds 1011101 at columns 7-13, light elsewhere.
	// N3: that row, 7 light on each side: 40. N1: the row's two light runs
	// of 7: 2 x 5; the other 20 rows 19 each: 380; the columns through
	// its 5 dark modules have two light runs of 10: 5 x 2 x 8 = 80; the 16
	// other columns 19 each: 304. N2: the 16 blocks that touch a dark
	// module score nothing, 384 x 3 = 1152. N4: 5 dark of 441, 9 steps: 90.
	static const bool row[7] = { 1, 0, 1, 1, 1, 0, 1 };
	for (int i = 0; i < 7; i++)
		qr_grid_set(&g, 7 + i, 10, row[i]);
	assert_int_equal(qr_penalty(&g), 40 + 10 + 380 + 80 + 304 + 1152 + 90);

	// Dark modules at columns 3 and 17 leave only 3 light modules on
	// each side of the pattern: no N3. Row 10 is now light 3, dark,
	// light 3, 1011101, light 3, dark, light 3: no run of 5 either, so
	// it scores 0; the other rows 380. Columns: 7 through a dark module
	// (7 x 16 = 112), 14 light (266). N2: 24 blocks touch a dark module,
	// 376 x 3 = 1128. N4: 7 dark, 9 steps: 90.
	qr_grid_set(&g, 3, 10, true);
	qr_grid_set(&g, 17, 10, true);
	assert_int_equal(qr_penalty(&g), 380 + 112 + 266 + 1128 + 90);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gf_mul),
		cmocka_unit_test(test_rs_generator),
		cmocka_unit_test(test_rs_standard_example),
		cmocka_unit_test(test_rs_roots),
		cmocka_unit_test(test_format_bits),
		cmocka_unit_test(test_version_bits),
		cmocka_unit_test(test_capacity),
		cmocka_unit_test(test_codewords),
		cmocka_unit_test(test_alignment_centres),
		cmocka_unit_test(test_fit_version),
		cmocka_unit_test(test_encode_status),
		cmocka_unit_test(test_encode_layout),
		cmocka_unit_test(test_encode_version_info),
		cmocka_unit_test(test_forced_mask_is_chosen_when_best),
		cmocka_unit_test(test_penalty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
