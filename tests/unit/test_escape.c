// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/escape.c: a table of inputs and their escaped text, and
// the cut at a small buffer, which never splits an escape.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "escape.h"
#include "memstr.h"

static const struct {
	const char *name, *in;
	size_t len;
	const char *want;
} cases[] = {
	{ "plain", "console=ttyS0,115200", 20, "console=ttyS0,115200" },
	{ "a forged result line", "x\nramsift: result=PASS", 22, "x\\nramsift: result=PASS" },
	{ "a terminal escape", "\x1b[2Jx", 5, "\\x1b[2Jx" },
	{ "CR, tab, backslash", "a\rb\tc\\d", 7, "a\\rb\\tc\\\\d" },
	{ "DEL, high bytes, NUL", "\x7f\xc3\xa9\0z", 5, "\\x7f\\xc3\\xa9\\x00z" },
	{ "empty", "", 0, "" },
};

static void test_table(void **state)
{
	char buf[128];
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t used = escape_text(buf, sizeof(buf), cases[i].in, cases[i].len);
		if (used != cases[i].len || !str_eq(buf, cases[i].want))
			fail_msg("%s: got \"%s\" (%zu bytes used), want \"%s\" (%zu)", cases[i].name,
				 buf, used, cases[i].want, cases[i].len);
	}
}

static void test_cut(void **state)
{
	char buf[6];
	(void)state;

	// "ab" fits, "\x1b" (4) would end past the 5 usable bytes: stop before it.
	assert_int_equal(escape_text(buf, sizeof(buf), "ab\x1b" "c", 4), 2);
	assert_string_equal(buf, "ab");
	assert_int_equal(escape_text(buf, 1, "abc", 3), 0);
	assert_string_equal(buf, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_cut),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
