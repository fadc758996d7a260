// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/badram/exact.c: the symmetry test, the exact cover
// against a brute-force minimum (breadth-first search over covered subsets
// of random sets on a 4-bit domain), and the structured sets it exists for:
// a hashed DRAM column projects to 8 points and gets 8 cubes whatever its
// row count.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>

#include "badram/exact.h"
#include "xorshift.h"

static uint64_t rng_state = 0xfeedbeef;

static uint64_t rng(void)
{
	return xorshift64(&rng_state);
}

static uint8_t scratch[1 << 18];

static void test_symmetric(void **state)
{
	static const uint64_t a[] = { 0x10, 0x12, 0x30, 0x32 };   // bits 1 and 5 free
	static const uint64_t b[] = { 0x10, 0x12, 0x30 };
	(void)state;
	assert_true(exact_symmetric(a, 4, 0x2));
	assert_true(exact_symmetric(a, 4, 0x20));
	assert_false(exact_symmetric(a, 4, 0x10));   // fixed bit: all have it
	assert_false(exact_symmetric(b, 3, 0x2));
	assert_false(exact_symmetric(b, 3, 0x20));
}

// Minimum number of cubes (inside the 4-bit domain) whose union is exactly
// the set given as a 16-bit mask, by breadth-first search.
static unsigned brute_min(uint16_t set)
{
	uint16_t imp[81];
	unsigned nimp = 0;
	static uint8_t dist[1 << 16];

	for (unsigned care = 0; care < 16; care++) {
		for (unsigned val = 0; val < 16; val++) {
			uint16_t m = 0;
			if (val & ~care)
				continue;
			for (unsigned p = 0; p < 16; p++)
				if ((p & care) == val)
					m |= 1u << p;
			if ((m & ~set) == 0)
				imp[nimp++] = m;
		}
	}
	for (unsigned i = 0; i < (1u << 16); i++)
		dist[i] = 0xff;
	static uint16_t queue[1 << 16];
	unsigned head = 0, tail = 0;
	dist[0] = 0;
	queue[tail++] = 0;
	while (head < tail) {
		uint16_t s = queue[head++];
		if (s == set)
			return dist[s];
		for (unsigned k = 0; k < nimp; k++) {
			uint16_t t = s | imp[k];
			if (dist[t] == 0xff) {
				dist[t] = dist[s] + 1;
				queue[tail++] = t;
			}
		}
	}
	return 0xff;
}

static void test_minimum_vs_brute_force(void **state)
{
	(void)state;
	for (int iter = 0; iter < 60; iter++) {
		uint16_t set = (uint16_t)(iter % 2 ? rng() : rng() & rng());
		uint64_t page[16];
		size_t n = 0;
		struct cube out[16];
		if (set == 0)
			set = 1;
		for (unsigned p = 0; p < 16; p++)
			if (set >> p & 1)
				page[n++] = p;
		unsigned want = brute_min(set);
		size_t got = exact_cover(page, n, 16, out, scratch, sizeof(scratch));
		if (got != want)
			fail_msg("set %#06x: %zu cubes, minimum is %u", set, got, want);
		uint16_t cov = 0;
		for (size_t k = 0; k < got; k++)
			for (unsigned p = 0; p < 16; p++)
				if (cube_match(out[k], p))
					cov |= 1u << p;
		if (cov != set)
			fail_msg("set %#06x: cover matches %#06x", set, cov);
		if (want > 1)   // a budget below the minimum finds nothing
			assert_int_equal(exact_cover(page, n, want - 1, out, scratch,
							 sizeof(scratch)), 0);
	}
}

// The pages of one DRAM column, 256 MiB, bank bits 14-16 = row bits 17-19
// xor bank: rows rows, page bits 0-1 fixed by the column.
static size_t hashed_column(uint64_t *page, unsigned rows, unsigned bank)
{
	for (unsigned row = 0; row < rows; row++)
		page[row] = ((uint64_t)row << 5) | (((row & 7) ^ bank) << 2) | 1;
	return rows;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void test_hashed_column(void **state)
{
	static uint64_t page[4096];
	struct cube out[64];
	static const unsigned rows[] = { 8, 64, 2048, 4096 };
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		size_t n = hashed_column(page, rows[i], 5);
		qsort(page, n, sizeof(*page), cmp_u64);
		size_t got = exact_cover(page, n, 64, out, scratch, sizeof(scratch));
		if (got != 8)
			fail_msg("hashed column, %u rows: %zu cubes, want 8", rows[i], got);
		for (size_t k = 0; k < got; k++)
			assert_int_equal(cube_free_bits(out[k]), __builtin_ctz(rows[i]) - 3);
	}
}

static void test_not_applicable(void **state)
{
	static uint64_t page[300];
	struct cube out[64];
	(void)state;
	// 300 random pages: no symmetry, too many points to search.
	for (size_t i = 0; i < 300; i++)
		page[i] = rng() % (1u << 30);
	qsort(page, 300, sizeof(*page), cmp_u64);
	assert_int_equal(exact_cover(page, 300, 64, out, scratch, sizeof(scratch)), 0);
	// Too little scratch for the implicants.
	uint64_t two[2] = { 1, 2 };
	assert_int_equal(exact_cover(two, 2, 64, out, scratch, 8), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symmetric),
		cmocka_unit_test(test_minimum_vs_brute_force),
		cmocka_unit_test(test_hashed_column),
		cmocka_unit_test(test_not_applicable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
