// SPDX-License-Identifier: GPL-2.0-or-later
// Keys to actions (see keys.h).
#include <stddef.h>

#include "run/keys.h"

enum key_action keys_action(int ch)
{
	switch (ch) {
	case KEY_ESC:
	case 'q':
	case 'Q':
		return KEY_STOP;
	case 's':
	case 'S':
		return KEY_SKIP;
	case 'p':
	case 'P':
		return KEY_PAUSE;
	case 'r':
	case 'R':
		return KEY_REBOOT;
	case '?':
	case 'h':
	case 'H':
		return KEY_HELP;
	default:
		return KEY_NONE;
	}
}

const char *const keys_help_lines[] = {
	"keys: Esc or q  stop now and print what was found so far",
	"keys: s  skip the test that runs",
	"keys: p  pause; p again goes on",
	"keys: r  reboot (asks first)",
	"keys: ? or h  this list",
	NULL,
};
