// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/parse.c: tables of accepted and rejected numbers and
// sizes, including the exact overflow boundaries, and a check that a
// rejected input leaves the output untouched.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "parse.h"
#include "memstr.h"

struct num_case {
	const char *s;
	bool ok;
	uint64_t want;
};

static const struct num_case u64_cases[] = {
	{ "0", true, 0 },
	{ "7", true, 7 },
	{ "007", true, 7 },                         // decimal, not octal
	{ "1000000", true, 1000000 },
	{ "18446744073709551615", true, UINT64_MAX },
	{ "18446744073709551616", false, 0 },       // UINT64_MAX + 1
	{ "99999999999999999999", false, 0 },
	{ "0x0", true, 0 },
	{ "0xff", true, 255 },
	{ "0XFF", true, 255 },
	{ "0xDeadBeef", true, 0xdeadbeef },
	{ "0xffffffffffffffff", true, UINT64_MAX },
	{ "0x10000000000000000", false, 0 },
	{ "0x0000000000000000001", true, 1 },        // leading zeros are fine
	{ "", false, 0 },
	{ "0x", false, 0 },
	{ "x1", false, 0 },
	{ "-1", false, 0 },
	{ "+1", false, 0 },
	{ " 1", false, 0 },
	{ "1 ", false, 0 },
	{ "12a", false, 0 },
	{ "ff", false, 0 },                          // hex needs 0x
	{ "0xg", false, 0 },
	{ "1.5", false, 0 },
	{ "1K", false, 0 },
};

static const struct num_case size_cases[] = {
	{ "0", true, 0 },
	{ "4096", true, 4096 },
	{ "4K", true, 4096 },
	{ "4k", true, 4096 },
	{ "4KiB", true, 4096 },
	{ "1M", true, 1 << 20 },
	{ "1MiB", true, 1 << 20 },
	{ "3G", true, 3ull << 30 },
	{ "3g", true, 3ull << 30 },
	{ "2GiB", true, 2ull << 30 },
	{ "1T", true, 1ull << 40 },
	{ "1TiB", true, 1ull << 40 },
	{ "0x10M", true, 16ull << 20 },
	{ "0x10", true, 16 },
	{ "0xfK", true, 15 << 10 },
	{ "16777215T", true, 16777215ull << 40 },    // largest that fits
	{ "16777216T", false, 0 },                   // 2^64: overflow
	{ "0xffffffffffffffffK", false, 0 },
	{ "18446744073709551615", true, UINT64_MAX },
	{ "", false, 0 },
	{ "K", false, 0 },
	{ "KiB", false, 0 },
	{ "iB", false, 0 },
	{ "1iB", false, 0 },
	{ "1B", false, 0 },
	{ "1KB", false, 0 },
	{ "1Ki", false, 0 },
	{ "1kib", false, 0 },
	{ "1P", false, 0 },
	{ "1KK", false, 0 },
	{ "-1K", false, 0 },
	{ "1 K", false, 0 },
};

static void run_cases(const char *fn_name,
		      bool (*fn)(const char *, size_t, uint64_t *),
		      const struct num_case *cases, size_t ncases)
{
	for (size_t c = 0; c < ncases; c++) {
		const uint64_t sentinel = 0x5a5a5a5a5a5a5a5aull;
		uint64_t got = sentinel;
		bool ok = fn(cases[c].s, str_len(cases[c].s), &got);

		if (ok != cases[c].ok)
			fail_msg("%s(\"%s\"): returned %d want %d", fn_name,
				 cases[c].s, ok, cases[c].ok);
		if (ok && got != cases[c].want)
			fail_msg("%s(\"%s\"): got %llu want %llu", fn_name,
				 cases[c].s, (unsigned long long)got,
				 (unsigned long long)cases[c].want);
		if (!ok && got != sentinel)
			fail_msg("%s(\"%s\"): failed but changed *out to %llu",
				 fn_name, cases[c].s, (unsigned long long)got);
	}
}

static void test_parse_u64(void **state)
{
	(void)state;
	run_cases("parse_u64", parse_u64, u64_cases,
		  sizeof(u64_cases) / sizeof(u64_cases[0]));
}

static void test_parse_size(void **state)
{
	(void)state;
	run_cases("parse_size", parse_size, size_cases,
		  sizeof(size_cases) / sizeof(size_cases[0]));
}

// The length, not a NUL, ends the number: parse a word inside a line.
static void test_length_bounds(void **state)
{
	(void)state;
	const char *line = "passes=12 x";
	uint64_t v = 0;

	assert_true(parse_u64(line + 7, 2, &v));
	assert_int_equal(v, 12);
	assert_true(parse_size("4K,junk", 2, &v));
	assert_int_equal(v, 4096);
	assert_false(parse_u64(NULL, 0, &v));
	assert_false(parse_size(NULL, 0, &v));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_u64),
		cmocka_unit_test(test_parse_size),
		cmocka_unit_test(test_length_bounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
