// SPDX-License-Identifier: GPL-2.0-or-later
// The decisions src/pass.c makes around a pass's steps (lib/run/schedule.h):
// which of its tests sweep and whether it has the retention test, how
// many homes ramsift uses, where it moves when its home holds a failing
// page, which parts a step misses because ramsift is in them, and how many
// bytes the pass tested in the end. Pure: pass.c moves, tests and logs.
#ifndef RAMSIFT_LIB_RUN_PASS_PLAN_H
#define RAMSIFT_LIB_RUN_PASS_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "badram/badram.h"
#include "boot/cmdline.h"
#include "memtest/memtest.h"
#include "run/ram.h"
#include "run/schedule.h"

// A pass: its tests, its parts and, as its steps run, where ramsift is.
struct pass_plan {
	const struct mt_test *sweeps[CMDLINE_MAX_TESTS];	// all but the retention test
	size_t nsweeps;
	bool retention;		// bit-fade is selected and bitfade= is above 0
	struct sched_parts parts;
	unsigned occupied;	// the part ramsift is in (SCHED_BIT)
	unsigned stepped;	// parts a step tested
	unsigned missed;	// parts that missed a step: not tested this pass
};

// The pass's tests (plan_tests) into p: the retention test's windows are
// the schedule's, the others sweep.
void pass_plan_tests(struct pass_plan *p, const struct config *cfg);

// How many of the found homes (sched_homes: 0 to 2) the pass uses: two
// only for the retention test, whose parts each need two windows with
// ramsift away; to sweep, one move is enough.
unsigned pass_plan_homes(const struct pass_plan *p, unsigned found);

// A pass begins: ramsift is in SCHED_OLD, and no step has run.
void pass_plan_begin(struct pass_plan *p);

// The parts of mask a step may test: those ramsift is not in. The others
// are recorded as missed.
unsigned pass_plan_free_parts(struct pass_plan *p, unsigned mask);

// Where ramsift moves to before part to is tested: its home in p->parts,
// unless a page of it failed (in bad). Then, without the retention test
// (every part but ramsift's is tested by now), the highest block of bytes
// of ram's free RAM below limit that did not fail (plan_block); with it,
// nowhere. 0 for nowhere.
uint64_t pass_plan_move(const struct pass_plan *p, enum sched_part to, const struct ram *ram,
			uint64_t bytes, uint64_t limit, const struct badram_table *bad);

// The bytes the pass tested: of the parts that a step tested and that
// missed none (ramsift's place, which no step names when it has no home
// to move to, is not among them).
uint64_t pass_plan_tested(const struct pass_plan *p);

#endif
