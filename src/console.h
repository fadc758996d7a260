// SPDX-License-Identifier: GPL-2.0-or-later
// The console layer: every line of the log goes to every registered console
// (serial, VGA text, later a framebuffer) through one path.
#ifndef RAMSIFT_SRC_CONSOLE_H
#define RAMSIFT_SRC_CONSOLE_H

#include <stddef.h>

struct console {
	const char *name;
	// Must take no lock: console_takeover() may call it while the CPU it
	// runs on was interrupted inside it.
	void (*write)(const char *s, size_t n);
};

// Add a console; it first receives what was logged before any console
// existed, then everything written from now on. At most 4.
void console_register(const struct console *c);

// Write n bytes to every console, under one lock so lines from several CPUs
// never interleave within a call. Before the first console is registered the
// bytes are kept (up to 8 KiB) for it. After console_takeover() the CPU that
// took over writes without the lock, and any other CPU halts here.
void console_write(const char *s, size_t n);

// Call fn(arg) under the console lock, as console_write() writes: so that
// what fn draws on a screen (the status screen) never interleaves with a
// line being written. After console_takeover(), on the CPU that took over,
// fn runs without the lock; another CPU halts here.
void console_locked(void (*fn)(void *arg), void *arg);

// The last words: from now on only the calling CPU writes to the consoles,
// and it never waits on their lock, so an exception, NMI or machine check
// that came while this CPU was inside console_write() can still report (the
// panic path, src/panic.h, and the result line, run_finish()). The first CPU
// to call it wins; another CPU that calls it, or console_write(), afterwards
// halts there for good. The winner may call it again (a fault while it
// reports). Each call waits at most about 300 ms for another CPU to finish
// a line it is writing, none for its own. Then every console on which a line
// was left unfinished (the interrupted write, or a writer that timed out)
// gets a '\n', so what follows starts on a fresh line. (The console layer
// knows what a console has sent to within the few instructions between a
// byte's store to the device and the driver's return: an interrupt just
// there costs an empty line or a report glued to one byte.)
// Requires cpu_init_bsp().
void console_takeover(void);

#endif
