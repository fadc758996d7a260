// SPDX-License-Identifier: GPL-2.0-or-later
// The warning callback the boot-table parsers' unit tests hand a parser
// (bootinfo_warn_fn): each warning must be a non-empty sentence that fits
// the parser's message buffer; it is counted, the first and the last are
// kept, and with TEST_WARNINGS_VERBOSE set in the environment it is printed.
// Define WARNING_LEN as the parser's *_WARNING_LEN before the include;
// include after cmocka.h (fail_msg) and lib/memstr.h.
#ifndef TESTS_UNIT_WARNINGS_H
#define TESTS_UNIT_WARNINGS_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

static struct {
	int count;
	char first[WARNING_LEN], last[WARNING_LEN];
} warns;

static inline void warnings_reset(void)
{
	warns.count = 0;
	warns.first[0] = warns.last[0] = '\0';
}

static inline void warning_keep(void *ctx, const char *msg)
{
	size_t n = str_len(msg);

	(void)ctx;
	if (n == 0 || n >= WARNING_LEN)
		fail_msg("warning %d has %zu characters, not 1 to %d: %s", warns.count + 1, n,
			 WARNING_LEN - 1, msg);
	if (warns.count++ == 0)
		mem_copy(warns.first, msg, n + 1);
	mem_copy(warns.last, msg, n + 1);
	if (getenv("TEST_WARNINGS_VERBOSE"))
		fprintf(stderr, "    warning: %s\n", msg);
}

// Whether text holds needle anywhere.
static inline bool has(const char *text, const char *needle)
{
	for (; *text; text++)
		if (str_starts_with(text, needle))
			return true;
	return false;
}

#endif
