// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/run/schedule.c: every table of steps gives every part
// it tests a sweep and a fade of each polarity, bitfade= seconds long, while
// ramsift is elsewhere (a symbolic run of the steps); the number of windows;
// the homes (disjoint, around failing pages, below a limit); the cut into
// parts; and the estimate of the time left, waits overlapped with sweeps.
// The simulator (tests/sim/schedule.c) runs the same steps over faulty
// memory.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>

#include "const.h"
#include "run/schedule.h"

#define ALL ((1u << SCHED_NPARTS) - 1)

// What a part went through in a symbolic run.
struct part_state {
	bool swept, faded[2];
	bool holding;		// filled and not yet checked
	bool pattern;
	unsigned fill_wait;	// waits seen when it was filled
};

// Run steps[0..n) symbolically; fail naming the step that breaks a rule.
// Returns the parts that got everything.
static unsigned run_symbolic(const struct sched_step *steps, size_t n)
{
	struct part_state p[SCHED_NPARTS] = { 0 };
	unsigned occupied = SCHED_BIT(SCHED_OLD), waits = 0, done = 0;

	for (size_t i = 0; i < n; i++) {
		const struct sched_step *s = &steps[i];

		if (s->parts & occupied)
			fail_msg("step %zu works on the part ramsift is in", i);
		for (unsigned k = 0; k < SCHED_NPARTS; k++) {
			if (!(s->parts & SCHED_BIT(k)))
				continue;
			if (s->op == SCHED_SWEEP) {
				if (p[k].holding)
					fail_msg("step %zu sweeps %s while it fades", i, sched_part_name(k));
				p[k].swept = true;
			} else if (s->op == SCHED_FILL) {
				if (p[k].holding)
					fail_msg("step %zu fills %s again", i, sched_part_name(k));
				p[k] = (struct part_state){ .swept = p[k].swept, .faded = { p[k].faded[0], p[k].faded[1] },
							    .holding = true, .pattern = s->ones, .fill_wait = waits };
			} else if (s->op == SCHED_CHECK) {
				if (!p[k].holding || p[k].pattern != s->ones)
					fail_msg("step %zu checks %s for a pattern it does not hold", i,
						 sched_part_name(k));
				if (waits == p[k].fill_wait)
					fail_msg("step %zu checks %s with no wait since its fill", i,
						 sched_part_name(k));
				p[k].holding = false;
				p[k].faded[s->ones] = true;
			}
		}
		if (s->op == SCHED_WAIT)
			waits++;
		if (s->op == SCHED_MOVE) {
			// The move writes the new home and the start-up code.
			unsigned hit = SCHED_BIT(s->to) | SCHED_BIT(SCHED_TRAMP);
			for (unsigned k = 0; k < SCHED_NPARTS; k++)
				if ((hit & SCHED_BIT(k)) && p[k].holding)
					fail_msg("step %zu moves over %s while it fades", i, sched_part_name(k));
			occupied = SCHED_BIT(s->to);
		}
	}
	for (unsigned k = 0; k < SCHED_NPARTS; k++)
		if (p[k].swept && p[k].faded[0] && p[k].faded[1] && !p[k].holding)
			done |= SCHED_BIT(k);
	return done;
}

static unsigned swept_parts(const struct sched_step *steps, size_t n)
{
	unsigned done = 0;
	for (size_t i = 0; i < n; i++)
		if (steps[i].op == SCHED_SWEEP)
			done |= steps[i].parts;
	return done;
}

static size_t count(const struct sched_step *steps, size_t n, enum sched_op op)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += steps[i].op == op;
	return k;
}

static void test_tables(void **state)
{
	size_t n;
	const struct sched_step *s;
	(void)state;

	s = sched_steps(true, 2, &n);
	assert_int_equal(run_symbolic(s, n), ALL);
	assert_int_equal(count(s, n, SCHED_WAIT), 3);
	assert_int_equal(count(s, n, SCHED_MOVE), 2);
	assert_true(n <= SCHED_MAX_STEPS);

	s = sched_steps(true, 1, &n);
	assert_int_equal(run_symbolic(s, n), ALL & ~SCHED_BIT(SCHED_LAST));
	assert_int_equal(count(s, n, SCHED_WAIT), 4);

	s = sched_steps(true, 0, &n);
	assert_int_equal(run_symbolic(s, n), SCHED_BIT(SCHED_MAIN) | SCHED_BIT(SCHED_TRAMP));
	assert_int_equal(count(s, n, SCHED_WAIT), 2);

	s = sched_steps(false, 1, &n);
	run_symbolic(s, n);
	assert_int_equal(swept_parts(s, n), ALL & ~SCHED_BIT(SCHED_LAST));
	assert_int_equal(count(s, n, SCHED_WAIT), 0);
	s = sched_steps(false, 0, &n);
	assert_int_equal(swept_parts(s, n), SCHED_BIT(SCHED_MAIN) | SCHED_BIT(SCHED_TRAMP));
}

