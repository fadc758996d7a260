// SPDX-License-Identifier: GPL-2.0-or-later
// What a key does during a run. The keyboard and the serial console both
// deliver characters (the drivers translate scan codes); this maps them to
// actions, so the same keys work on both.
#ifndef RAMSIFT_LIB_RUN_KEYS_H
#define RAMSIFT_LIB_RUN_KEYS_H

#define KEY_ESC 27

enum key_action {
	KEY_NONE,
	KEY_STOP,	// Esc, q: stop now and report what was found so far
	KEY_SKIP,	// s: skip the test that runs
	KEY_PAUSE,	// p: pause; p again goes on
	KEY_REBOOT,	// r: reboot, after a confirmation
	KEY_HELP,	// ?, h: list the keys
};

// The action of character ch (a byte, or -1 for no key).
enum key_action keys_action(int ch);

// The help text, NULL-terminated: one line per action, "keys: ", the keys
// that do it ("Esc or q"; a letter stands for both its cases), two spaces,
// what they do. Every key keys_action acts on is named.
extern const char *const keys_help_lines[];

#endif
