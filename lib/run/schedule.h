// SPDX-License-Identifier: GPL-2.0-or-later
// The order of one pass: which memory gets which test when, and where
// ramsift sits meanwhile, so that every usable byte gets every test of the
// pass, the retention test included, while ramsift keeps running from
// memory that is not under test. Pure: src/pass.c and the simulator
// (tests/sim/schedule.c) both walk the same steps.
//
// The pass's memory is cut into parts. ramsift moves twice a pass, so that
// each part holds a retention pattern for two windows of bitfade= seconds
// while ramsift is elsewhere, and the pass takes three windows in all, the
// fewest any order can take (docs/memory-tests.md, "How a pass covers every
// byte"). The other tests sweep the main part during the third window.
#ifndef RAMSIFT_LIB_RUN_SCHEDULE_H
#define RAMSIFT_LIB_RUN_SCHEDULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "badram/badram.h"
#include "capacity.h"
#include "range.h"
#include "run/ram.h"

enum sched_part {
	SCHED_MAIN,	// the free RAM but the two homes below
	SCHED_OLD,	// where ramsift is when the pass starts
	SCHED_NEXT,	// ramsift's home in the middle of the pass
	SCHED_LAST,	// its home at the end: the next pass's OLD
	SCHED_TRAMP,	// the AP start-up code's pages, rewritten by every move
	SCHED_NPARTS
};
#define SCHED_BIT(p) (1u << (p))

enum sched_op {
	SCHED_SWEEP,	// the pass's tests but the retention test, over parts
	SCHED_FILL,	// parts take the retention pattern (ones or zeros)
	SCHED_WAIT,	// until bitfade= seconds after the last fill ended
	SCHED_CHECK,	// parts are read back against the pattern
	SCHED_MOVE,	// ramsift moves into part to
};

struct sched_step {
	enum sched_op op;
	unsigned parts;		// SCHED_BIT()s
	bool ones;		// FILL, CHECK: the pattern
	enum sched_part to;	// MOVE
};

// The steps of a pass: retention, whether the pass has the retention test
// (bit-fade with bitfade= above 0); homes, how many blocks the size of
// ramsift were found for it to move to (0, 1 or 2: sched_homes). With two,
// three windows; with one, four (the old place's two come after the
// rest's); with none, ramsift's place is left untested. Sets *n.
const struct sched_step *sched_steps(bool retention, unsigned homes, size_t *n);

// Up to two homes of bytes each (a page multiple) in the free RAM of ram,
// within [min, max), disjoint, containing no page of bad: the highest
// block, then the highest below it (plan_block). Writes them to home[0]
// (NEXT) and home[1] (LAST); returns how many were found.
unsigned sched_homes(const struct ram *ram, uint64_t bytes, uint64_t min, uint64_t max,
		     const struct badram_table *bad, uint64_t home[2]);

// The ranges of each part: MAIN is the free RAM minus the homes.
#define SCHED_MAIN_MAX (RAM_RANGES_MAX + 2)
#define SCHED_PART_MAX 3
struct sched_parts {
	struct range main[SCHED_MAIN_MAX];
	size_t nmain;
	struct range part[SCHED_NPARTS][SCHED_PART_MAX];	// the others (not MAIN)
	size_t n[SCHED_NPARTS];
};

// Where the pass's memory is, to be cut into parts.
struct sched_memory {
	const struct range *free;	// the free RAM, sorted and disjoint
	size_t nfree;
	const uint64_t *home;		// ramsift's homes (sched_homes): NEXT, LAST
	unsigned nhomes;
	uint64_t bytes;			// ramsift's size, each home's
	const struct range *old;	// where ramsift is (at most SCHED_PART_MAX)
	size_t nold;
	struct range tramp;		// the AP start-up code's pages, or empty
};

// Cut the pass's memory m into parts: the free RAM minus the homes is
// MAIN, the homes NEXT and LAST, old OLD, and tramp, when not empty, TRAMP.
void sched_cut(struct sched_parts *p, const struct sched_memory *m);

// The ranges of the parts in mask, sorted and disjoint, into out[0..cap);
// returns how many (at most cap: the rest are left out, which
// SCHED_MAIN_MAX + 4 * SCHED_PART_MAX never needs).
size_t sched_ranges(const struct sched_parts *p, unsigned mask, struct range *out, size_t cap);

// The bytes of the parts in mask.
uint64_t sched_bytes(const struct sched_parts *p, unsigned mask);

// ---- the time a pass takes --------------------------------------------

// Most steps a pass has.
#define SCHED_MAX_STEPS 24

// Where a pass is, for the estimate of the time it has left. Work is in the
// units the jobs report progress in: bytes swept.
struct sched_clock {
	const struct sched_step *steps;
	size_t nsteps;
	uint64_t work[SCHED_MAX_STEPS];	// each step's, sched_work()
	uint64_t wait_ms;		// bitfade= in ms
	size_t step;			// the step running
	uint64_t step_done;		// its work done
	uint64_t fill_end_ms;		// when the window's last fill ended
	uint64_t done;			// the pass's work done
	uint64_t busy_ms;		// time spent on it, waits not counted
};

// Fill c->work for steps[0..n) over parts p: a SWEEP the sum of sweeps[]
// (each test's sweeps per byte, ntests of them) times its parts' bytes, a
// FILL or a CHECK its parts' bytes once, a WAIT or a MOVE none.
void sched_work(struct sched_clock *c, const struct sched_parts *p, const uint32_t *sweeps,
		size_t ntests);

// The time the pass has left at now_ms: the work left at the rate so far
// (c->done in c->busy_ms), each WAIT until wait_ms after the fill before
// it. False before a hundredth of the work or SCHED_RATE_MIN_MS of working
// is done (the rate is not known).
#define SCHED_RATE_MIN_MS 100

bool sched_left_ms(const struct sched_clock *c, uint64_t now_ms, uint64_t *left_ms);

// The name of part p as the log says it: "main", "old place", ...
const char *sched_part_name(enum sched_part p);

#endif
