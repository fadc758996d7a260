// SPDX-License-Identifier: GPL-2.0-or-later
// How a fuzz harness fails: FAIL_IF(cond) names the broken promise (file,
// line and the condition as written) on standard error and aborts, which
// libFuzzer and tests/fuzz/replay.c both report as a failing input.
#ifndef RAMSIFT_TESTS_FUZZ_FAIL_H
#define RAMSIFT_TESTS_FUZZ_FAIL_H

#include <stdio.h>
#include <stdlib.h>

#define FAIL_IF(cond)                                                                       \
	do {                                                                                \
		if (cond) {                                                                 \
			fprintf(stderr, "%s:%d: broken: %s\n", __FILE__, __LINE__, #cond); \
			abort();                                                            \
		}                                                                           \
	} while (0)

#endif
