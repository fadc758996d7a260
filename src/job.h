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

#endif
