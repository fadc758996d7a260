// SPDX-License-Identifier: GPL-2.0-or-later
// Who runs one job (a test over a list of ranges) and over which share: a
// parallel test is split among the CPUs online (plan_shares: on the 2 MiB
// grid, rotated each pass) and run by those whose share is not empty; any
// other test, or a machine with one CPU online, runs on CPU 0 (the BSP)
// alone over all the ranges. Pure: src/job.c posts the shares to the CPUs.
#ifndef RAMSIFT_LIB_RUN_JOB_PLAN_H
#define RAMSIFT_LIB_RUN_JOB_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capacity.h"
#include "range.h"
#include "run/plan.h"

// A job's CPUs and their shares.
struct job_plan {
	const struct range *ranges;		// the shares' ranges: the job's own, or split
	struct plan_share share[MAX_CPUS];	// by CPU number: of ranges; only ids[]' are set
	unsigned ids[MAX_CPUS];			// the CPUs that run it, in CPU-number order
	size_t nids;				// at least 1
};

// What a job is planned from.
struct job_plan_in {
	bool parallel;			// the test may run on several CPUs at once
	const struct range *r;		// the job's ranges, sorted and disjoint
	size_t n;
	uint32_t pass;			// 1, 2, ...: the shares rotate by pass - 1
	const bool *online;		// by CPU number, ncpus of them; online[0] is true
	size_t ncpus;			// at most MAX_CPUS
	struct range *scratch;		// room for the split ranges: n + ncpus - 1 of them
	size_t cap;
};

// Plan the job in into p.
void job_plan(struct job_plan *p, const struct job_plan_in *in);

// The place of CPU id's share among the job's shares in address order (0
// for the lowest): what a test that cuts its work by shares is told.
unsigned job_plan_place(const struct job_plan *p, unsigned id);

#endif
