// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/badram/cube.c, lib/badram/merge.c and lib/badram/sort.c:
// every counting function against brute force over a small page domain
// (random cubes, random RAM maps with several ranges), hand-picked cases for
// the carries of cube_next, and the merge rules (exact rewrites keep the union;
// the lossy merge only grows it).
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "badram/cube.h"
#include "badram/merge.h"
#include "badram/sort.h"
#include "xorshift.h"

#define DOM_BITS 12                     // brute-force domain: pages < 4096
#define DOM (1u << DOM_BITS)

static uint64_t rng_state = 0x1234567;

static uint64_t rng(void)
{
	return xorshift64(&rng_state);
}

// A random cube inside the domain (bits above it fixed to 0).
static struct cube random_cube(void)
{
	struct cube c;
	uint64_t freebits = rng() & rng() & (DOM - 1);   // about a quarter free

	c.care = CUBE_DOMAIN & ~freebits;
	c.val = rng() & (DOM - 1) & c.care;
	return c;
}

// 1..4 random disjoint, non-adjacent ranges inside the domain.
static size_t random_ram(struct range *r)
{
	size_t n = 0;
	uint64_t at = rng() % 64;

	for (size_t k = 1 + rng() % 4; k > 0 && at < DOM; k--) {
		uint64_t len = 1 + rng() % (DOM / 3);
		r[n].start = at;
		r[n].end = at + len < DOM ? at + len : DOM;
		at = r[n++].end + 1 + rng() % 200;
	}
	return n;
}

static bool ram_has(const struct range *r, size_t n, uint64_t p)
{
	for (size_t i = 0; i < n; i++)
		if (p >= r[i].start && p < r[i].end)
			return true;
	return false;
}

static void test_count_below(void **state)
{
	(void)state;
	for (int iter = 0; iter < 300; iter++) {
		struct cube c = random_cube();
		uint64_t b = rng() % (DOM + 10), want = 0;
		for (uint64_t p = 0; p < b && p < DOM; p++)
			want += cube_match(c, p);
		uint64_t got = cube_count_below(c, b);
		if (got != want)
			fail_msg("count_below cube %#llx/%#llx b=%llu: got %llu want %llu",
				 (unsigned long long)c.val, (unsigned long long)c.care,
				 (unsigned long long)b, (unsigned long long)got,
				 (unsigned long long)want);
	}
	struct cube all = { 0, 0 };
	assert_int_equal(cube_count_below(all, UINT64_MAX), 1ULL << CUBE_BITS);
}

static void test_next(void **state)
{
	(void)state;
	for (int iter = 0; iter < 300; iter++) {
		struct cube c = random_cube();
		uint64_t x = rng() % DOM, want = UINT64_MAX, got = 0;
		for (uint64_t p = x; p < DOM; p++) {
			if (cube_match(c, p)) {
				want = p;
				break;
			}
		}
		bool found = cube_next(c, x, &got);
		if (found != (want != UINT64_MAX) || (found && got != want))
			fail_msg("next cube %#llx/%#llx x=%#llx: got %d,%#llx want %#llx",
				 (unsigned long long)c.val, (unsigned long long)c.care,
				 (unsigned long long)x, found, (unsigned long long)got,
				 (unsigned long long)want);
	}
}

// The carry cases of cube_next, by hand: {cube, x, found, y}.
struct next_case {
	uint64_t val, care, x;
	bool found;
	uint64_t y;
};

static const struct next_case next_cases[] = {
	{ 0x4, CUBE_DOMAIN & ~0x3ULL, 0x0, true, 0x4 },     // raise a fixed bit
	{ 0x4, CUBE_DOMAIN & ~0x3ULL, 0x6, true, 0x6 },     // already inside
	{ 0x4, CUBE_DOMAIN & ~0x3ULL, 0x8, false, 0 },      // above the only block
	{ 0x0, CUBE_DOMAIN & ~0xf0ULL, 0x11, true, 0x20 },  // carry into a free bit
	{ 0x1, CUBE_DOMAIN & ~0xf0ULL, 0xf2, false, 0 },    // no free bit left
	{ 0x1, CUBE_DOMAIN & ~0xf0ULL, 0xe2, true, 0xf1 },
	{ 0x0, 0, CUBE_DOMAIN, true, CUBE_DOMAIN },           // everything
};

static void test_next_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(next_cases) / sizeof(next_cases[0]); i++) {
		const struct next_case *k = &next_cases[i];
		struct cube c = { k->val, k->care };
		uint64_t y = 0;
		bool f = cube_next(c, k->x, &y);
		if (f != k->found || (f && y != k->y))
			fail_msg("next case %zu: got %d,%#llx want %d,%#llx", i, f,
				 (unsigned long long)y, k->found, (unsigned long long)k->y);
	}
}

static void test_ram_pages_and_runs(void **state)
{
	(void)state;
	for (int iter = 0; iter < 200; iter++) {
		struct range ram[4];
		struct universe u = { ram, random_ram(ram) };
		struct cube c = random_cube();
		uint64_t pages = 0, runs = 0;
		bool prev = false;
		for (uint64_t p = 0; p < DOM; p++) {
			bool in = ram_has(ram, u.nram, p) && cube_match(c, p);
			// A run also ends where a RAM range ends.
			bool cont = prev && ram_has(ram, u.nram, p - 1) && in;
			pages += in;
			runs += in && !cont;
			prev = in;
		}
		uint64_t gp = cube_ram_pages(c, &u), gr = cube_ram_runs(c, &u);
		if (gp != pages || gr != runs)
			fail_msg("ram cube %#llx/%#llx: pages %llu want %llu, runs %llu want %llu",
				 (unsigned long long)c.val, (unsigned long long)c.care,
				 (unsigned long long)gp, (unsigned long long)pages,
				 (unsigned long long)gr, (unsigned long long)runs);
	}
}

