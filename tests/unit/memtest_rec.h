// SPDX-License-Identifier: GPL-2.0-or-later
// What a memory test's callbacks (struct mt_ctx's error, progress and
// sleep, with cb_ctx a struct rec) saw, for the memory tests' unit tests.
// Included after tests/sim's simmem.h (sim_sleep).
#ifndef TESTS_UNIT_MEMTEST_REC_H
#define TESTS_UNIT_MEMTEST_REC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MAX_ERRORS 64

struct rec {
	uint64_t nerrors;
	struct {
		uint64_t addr, expected, actual;
	} err[MAX_ERRORS];  // the first MAX_ERRORS
	uint64_t addrs[8];  // distinct failing addresses (the first 8)
	size_t naddrs;
	uint64_t progress;  // bytes reported
	unsigned calls;     // progress calls
	unsigned stop_at;   // progress returns false on this call (0: never)
	uint64_t slept;     // seconds
	bool stop_sleep;    // sleep returns false
};

static void on_error(void *cb, uint64_t addr, uint64_t expected,
		     uint64_t actual)
{
	struct rec *r = cb;
	size_t i = 0;

	if (r->nerrors < MAX_ERRORS)
		r->err[r->nerrors].addr = addr,
		r->err[r->nerrors].expected = expected,
		r->err[r->nerrors].actual = actual;
	r->nerrors++;
	while (i < r->naddrs && r->addrs[i] != addr)
		i++;
	if (i == r->naddrs && r->naddrs < 8)
		r->addrs[r->naddrs++] = addr;
}

static bool on_progress(void *cb, uint64_t bytes)
{
	struct rec *r = cb;

	r->progress += bytes;
	return ++r->calls != r->stop_at;
}

static bool on_sleep(void *cb, uint32_t seconds)
{
	struct rec *r = cb;

	sim_sleep(seconds);
	r->slept += seconds;
	return !r->stop_sleep;
}

#endif
