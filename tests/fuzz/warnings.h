// SPDX-License-Identifier: GPL-2.0-or-later
// The warning callback the boot-table harnesses hand a parser
// (bootinfo_warn_fn): every warning must be a terminated, non-empty
// sentence inside the parser's message buffer of max_len bytes (fail.h's
// FAIL_IF if not; an unterminated one is ASan's), and is counted.
#ifndef RAMSIFT_TESTS_FUZZ_WARNINGS_H
#define RAMSIFT_TESTS_FUZZ_WARNINGS_H

#include <stddef.h>

#include "fail.h"
#include "memstr.h"	// lib's (lib/ is on the quote path only)

struct fuzz_warnings {
	size_t max_len;		// the parser's message buffer
	size_t count;
};

// lib's str_len, built without coverage: a loop here took half of a run
// comparing characters.
static inline void fuzz_warning(void *ctx, const char *msg)
{
	struct fuzz_warnings *w = ctx;
	size_t n = str_len(msg);

	FAIL_IF(n == 0 || n >= w->max_len);
	w->count++;
}

#endif
