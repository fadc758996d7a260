// SPDX-License-Identifier: GPL-2.0-or-later
// The order of one pass (see schedule.h).
#include "run/plan.h"
#include "run/schedule.h"

#define M SCHED_BIT(SCHED_MAIN)
#define O SCHED_BIT(SCHED_OLD)
#define N SCHED_BIT(SCHED_NEXT)
#define L SCHED_BIT(SCHED_LAST)
#define T SCHED_BIT(SCHED_TRAMP)

#define SWEEP(p) { SCHED_SWEEP, (p), false, SCHED_MAIN }
#define FILL(p, ones) { SCHED_FILL, (p), (ones), SCHED_MAIN }
#define WAIT { SCHED_WAIT, 0, false, SCHED_MAIN }
#define CHECK(p, ones) { SCHED_CHECK, (p), (ones), SCHED_MAIN }
#define MOVE(to) { SCHED_MOVE, 0, false, (to) }

// Three windows. Ramsift sits in OLD during the first, in NEXT during the
// second, in LAST during the third; each part fades in the two it is free
// for, and MAIN takes the other tests in the third:
//	        window 1   window 2   window 3
//	MAIN    zeros      ones       swept
//	OLD     ramsift    zeros      ones     (swept after the first move)
//	NEXT    zeros      ramsift    ones     (swept before the first window)
//	LAST    zeros      ones       ramsift  (swept before the first window)
// TRAMP fades in the first two: each move rewrites it.
static const struct sched_step two_homes[] = {
	SWEEP(N | L | T),
	FILL(M | N | L | T, false), WAIT, CHECK(M | N | L | T, false),
	MOVE(SCHED_NEXT),
	SWEEP(O),
	FILL(O, false), FILL(M | L | T, true), WAIT, CHECK(O, false), CHECK(M | L | T, true),
	MOVE(SCHED_LAST),
	FILL(O | N, true), SWEEP(M), WAIT, CHECK(O | N, true),
};

// With one home, the old place fades after the rest: four windows.
static const struct sched_step one_home[] = {
	SWEEP(M | N | T),
	FILL(M | N | T, false), WAIT, CHECK(M | N | T, false),
	FILL(M | N | T, true), WAIT, CHECK(M | N | T, true),
	MOVE(SCHED_NEXT),
	SWEEP(O),
	FILL(O, false), WAIT, CHECK(O, false),
	FILL(O, true), WAIT, CHECK(O, true),
};

static const struct sched_step no_home[] = {
	SWEEP(M), SWEEP(T),
	FILL(M | T, false), WAIT, CHECK(M | T, false),
	FILL(M | T, true), WAIT, CHECK(M | T, true),
};

// Without the retention test, as the log has always shown it: the free RAM,
// then ramsift's old place with the start-up code (own memory).
static const struct sched_step sweeps_home[] = {
	SWEEP(M | N), MOVE(SCHED_NEXT), SWEEP(O | T),
};

static const struct sched_step sweeps_only[] = {
	SWEEP(M), SWEEP(T),
};

#define STEPS(a) (*n = sizeof(a) / sizeof(a[0]), a)

const struct sched_step *sched_steps(bool retention, unsigned homes, size_t *n)
{
	if (!retention)
		return homes ? STEPS(sweeps_home) : STEPS(sweeps_only);
	if (homes >= 2)
		return STEPS(two_homes);
	return homes ? STEPS(one_home) : STEPS(no_home);
}

unsigned sched_homes(const struct ram *ram, uint64_t bytes, uint64_t min, uint64_t max,
		     const struct badram_table *bad, uint64_t home[2])
{
	home[0] = plan_block(ram, bytes, min, max, bad);
	if (home[0] == 0)
		return 0;
	home[1] = plan_block(ram, bytes, min, home[0], bad);
	return home[1] ? 2 : 1;
}

void sched_cut(struct sched_parts *p, const struct sched_memory *m)
{
	static const enum sched_part homes[2] = { SCHED_NEXT, SCHED_LAST };

	*p = (struct sched_parts){ .nmain = m->nfree < SCHED_MAIN_MAX ? m->nfree : SCHED_MAIN_MAX };
	for (size_t i = 0; i < p->nmain; i++)
		p->main[i] = m->free[i];
	for (unsigned h = 0; h < m->nhomes && h < 2; h++) {
		struct range r = { m->home[h], m->home[h] + m->bytes };
		p->nmain = range_subtract(p->main, p->nmain, SCHED_MAIN_MAX, r);
		p->part[homes[h]][0] = r;
		p->n[homes[h]] = 1;
	}
	for (size_t i = 0; i < m->nold && i < SCHED_PART_MAX; i++)
		p->part[SCHED_OLD][p->n[SCHED_OLD]++] = m->old[i];
	if (m->tramp.start < m->tramp.end) {
		p->part[SCHED_TRAMP][0] = m->tramp;
		p->n[SCHED_TRAMP] = 1;
	}
}

