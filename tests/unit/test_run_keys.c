// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/run/keys.c: every key that does something, both cases
// of a letter, and keys that must do nothing (Enter, space, y, n, bytes of
// an arrow key's escape sequence after its Esc); the help names every key
// that does something, each on its action's line.
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
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

// The keys a help line names into named[]: the words between "keys: " and
// the first two spaces, "or" between them; "Esc" is KEY_ESC, a single
// character itself, a lower-case letter both its cases. False, with the
// word in bad[], when the line has no such column or a word names no key.
static bool help_keys(const char *line, bool named[256], char bad[16])
{
	const char *prefix = "keys: ", *end = strstr(line, "  ");
	const char *w = line + strlen(prefix);

	if (strncmp(line, prefix, strlen(prefix)) != 0 || !end || end < w) {
		snprintf(bad, 16, "(no column)");
		return false;
	}
	while (w < end) {
		size_t n = strcspn(w, " ");
		if (w + n > end)
			n = (size_t)(end - w);
		if (n == 3 && strncmp(w, "Esc", 3) == 0) {
			named[KEY_ESC] = true;
		} else if (n == 1) {
			unsigned char c = (unsigned char)w[0];
			named[c] = true;
			if (islower(c))
				named[toupper(c)] = true;
		} else if (!(n == 2 && strncmp(w, "or", 2) == 0)) {
			snprintf(bad, 16, "%.*s", (int)n, w);
			return false;
		}
		w += n + (w[n] == ' ');
	}
	return true;
}

// Each help line names keys of one action, no two lines the same action,
// and every character keys_action acts on is named by a line: the help is
// held to the key table itself, not to a list kept beside it.
static void test_help_names_every_key(void **state)
{
	bool named_any[256] = { false };
	bool action_listed[KEY_HELP + 1] = { false };
	(void)state;

	for (const char *const *l = keys_help_lines; *l; l++) {
		bool named[256] = { false };
		enum key_action action = KEY_NONE;
		char bad[16];

		if (!help_keys(*l, named, bad))
			fail_msg("help line \"%s\": \"%s\" names no key", *l, bad);
		for (int c = 0; c < 256; c++) {
			if (!named[c])
				continue;
			enum key_action got = keys_action(c);
			if (got == KEY_NONE || (action != KEY_NONE && got != action))
				fail_msg("help line \"%s\": key %d does action %d, want %d", *l, c, got,
					 action == KEY_NONE ? -1 : (int)action);
			action = got;
			named_any[c] = true;
		}
		if (action == KEY_NONE || action_listed[action])
			fail_msg("help line \"%s\": action %d has another line or none", *l, action);
		action_listed[action] = true;
	}
	for (int c = 0; c < 256; c++)
		if (keys_action(c) != KEY_NONE && !named_any[c])
			fail_msg("key %d ('%c') does action %d, but no help line names it", c,
				 isprint(c) ? c : '.', keys_action(c));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_actions),
		cmocka_unit_test(test_help_names_every_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
