// SPDX-License-Identifier: GPL-2.0-or-later
// Console fan-out and its lock.
#include "console.h"
#include "x86/spinlock.h"

#include "capacity.h"
#define EARLY_LOG_SIZE 8192

static const struct console *consoles[MAX_CONSOLES];
static size_t nconsoles;
static struct spinlock console_lock;

// Everything logged before the command line has chosen the consoles (the
// banner, warnings about the boot information and the command line itself),
// replayed to each console as it joins.
static char early_log[EARLY_LOG_SIZE];
static size_t early_len;

void console_register(const struct console *c)
{
	spin_lock(&console_lock);
	if (nconsoles < MAX_CONSOLES) {
		consoles[nconsoles++] = c;
		c->write(early_log, early_len);
	}
	spin_unlock(&console_lock);
}

void console_write(const char *s, size_t n)
{
	spin_lock(&console_lock);
	if (nconsoles == 0) {
		size_t room = EARLY_LOG_SIZE - early_len;
		size_t k = n < room ? n : room;
		for (size_t i = 0; i < k; i++)
			early_log[early_len++] = s[i];
	}
	for (size_t i = 0; i < nconsoles; i++)
		consoles[i]->write(s, n);
	spin_unlock(&console_lock);
}
