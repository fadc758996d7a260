// SPDX-License-Identifier: GPL-2.0-or-later
// A job: one test over one list of ranges on this CPU. The job owns the
// callbacks' state through its entry in the run status (progress, timing),
// so that several CPUs can run jobs side by side.
#ifndef RAMSIFT_SRC_JOB_H
#define RAMSIFT_SRC_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "boot/cmdline.h"
#include "memtest/memtest.h"
#include "range.h"

// Run test t over r[0..n) as part of pass, seeding its random patterns with
// seed; own_memory marks the ranges ramsift itself just left. Prints the
// test's start, progress and end lines; failing words go to errors.h.
void job_run(const struct mt_test *t, const struct range *r, size_t n, uint32_t pass,
	     const struct config *cfg, uint64_t seed, bool own_memory);

#endif
