// SPDX-License-Identifier: GPL-2.0-or-later
// A pass's decisions around its steps (see pass_plan.h).
#include "page.h"
#include "run/pass_plan.h"
#include "run/plan.h"

void pass_plan_tests(struct pass_plan *p, const struct config *cfg)
{
	const struct mt_test *tests[CMDLINE_MAX_TESTS];
	size_t ntests = plan_tests(cfg, tests, CMDLINE_MAX_TESTS);

	p->nsweeps = 0;
	p->retention = false;
	for (size_t i = 0; i < ntests; i++) {
		if (tests[i]->retention)
			p->retention = cfg->bitfade_s > 0;
		else
			p->sweeps[p->nsweeps++] = tests[i];
	}
}

unsigned pass_plan_homes(const struct pass_plan *p, unsigned found)
{
	return !p->retention && found > 1 ? 1 : found;
}

void pass_plan_begin(struct pass_plan *p)
{
	p->occupied = SCHED_BIT(SCHED_OLD);
	p->stepped = 0;
	p->missed = 0;
}

unsigned pass_plan_free_parts(struct pass_plan *p, unsigned mask)
{
	p->missed |= mask & p->occupied;
	p->stepped |= mask & ~p->occupied;
	return mask & ~p->occupied;
}

// Whether a page of r failed.
static bool has_failed(const struct badram_table *bad, const struct range *r)
{
	for (uint64_t page = r->start; page < r->end; page += PAGE_SIZE)
		if (badram_table_has(bad, page))
			return true;
	return false;
}

uint64_t pass_plan_move(const struct pass_plan *p, enum sched_part to, const struct ram *ram,
			uint64_t bytes, uint64_t limit, const struct badram_table *bad)
{
	const struct range *home = p->parts.part[to];

	if (p->parts.n[to] == 0)
		return 0;
	if (!has_failed(bad, home))
		return home->start;
	return p->retention ? 0 : plan_block(ram, bytes, PLAN_MOVE_MIN_ADDR, limit, bad);
}

uint64_t pass_plan_tested(const struct pass_plan *p)
{
	return sched_bytes(&p->parts, p->stepped & ~p->missed);
}