static struct ram ram;
static uint64_t slots[1024];
static struct badram_table bad;

static void ram_of(const struct range *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ram.usable[i] = r[i];
	ram.nusable = n;
	ram_release_all(&ram);
	badram_table_init(&bad, slots, 1024);
}

static void test_homes(void **state)
{
	static const struct range r[] = { { 0, 640 * KiB }, { 1 * MiB, 64 * MiB } };
	uint64_t home[2];
	(void)state;

	ram_of(r, 2);
	assert_int_equal(sched_homes(&ram, 8 * MiB, 1 * MiB, ~0ull, &bad, home), 2);
	assert_int_equal(home[0], 56 * MiB);
	assert_int_equal(home[1], 48 * MiB);
	// A failing page in the second: it slides below it.
	badram_table_add(&bad, 50 * MiB);
	assert_int_equal(sched_homes(&ram, 8 * MiB, 1 * MiB, ~0ull, &bad, home), 2);
	assert_int_equal(home[1], 50 * MiB - 8 * MiB);
	// Below a limit (the USB controllers' 4 GiB, here 20 MiB).
	assert_int_equal(sched_homes(&ram, 8 * MiB, 1 * MiB, 20 * MiB, &bad, home), 2);
	assert_int_equal(home[0], 12 * MiB);
	assert_int_equal(home[1], 4 * MiB);
	// Room for one, then none.
	assert_int_equal(sched_homes(&ram, 30 * MiB, 1 * MiB, ~0ull, &bad, home), 1);
	assert_int_equal(home[0], 50 * MiB - 30 * MiB);	// below the failing page
	assert_int_equal(sched_homes(&ram, 70 * MiB, 1 * MiB, ~0ull, &bad, home), 0);
}

static void test_cut(void **state)
{
	static const struct range free[] = { { 4 * KiB, 600 * KiB }, { 1 * MiB, 10 * MiB },
					     { 20 * MiB, 64 * MiB } };
	static const struct range old[] = { { 10 * MiB, 12 * MiB }, { 18 * MiB, 20 * MiB } };
	const uint64_t home[2] = { 60 * MiB, 56 * MiB };
	static struct sched_parts p;
	struct range r[16];
	(void)state;

	sched_cut(&p, &(struct sched_memory){ .free = free, .nfree = 3, .home = home, .nhomes = 2,
					      .bytes = 4 * MiB, .old = old, .nold = 2,
					      .tramp = { 600 * KiB, 608 * KiB } });
	assert_int_equal(sched_bytes(&p, SCHED_BIT(SCHED_MAIN)),
			 (596 + 9 * 1024 + 44 * 1024 - 8 * 1024) * KiB);
	assert_int_equal(sched_bytes(&p, ALL), (596 + 9 * 1024 + 44 * 1024 + 4 * 1024 + 8) * KiB);
	// MAIN|NEXT|LAST: the free RAM again, in order, homes and all.
	size_t n = sched_ranges(&p, SCHED_BIT(SCHED_MAIN) | SCHED_BIT(SCHED_NEXT) |
				    SCHED_BIT(SCHED_LAST), r, 16);
	assert_int_equal(n, 5);
	assert_int_equal(r[0].start, 4 * KiB);
	assert_int_equal(r[2].start, 20 * MiB);
	assert_int_equal(r[2].end, 56 * MiB);
	assert_int_equal(r[3].start, 56 * MiB);
	assert_int_equal(r[4].start, 60 * MiB);
	assert_int_equal(r[4].end, 64 * MiB);
	for (size_t i = 1; i < n; i++)
		assert_true(r[i - 1].end <= r[i].start);
	// OLD|TRAMP sorted across the parts; a short buffer cuts the list.
	n = sched_ranges(&p, SCHED_BIT(SCHED_OLD) | SCHED_BIT(SCHED_TRAMP), r, 16);
	assert_int_equal(n, 3);
	assert_int_equal(r[0].start, 600 * KiB);
	assert_int_equal(r[1].start, 10 * MiB);
	assert_int_equal(sched_ranges(&p, ALL, r, 2), 2);
}

