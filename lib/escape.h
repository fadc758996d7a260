// SPDX-License-Identifier: GPL-2.0-or-later
// Text from outside (the command line, a loader's name, a log line read by
// ramsift-fold) shown in a log line: every byte that is not printable ASCII
// becomes a visible escape, so such text can neither end the line, forge
// another (a "ramsift: result=" line after a newline) nor drive a terminal
// (ESC sequences).
#ifndef RAMSIFT_LIB_ESCAPE_H
#define RAMSIFT_LIB_ESCAPE_H

#include <stddef.h>

// The most bytes one input byte can become ("\xHH").
#define ESCAPE_MAX_PER_BYTE 4

// Copy s[0..len) into buf (cap bytes, cap >= 1), NUL-terminated: printable
// ASCII (0x20..0x7e) as it is but for the backslash, written "\\"; newline,
// carriage return and tab as "\n", "\r", "\t"; every other byte (controls,
// DEL, bytes above 0x7f) as "\xHH", lowercase. Stops at the first input byte
// whose escape would not fit (an escape is never cut). Returns the bytes of
// s consumed; buf holds the escaped text. cap >= len * ESCAPE_MAX_PER_BYTE + 1
// always fits the whole of s.
size_t escape_text(char *buf, size_t cap, const char *s, size_t len);

#endif
