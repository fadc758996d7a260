// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for src/log.c built for the host (mk/unit-src.mk), with the
// consoles replaced by a buffer: a line that fits is printed whole, and a
// longer one is cut to LOG_LINE_MAX bytes ending in the visible cut mark.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>

#include "console.h"
#include "log.h"
#include "memstr.h"

#include "log.c"

static char out[4096];
static size_t out_len;

void console_write(const char *s, size_t n)
{
	assert_true(out_len + n < sizeof(out));
	mem_copy(out + out_len, s, n);
	out_len += n;
	out[out_len] = '\0';
}

static void test_fits(void **state)
{
	char word[LOG_LINE_MAX];
	(void)state;

	// The longest line that fits: "warning: " and the word, then '\n'.
	mem_set(word, 'w', sizeof(word));
	word[LOG_LINE_MAX - 1 - 9] = '\0';
	out_len = 0;
	log_warn("%s", word);
	assert_int_equal(out_len, LOG_LINE_MAX);
	assert_true(str_starts_with(out, "warning: www"));
	assert_true(out[out_len - 2] == 'w' && out[out_len - 1] == '\n');
}

static void test_cut_marked(void **state)
{
	static const char mark[] = " [line cut]\n";
	char word[2 * LOG_LINE_MAX];
	(void)state;

	mem_set(word, 'w', sizeof(word));
	word[sizeof(word) - 1] = '\0';
	out_len = 0;
	log_info("long: %s end", word);
	assert_int_equal(out_len, LOG_LINE_MAX);
	if (!str_eq(out + out_len - (sizeof(mark) - 1), mark))
		fail_msg("a cut line ends in '%s', want '%s'", out + out_len - (sizeof(mark) - 1), mark);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fits),
		cmocka_unit_test(test_cut_marked),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