static void test_measure(void **state)
{
	(void)state;
	for (int iter = 0; iter < 150; iter++) {
		struct range ram[4];
		struct universe u = { ram, random_ram(ram) };
		struct cube c[6];
		size_t n = 1 + rng() % 6;
		uint64_t pages = 0, runs = 0;
		bool prev = false;
		for (size_t k = 0; k < n; k++)
			c[k] = random_cube();
		for (uint64_t p = 0; p < DOM; p++) {
			bool in = false;
			for (size_t k = 0; k < n; k++)
				in |= cube_match(c[k], p);
			in &= ram_has(ram, u.nram, p);
			runs += in && !(prev && ram_has(ram, u.nram, p - 1));
			pages += in;
			prev = in;
		}
		struct cube_measure m;
		assert_true(cube_measure(c, n, &u, UINT64_MAX, UINT64_MAX, &m));
		if (m.pages != pages || m.runs != runs)
			fail_msg("measure iter %d (%zu cubes): pages %llu want %llu, runs %llu want %llu",
				 iter, n, (unsigned long long)m.pages, (unsigned long long)pages,
				 (unsigned long long)m.runs, (unsigned long long)runs);
		if (runs > 1)   // the run cap is honoured
			assert_false(cube_measure(c, n, &u, runs - 1, UINT64_MAX, &m));
	}
}

static void union_bits(const struct cube *c, size_t n, uint8_t *out)
{
	for (uint64_t p = 0; p < DOM; p++) {
		out[p] = 0;
		for (size_t k = 0; k < n; k++)
			out[p] |= cube_match(c[k], p);
	}
}

static void test_simplify_keeps_union(void **state)
{
	static uint8_t before[DOM], after[DOM];
	(void)state;
	for (int iter = 0; iter < 100; iter++) {
		struct cube c[12];
		size_t n = 2 + rng() % 10;
		for (size_t k = 0; k < n; k++) {
			c[k] = random_cube();
			if (k > 0 && rng() % 2) {   // make siblings and subsets likely
				c[k] = c[k - 1];
				uint64_t bit = 1ULL << (rng() % DOM_BITS);
				if (c[k].care & bit)
					c[k].val ^= bit;
			}
		}
		union_bits(c, n, before);
		size_t m = merge_simplify(c, n, NULL);
		union_bits(c, m, after);
		assert_true(m <= n);
		for (uint64_t p = 0; p < DOM; p++)
			if (before[p] != after[p])
				fail_msg("simplify iter %d changed page %#llx: %d -> %d", iter,
					 (unsigned long long)p, before[p], after[p]);
	}
	// Two halves of a block become the block.
	struct cube h[2] = { { 0x10, CUBE_DOMAIN & ~0x7ULL }, { 0x18, CUBE_DOMAIN & ~0x7ULL } };
	assert_int_equal(merge_simplify(h, 2, NULL), 1);
	assert_int_equal(h[0].val, 0x10);
	assert_int_equal(h[0].care, CUBE_DOMAIN & ~0xfULL);
}

static void test_merge_closest(void **state)
{
	static uint8_t before[DOM], after[DOM];
	(void)state;
	for (int iter = 0; iter < 100; iter++) {
		struct cube c[8];
		size_t n = 2 + rng() % 6;
		for (size_t k = 0; k < n; k++)
			c[k] = random_cube();
		union_bits(c, n, before);
		size_t m = merge_closest(c, n);
		union_bits(c, m, after);
		assert_true(m < n);
		for (uint64_t p = 0; p < DOM; p++)
			if (before[p] && !after[p])
				fail_msg("merge iter %d lost page %#llx", iter, (unsigned long long)p);
	}
	// The nearest pair merges: pages 8 and 9 rather than 8 and 0x100.
	struct cube c[3] = { cube_page(0x100), cube_page(8), cube_page(9) };
	assert_int_equal(merge_closest(c, 3), 2);
	assert_int_equal(c[0].val, 0x100);
	assert_int_equal(c[1].val, 8);
	assert_int_equal(c[1].care, CUBE_DOMAIN & ~1ULL);
}

static void test_sort(void **state)
{
	static uint64_t a[5000], tmp[5000];
	(void)state;
	for (int iter = 0; iter < 20; iter++) {
		size_t n = rng() % 5000;
		unsigned shift = (unsigned)(rng() % 64);
		for (size_t i = 0; i < n; i++)
			a[i] = rng() >> shift;
		sort_u64(a, tmp, n);
		for (size_t i = 1; i < n; i++)
			if (a[i - 1] > a[i])
				fail_msg("sort iter %d: a[%zu]=%#llx > a[%zu]=%#llx", iter, i - 1,
					 (unsigned long long)a[i - 1], i, (unsigned long long)a[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count_below),
		cmocka_unit_test(test_next),
		cmocka_unit_test(test_next_cases),
		cmocka_unit_test(test_ram_pages_and_runs),
		cmocka_unit_test(test_measure),
		cmocka_unit_test(test_simplify_keeps_union),
		cmocka_unit_test(test_merge_closest),
		cmocka_unit_test(test_sort),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
