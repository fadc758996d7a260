// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/run/job_plan.c: who runs a job and over which share.
// A test that is not parallel, or one CPU online, runs on CPU 0 over the
// job's own ranges; a parallel one is split among the CPUs online (offline
// numbers skipped), each share's place in address order rotating by one a
// pass, and whatever the case the shares are exactly the job's ranges.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "run/job_plan.h"

#include "const.h"

#define NO_PLACE 99	// the case does not say which place a CPU has

static const struct range one_gib[] = { { 1 * GiB, 2 * GiB } };
static const struct range two_mib[] = { { 2 * MiB, 4 * MiB } };
static const struct range gap[] = { { 1 * MiB, 640 * MiB }, { 1 * GiB, 2 * GiB } };

static const struct {
	const char *what;
	bool parallel;
	const char *online;		// by CPU number, '1' online
	uint32_t pass;
	const struct range *r;
	size_t n;
	size_t nids;
	unsigned ids[4];
	unsigned place[4];		// of ids[i]'s share
} cases[] = {
	{ "not parallel, 4 CPUs", false, "1111", 1, one_gib, 1, 1, { 0 }, { 0 } },
	{ "parallel, 1 CPU", true, "1", 1, one_gib, 1, 1, { 0 }, { 0 } },
	{ "parallel, CPU 1 offline", true, "10", 1, one_gib, 1, 1, { 0 }, { 0 } },
	{ "parallel, 4 CPUs, pass 1", true, "1111", 1, one_gib, 1, 4, { 0, 1, 2, 3 },
	  { 0, 1, 2, 3 } },
	{ "parallel, 4 CPUs, pass 2", true, "1111", 2, one_gib, 1, 4, { 0, 1, 2, 3 },
	  { 1, 2, 3, 0 } },
	{ "parallel, 4 CPUs, pass 5", true, "1111", 5, one_gib, 1, 4, { 0, 1, 2, 3 },
	  { 0, 1, 2, 3 } },
	{ "parallel, CPU 2 offline, pass 1", true, "1101", 1, one_gib, 1, 3, { 0, 1, 3 },
	  { 0, 1, 2 } },
	{ "parallel, CPU 2 offline, pass 3", true, "1101", 3, one_gib, 1, 3, { 0, 1, 3 },
	  { 2, 0, 1 } },
	{ "parallel, 3 CPUs, two ranges", true, "111", 1, gap, 2, 3, { 0, 1, 2 }, { 0, 1, 2 } },
	// One 2 MiB block cannot be cut on the 2 MiB grid: one CPU has it all.
	{ "parallel, 4 CPUs, 2 MiB", true, "1111", 1, two_mib, 1, 1, { NO_PLACE }, { 0 } },
};

static struct range scratch[8];
static struct job_plan plan;

// The shares of p's CPUs, taken in address order, are exactly r[0..n):
// sorted, disjoint, inside r and as many bytes; their places are 0, 1, ...
// in that order.
static void check_shares(const char *what, const struct job_plan *p, const struct range *r,
			 size_t n)
{
	uint64_t bytes = 0, last_end = 0;

	for (unsigned place = 0; place < p->nids; place++) {
		size_t i = 0;
		while (i < p->nids && job_plan_place(p, p->ids[i]) != place)
			i++;
		if (i == p->nids)
			fail_msg("%s: no CPU has place %u of %zu", what, place, p->nids);
		const struct plan_share *sh = &p->share[p->ids[i]];
		if (sh->n == 0)
			fail_msg("%s: CPU %u runs an empty share", what, p->ids[i]);
		for (size_t k = sh->first; k < sh->first + sh->n; k++) {
			const struct range *s = &p->ranges[k];
			size_t j = 0;
			while (j < n && !(s->start >= r[j].start && s->end <= r[j].end))
				j++;
			if (s->start >= s->end || s->start < last_end || j == n)
				fail_msg("%s: CPU %u's range 0x%llx-0x%llx is out of order or outside "
					 "the job's", what, p->ids[i], (unsigned long long)s->start,
					 (unsigned long long)s->end);
			last_end = s->end;
			bytes += s->end - s->start;
		}
	}
	if (bytes != range_total(r, n))
		fail_msg("%s: the shares hold %llu bytes, want %llu", what, (unsigned long long)bytes,
			 (unsigned long long)range_total(r, n));
}

static void test_cases(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		bool online[MAX_CPUS] = { false };
		size_t ncpus = 0, nonline = 0;
		for (; cases[c].online[ncpus]; ncpus++)
			nonline += online[ncpus] = cases[c].online[ncpus] == '1';
		struct job_plan_in in = {
			.parallel = cases[c].parallel, .r = cases[c].r, .n = cases[c].n,
			.pass = cases[c].pass, .online = online, .ncpus = ncpus, .scratch = scratch,
			.cap = sizeof(scratch) / sizeof(scratch[0]),
		};

		job_plan(&plan, &in);
		if (plan.nids != cases[c].nids)
			fail_msg("%s: %zu CPUs run it, want %zu", cases[c].what, plan.nids, cases[c].nids);
		for (size_t i = 0; i < plan.nids; i++) {
			unsigned place = job_plan_place(&plan, plan.ids[i]);
			if (cases[c].ids[i] != NO_PLACE && plan.ids[i] != cases[c].ids[i])
				fail_msg("%s: CPU %zu of the job is %u, want %u", cases[c].what, i,
					 plan.ids[i], cases[c].ids[i]);
			if (cases[c].ids[i] != NO_PLACE && place != cases[c].place[i])
				fail_msg("%s: CPU %u's share is at place %u, want %u", cases[c].what,
					 plan.ids[i], place, cases[c].place[i]);
		}
		check_shares(cases[c].what, &plan, cases[c].r, cases[c].n);
		if ((!cases[c].parallel || nonline == 1) &&
		    (plan.ids[0] != 0 || plan.ranges != cases[c].r))
			fail_msg("%s: CPU %u runs a copy of the ranges, want CPU 0 the job's own",
				 cases[c].what, plan.ids[0]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