// The ranges of part i.
static const struct range *part_ranges(const struct sched_parts *p, unsigned i, size_t *n)
{
	if (i == SCHED_MAIN) {
		*n = p->nmain;
		return p->main;
	}
	*n = p->n[i];
	return p->part[i];
}

size_t sched_ranges(const struct sched_parts *p, unsigned mask, struct range *out, size_t cap)
{
	size_t next[SCHED_NPARTS] = { 0 };
	size_t k = 0;

	// Merge the parts' sorted lists: each step takes the lowest head.
	while (k < cap) {
		const struct range *low = NULL;
		unsigned from = 0;

		for (unsigned i = 0; i < SCHED_NPARTS; i++) {
			size_t n;
			const struct range *r = part_ranges(p, i, &n);

			if ((mask & SCHED_BIT(i)) && next[i] < n &&
			    (!low || r[next[i]].start < low->start)) {
				low = &r[next[i]];
				from = i;
			}
		}
		if (!low)
			break;
		out[k++] = *low;
		next[from]++;
	}
	return k;
}

uint64_t sched_bytes(const struct sched_parts *p, unsigned mask)
{
	uint64_t bytes = 0;

	for (unsigned i = 0; i < SCHED_NPARTS; i++) {
		size_t n;
		const struct range *r = part_ranges(p, i, &n);

		if (mask & SCHED_BIT(i))
			bytes += range_total(r, n);
	}
	return bytes;
}

const char *sched_part_name(enum sched_part p)
{
	static const char *const names[SCHED_NPARTS] = {
		[SCHED_MAIN] = "free RAM", [SCHED_OLD] = "the place ramsift left",
		[SCHED_NEXT] = "ramsift's home mid-pass", [SCHED_LAST] = "ramsift's next home",
		[SCHED_TRAMP] = "the AP start-up code",
	};
	return p < SCHED_NPARTS ? names[p] : "?";
}

void sched_work(struct sched_clock *c, const struct sched_parts *p, const uint32_t *sweeps,
		size_t ntests)
{
	uint64_t per_byte = 0;

	for (size_t i = 0; i < ntests; i++)
		per_byte += sweeps[i];
	for (size_t k = 0; k < c->nsteps && k < SCHED_MAX_STEPS; k++) {
		const struct sched_step *s = &c->steps[k];
		uint64_t bytes = sched_bytes(p, s->parts);

		c->work[k] = s->op == SCHED_SWEEP ? per_byte * bytes :
			     s->op == SCHED_FILL || s->op == SCHED_CHECK ? bytes : 0;
	}
}

// ms for work at the rate done per busy ms (a 128-bit product: no
// overflow).
static uint64_t at_rate(const struct sched_clock *c, uint64_t work)
{
	unsigned __int128 t = (unsigned __int128)work * c->busy_ms / c->done;

	return t > UINT64_MAX / 4 ? UINT64_MAX / 4 : (uint64_t)t;
}

bool sched_left_ms(const struct sched_clock *c, uint64_t now_ms, uint64_t *left_ms)
{
	uint64_t t = now_ms, fill_end = c->fill_end_ms, total = 0;

	for (size_t k = 0; k < c->nsteps && k < SCHED_MAX_STEPS; k++)
		total += c->work[k];
	// Before a hundredth of the work, or a tenth of a second of it (1 %
	// of a ms clock), the rate says nothing. A fast machine gets no more:
	// its waits, exact, are then nearly all of the pass.
	if (c->done == 0 || c->done < total / 100 || c->busy_ms < SCHED_RATE_MIN_MS)
		return false;
	for (size_t k = c->step; k < c->nsteps && k < SCHED_MAX_STEPS; k++) {
		uint64_t work = c->work[k];

		if (k == c->step)
			work = work > c->step_done ? work - c->step_done : 0;
		if (c->steps[k].op == SCHED_WAIT && t < fill_end + c->wait_ms)
			t = fill_end + c->wait_ms;
		t += at_rate(c, work);
		if (c->steps[k].op == SCHED_FILL)
			fill_end = t;
	}
	*left_ms = t - now_ms;
	return true;
}
