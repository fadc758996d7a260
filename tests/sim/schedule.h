// SPDX-License-Identifier: GPL-2.0-or-later
// The default pass as the image runs it (lib/run/schedule.h) over the
// simulated memory cut into parts, with ramsift's writes to the part it
// sits in, for the coverage simulator.
#ifndef RAMSIFT_TESTS_SIM_SCHEDULE_H
#define RAMSIFT_TESTS_SIM_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>

#include "faults.h"

// Run the default pass's steps (two homes) once per fault of
// faults[c][0..nfaults[c]) and once per retention fault placed in each part,
// with bitfade_s seconds a window, over nwords words at base; print the
// coverage per class and per part. Returns 1 (with a FAIL line) when a class
// or a part falls short of 100 %, when the fault-free run reports an error,
// or when a part is not tested; else 0.
int schedule_coverage(uint64_t base, size_t nwords, uint64_t seed, uint32_t bitfade_s,
		      const struct sim_fault (*faults)[FAULTS_MAX_PER_CLASS], const size_t *nfaults);

#endif
