// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/memstr.c: table cases for each primitive, including
// empty inputs, bytes above 0x7f (compared unsigned) and both overlap
// directions of mem_move.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "memstr.h"

static int sign(int v)
{
	return (v > 0) - (v < 0);
}

static void test_mem_set(void **state)
{
	(void)state;
	unsigned char buf[16];

	for (size_t n = 0; n <= 8; n++) {
		for (size_t i = 0; i < sizeof(buf); i++)
			buf[i] = 0xAA;
		void *r = mem_set(buf + 4, 0x1FF, n);   // only the low byte counts

		assert_ptr_equal(r, buf + 4);
		for (size_t i = 0; i < sizeof(buf); i++) {
			unsigned want = (i >= 4 && i < 4 + n) ? 0xFF : 0xAA;

			if (buf[i] != want)
				fail_msg("n=%zu byte %zu: got 0x%02x want 0x%02x",
					 n, i, buf[i], want);
		}
	}
}

static void test_mem_copy(void **state)
{
	(void)state;
	char src[] = "abcdefgh";
	char dst[12] = "XXXXXXXXXXX";

	assert_ptr_equal(mem_copy(dst + 1, src, 0), dst + 1);
	assert_memory_equal(dst, "XXXXXXXXXXX", 12);
	mem_copy(dst + 1, src, 8);
	assert_memory_equal(dst, "XabcdefghXX", 12);
}

static const struct {
	const char *name;
	size_t dst, src, n;
	const char *want;
} move_cases[] = {
	{ "forward overlap",  0, 2, 6, "cdefghgh" },
	{ "backward overlap", 2, 0, 6, "ababcdef" },
	{ "same place",       3, 3, 4, "abcdefgh" },
	{ "disjoint",         0, 4, 4, "efghefgh" },
	{ "zero length",      1, 0, 0, "abcdefgh" },
	{ "one byte up",      1, 0, 7, "aabcdefg" },
};

static void test_mem_move(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(move_cases) / sizeof(move_cases[0]); c++) {
		char buf[9] = "abcdefgh";

		void *r = mem_move(buf + move_cases[c].dst,
				   buf + move_cases[c].src, move_cases[c].n);
		if (r != buf + move_cases[c].dst)
			fail_msg("%s: wrong return", move_cases[c].name);
		if (!str_eq(buf, move_cases[c].want))
			fail_msg("%s: got \"%s\" want \"%s\"", move_cases[c].name,
				 buf, move_cases[c].want);
	}
}

static const struct {
	const char *a, *b;
	size_t n;
	int want;   // sign
} cmp_cases[] = {
	{ "abc", "abc", 3, 0 },
	{ "abc", "abd", 3, -1 },
	{ "abd", "abc", 3, 1 },
	{ "abc", "abd", 2, 0 },
	{ "x", "y", 0, 0 },
	{ "\x80", "\x7f", 1, 1 },    // unsigned comparison
	{ "a\0b", "a\0c", 3, -1 },   // mem_cmp does not stop at NUL
};

static void test_mem_cmp(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(cmp_cases) / sizeof(cmp_cases[0]); c++) {
		int got = sign(mem_cmp(cmp_cases[c].a, cmp_cases[c].b, cmp_cases[c].n));

		if (got != cmp_cases[c].want)
			fail_msg("mem_cmp case %zu (n=%zu): got %d want %d", c,
				 cmp_cases[c].n, got, cmp_cases[c].want);
	}
}

static const struct {
	const char *a, *b;
	int cmp;     // sign of str_cmp(a, b)
	bool starts; // str_starts_with(a, b)
} str_cases[] = {
	{ "", "", 0, true },
	{ "a", "", 1, true },
	{ "", "a", -1, false },
	{ "abc", "abc", 0, true },
	{ "abc", "ab", 1, true },
	{ "ab", "abc", -1, false },
	{ "abc", "abd", -1, false },
	{ "\xff", "a", 1, false },
	{ "console=ttyS0", "console=", 1, true },
	{ "consol", "console=", -1, false },
};

static void test_str_cmp_eq_starts(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(str_cases) / sizeof(str_cases[0]); c++) {
		const char *a = str_cases[c].a, *b = str_cases[c].b;
		int cmp = sign(str_cmp(a, b));

		if (cmp != str_cases[c].cmp)
			fail_msg("str_cmp(\"%s\", \"%s\"): got %d want %d", a, b,
				 cmp, str_cases[c].cmp);
		if (str_eq(a, b) != (str_cases[c].cmp == 0))
			fail_msg("str_eq(\"%s\", \"%s\"): got %d", a, b, str_eq(a, b));
		if (str_starts_with(a, b) != str_cases[c].starts)
			fail_msg("str_starts_with(\"%s\", \"%s\"): got %d want %d",
				 a, b, str_starts_with(a, b), str_cases[c].starts);
	}
}

static void test_str_len(void **state)
{
	(void)state;
	assert_int_equal(str_len(""), 0);
	assert_int_equal(str_len("a"), 1);
	assert_int_equal(str_len("hello world"), 11);
	assert_int_equal(str_len("ab\0cd"), 2);
}

static const struct {
	const char *a, *b;
	size_t n;
	bool want;
} neq_cases[] = {
	{ "abc", "abd", 2, true },
	{ "abc", "abd", 3, false },
	{ "ab", "ab", 10, true },     // stops at the common NUL
	{ "ab", "abc", 3, false },
	{ "x", "y", 0, true },
};

static const struct {
	const char *a;
	size_t n;
	const char *b;
	bool want;
} eqn_cases[] = {
	{ "halt,reboot", 4, "halt", true },
	{ "halt,reboot", 3, "halt", false },
	{ "halt,reboot", 5, "halt", false },
	{ "", 0, "", true },
	{ "x", 0, "x", false },
};

static void test_str_n_eq(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(neq_cases) / sizeof(neq_cases[0]); c++) {
		bool got = str_n_eq(neq_cases[c].a, neq_cases[c].b, neq_cases[c].n);

		if (got != neq_cases[c].want)
			fail_msg("str_n_eq(\"%s\", \"%s\", %zu): got %d want %d",
				 neq_cases[c].a, neq_cases[c].b, neq_cases[c].n,
				 got, neq_cases[c].want);
	}
	for (size_t c = 0; c < sizeof(eqn_cases) / sizeof(eqn_cases[0]); c++) {
		bool got = str_eq_n(eqn_cases[c].a, eqn_cases[c].n, eqn_cases[c].b);

		if (got != eqn_cases[c].want)
			fail_msg("str_eq_n(\"%s\", %zu, \"%s\"): got %d want %d",
				 eqn_cases[c].a, eqn_cases[c].n, eqn_cases[c].b,
				 got, eqn_cases[c].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mem_set),
		cmocka_unit_test(test_mem_copy),
		cmocka_unit_test(test_mem_move),
		cmocka_unit_test(test_mem_cmp),
		cmocka_unit_test(test_str_cmp_eq_starts),
		cmocka_unit_test(test_str_len),
		cmocka_unit_test(test_str_n_eq),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
