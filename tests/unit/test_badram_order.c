// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/badram/order.c: hand-made covers that can and cannot
// be ordered for GRUB 2.06 on BIOS, and random covers whose claimed order
// is replayed against a page-level model of GRUB's behaviour (each pattern
// applied whole only if its pages lie in one uncut stretch of one RAM
// range).
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "badram/order.h"

#define DOM 4096u                       // pages in the model

static const struct range ram2[2] = { { 0, 160 }, { 256, DOM } };
static const struct universe u2 = { ram2, 2 };

static struct cube cube(uint64_t val, uint64_t freebits)
{
	struct cube c = { val & ~freebits, CUBE_DOMAIN & ~freebits };
	return c;
}

static bool in_ram(uint64_t p)
{
	return (p < 160) || (p >= 256 && p < DOM);
}

// Replay c[0..n) in order; true when every pattern lies in one uncut
// stretch of RAM (or entirely outside RAM).
static bool replay(const struct cube *c, size_t n)
{
	static uint8_t cut[DOM];

	for (unsigned p = 0; p < DOM; p++)
		cut[p] = 0;
	for (size_t k = 0; k < n; k++) {
		uint64_t first = UINT64_MAX, last = 0;
		bool ram = false, other = false;
		for (uint64_t p = 0; p < DOM; p++) {
			if (!cube_match(c[k], p))
				continue;
			ram |= in_ram(p);
			other |= !in_ram(p);
			first = first == UINT64_MAX ? p : first;
			last = p;
		}
		if (ram && other)
			return false;
		for (uint64_t p = first; ram && p <= last; p++)
			if (!in_ram(p) || cut[p])
				return false;
		for (uint64_t p = first; ram && p <= last; p++)
			cut[p] |= cube_match(c[k], p);
	}
	return true;
}

struct order_case {
	const char *name;
	struct cube c[4];
	size_t n;
	bool ok;
};

static const struct order_case cases[] = {
	{ "disjoint pages", { { 300, CUBE_DOMAIN }, { 5, CUBE_DOMAIN }, { 1000, CUBE_DOMAIN } }, 3, true },
	// Page 0x105 sits between the blocks of {0x100-0x103, 0x108-0x10b}.
	{ "nested: inner first in input", { { 0x105, CUBE_DOMAIN },
					    { 0x100, CUBE_DOMAIN & ~0xbULL } }, 2, true },
	{ "interleaved even and odd", { { 0x200, CUBE_DOMAIN & ~0xeULL },
					{ 0x201, CUBE_DOMAIN & ~0xeULL } }, 2, false },
	{ "span across the RAM gap", { { 0x80, CUBE_DOMAIN & ~0xffULL } }, 1, false },
	{ "outside RAM constrains nothing", { { 0xc0, CUBE_DOMAIN & ~0xfULL },
					      { 0x10, CUBE_DOMAIN } }, 2, true },
};

static void test_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cube c[4];
		for (size_t k = 0; k < cases[i].n; k++)
			c[k] = cases[i].c[k];
		bool got = order_cubes(c, cases[i].n, &u2);
		if (got != cases[i].ok)
			fail_msg("%s: order_cubes %d, want %d", cases[i].name, got, cases[i].ok);
		if (got && !replay(c, cases[i].n))
			fail_msg("%s: the order it chose does not replay", cases[i].name);
	}
}

static void test_random_covers(void **state)
{
	uint64_t x = 99;
	unsigned ordered = 0;
	(void)state;
	for (int iter = 0; iter < 400; iter++) {
		struct cube c[6];
		size_t n = 1 + iter % 6;
		for (size_t k = 0; k < n; k++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			uint64_t freebits = (x >> 20) & (x >> 40) & 0x3f;   // low, few
			c[k] = cube((x >> 8) % DOM, freebits);
		}
		if (order_cubes(c, n, &u2)) {
			ordered++;
			if (!replay(c, n))
				fail_msg("random cover %d (%zu cubes): order does not replay", iter, n);
		}
	}
	assert_true(ordered > 100);     // the test exercised real orders
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_random_covers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
