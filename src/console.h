// SPDX-License-Identifier: GPL-2.0-or-later
// The console layer: every line of the log goes to every registered console
// (serial, VGA text, later a framebuffer) through one path.
#ifndef RAMSIFT_SRC_CONSOLE_H
#define RAMSIFT_SRC_CONSOLE_H

#include <stddef.h>

struct console {
	const char *name;
	void (*write)(const char *s, size_t n);
};

// Add a console; it first receives what was logged before any console
// existed, then everything written from now on. At most 4.
void console_register(const struct console *c);

// Write n bytes to every console, under one lock so lines from several CPUs
// never interleave within a call. Before the first console is registered the
// bytes are kept (up to 8 KiB) for it.
void console_write(const char *s, size_t n);

#endif
