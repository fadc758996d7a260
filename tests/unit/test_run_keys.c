// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/run/keys.c: every key that does something, both cases
// of a letter, and keys that must do nothing (Enter, space, y, n, bytes of
// an arrow key's escape sequence after its Esc).
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "run/keys.h"

static const struct {
	int ch;
	enum key_action want;
} cases[] = {
	{ KEY_ESC, KEY_STOP }, { 'q', KEY_STOP }, { 'Q', KEY_STOP },
	{ 's', KEY_SKIP }, { 'S', KEY_SKIP }, { 'p', KEY_PAUSE }, { 'P', KEY_PAUSE },
	{ 'r', KEY_REBOOT }, { 'R', KEY_REBOOT }, { '?', KEY_HELP }, { 'h', KEY_HELP },
	{ 'H', KEY_HELP }, { -1, KEY_NONE }, { '\n', KEY_NONE }, { '\r', KEY_NONE },
	{ ' ', KEY_NONE }, { 'y', KEY_NONE }, { 'n', KEY_NONE }, { '[', KEY_NONE },
	{ 'A', KEY_NONE }, { 0, KEY_NONE }, { 255, KEY_NONE },
};

static void test_actions(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum key_action got = keys_action(cases[i].ch);
		if (got != cases[i].want)
			fail_msg("key %d: action %d, want %d", cases[i].ch, got, cases[i].want);
	}
}

static void test_help_names_every_key(void **state)
{
	size_t n = 0;
	(void)state;
	while (keys_help_lines[n])
		n++;
	assert_int_equal(n, 5);	// stop, skip, pause, reboot, help
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_actions),
		cmocka_unit_test(test_help_names_every_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
