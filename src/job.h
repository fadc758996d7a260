// SPDX-License-Identifier: GPL-2.0-or-later
// A job: one test over one list of ranges, on every CPU that tests when the
// test is parallel (each over its share), else on the BSP alone. Each CPU
// owns its callbacks' state through its entry in the run status (progress,
// timing); the test's lines come from the test as a whole.
#ifndef RAMSIFT_SRC_JOB_H
#define RAMSIFT_SRC_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "memtest/memtest.h"
#include "range.h"
#include "run_ctx.h"

// Run test t over r[0..n) (sorted, disjoint) as part of the pass
// run->status names, seeding its random patterns with run->pass_seed;
// own_memory marks the ranges ramsift itself just left. Called on the BSP
// with the APs idle; returns when every CPU is done. Prints the test's
// start, progress and end lines (one of each per test, whatever the CPUs);
// failing words go to errors.h with the CPU that read them.
void job_run(const struct run_ctx *run, const struct mt_test *t, const struct range *r, size_t n,
	     bool own_memory);

// The sweeps per byte a job of t reports as progress: its shared sweeps
// when it runs on several CPUs.
uint32_t job_sweeps(const struct mt_test *t);

// Wait until until_ms for bits to fade (a retention window's wait, with no
// job running): prints bit-fade's waiting line, looks at the keys and
// ticks the status screen. Returns false when a key stopped the run (a
// key that skips ends the wait early and returns true).
bool job_wait_until(const struct run_ctx *run, uint64_t until_ms);

#endif