// The clock of a pass of three windows of wait_ms: free RAM from 1 MiB to
// top, ramsift's bytes at 200 MiB, its homes the two blocks just below top,
// one test of sweeps sweeps a byte.
static struct sched_clock three_windows(struct sched_parts *p, uint64_t top, uint64_t bytes,
					uint32_t sweeps, uint64_t wait_ms)
{
	const struct range free[] = { { 1 * MiB, top } };
	const struct range old[] = { { 200 * MiB, 200 * MiB + bytes } };
	const uint64_t home[2] = { top - bytes, top - 2 * bytes };
	struct sched_clock c = { .wait_ms = wait_ms };

	c.steps = sched_steps(true, 2, &c.nsteps);
	sched_cut(p, &(struct sched_memory){ .free = free, .nfree = 1, .home = home, .nhomes = 2,
					     .bytes = bytes, .old = old, .nold = 1 });
	sched_work(&c, p, &sweeps, 1);
	return c;
}

// The estimate: a pass of 3 windows of 60 s, 1 unit of work per ms.
static void test_left(void **state)
{
	static struct sched_parts p;
	struct sched_clock c = three_windows(&p, 101 * MiB, 1 * MiB, 10, 60000);
	uint64_t left;
	(void)state;

	assert_int_equal(c.work[0], 10 * 2 * MiB);	// the homes' sweep
	uint64_t total = 0;
	for (size_t k = 0; k < c.nsteps; k++)
		total += c.work[k];

	// Nothing timed yet: unknown.
	assert_false(sched_left_ms(&c, 0, &left));
	// Through the first sweep at 1 byte/ms: then the work and 3 waits, the
	// third overlapped by MAIN's sweep (970 MB of work > 60 s: it decides).
	c.step = 1;
	c.done = c.work[0];
	c.busy_ms = c.work[0];
	assert_true(sched_left_ms(&c, c.busy_ms, &left));
	uint64_t main_sweep = 10 * 98 * MiB, w3_fill = 2 * MiB, w3_check = 2 * MiB;
	uint64_t before_w3 = total - c.work[0] - main_sweep - w3_fill - w3_check;
	assert_int_equal(left, before_w3 + 2 * 60000 + w3_fill + main_sweep + w3_check);

	// In the second window's wait, 10 s after its fills ended.
	c.step = 8;
	assert_int_equal(c.steps[c.step].op, SCHED_WAIT);
	c.fill_end_ms = 1000000;
	assert_true(sched_left_ms(&c, c.fill_end_ms + 10000, &left));
	uint64_t after = 0;
	for (size_t k = 9; k < c.nsteps; k++)
		after += c.work[k];
	assert_int_equal(left, 50000 + after);

	// A fast machine, 1 MB/ms: MAIN's sweep (step 13, 1 s) fits in the
	// third wait (14), which then decides.
	c.done = 1000000ull * 20000;
	c.busy_ms = 20000;
	assert_int_equal(c.steps[13].op, SCHED_SWEEP);
	assert_true(sched_left_ms(&c, c.fill_end_ms + 10000, &left));
	assert_int_equal(left, 50000 + c.work[9] / 1000000 + c.work[10] / 1000000 +
				       c.work[12] / 1000000 + 60000 + c.work[15] / 1000000);
}

// A machine that sweeps all of its memory in well under a second still
// gets an estimate once a tenth of a second of work is timed: the waits.
static void test_left_fast(void **state)
{
	static struct sched_parts p;
	struct sched_clock c = three_windows(&p, 129 * MiB, 6 * MiB, 28, 20000);
	uint64_t left;
	(void)state;

	// The homes' sweep took 90 ms: too little to time.
	c.step = 1;
	c.done = c.work[0];
	c.busy_ms = 90;
	assert_false(sched_left_ms(&c, 100, &left));
	// With the first fill, 110 ms: three windows and about 0.4 s of work.
	c.step = 2;
	c.done += c.work[1];
	c.busy_ms = 110;
	c.fill_end_ms = 120;
	assert_true(sched_left_ms(&c, 120, &left));
	assert_in_range(left, 3 * 20000, 3 * 20000 + 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_homes),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_left),
		cmocka_unit_test(test_left_fast),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
