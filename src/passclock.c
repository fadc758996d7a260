// SPDX-License-Identifier: GPL-2.0-or-later
// The clock of the pass running (see passclock.h).
#include "log.h"
#include "passclock.h"
#include "smp.h"

#define LEFT_EVERY_MS 10000

static struct {
	bool on;
	struct sched_clock c;
	const struct run_status *s;
	uint64_t start_ms, step_start_ms, waited_ms, step_jobs_done;
	uint64_t next_line_ms;
} pc;

void passclock_begin(const struct sched_clock *c, const struct run_status *s, uint64_t now)
{
	pc.on = true;
	pc.c = *c;
	pc.s = s;
	pc.start_ms = pc.step_start_ms = now;
	pc.waited_ms = pc.step_jobs_done = 0;
	pc.next_line_ms = now + LEFT_EVERY_MS;
}

static bool in_wait(void)
{
	return pc.c.step < pc.c.nsteps && pc.c.steps[pc.c.step].op == SCHED_WAIT;
}

void passclock_step(size_t i, uint64_t now)
{
	if (in_wait())
		pc.waited_ms += now - pc.step_start_ms;
	pc.c.done += pc.step_jobs_done;
	pc.step_jobs_done = 0;
	pc.c.step = i;
	pc.step_start_ms = now;
}

void passclock_job_end(uint64_t work)
{
	pc.step_jobs_done += work;
}

void passclock_filled(uint64_t now)
{
	pc.c.fill_end_ms = now;
}

bool passclock_left(uint64_t now, uint64_t *left_ms)
{
	struct sched_clock c = pc.c;
	uint64_t waited = pc.waited_ms + (in_wait() ? now - pc.step_start_ms : 0);
	uint64_t running = pc.s && pc.s->test.test ? status_jobs_done(pc.s->job, smp_cpus()) : 0;

	if (!pc.on)
		return false;
	c.step_done = pc.step_jobs_done + running;
	c.done += c.step_done;
	c.busy_ms = now - pc.start_ms > waited ? now - pc.start_ms - waited : 0;
	return sched_left_ms(&c, now, left_ms);
}

void passclock_tick(uint64_t now)
{
	uint64_t left;

	if (!pc.on || now < pc.next_line_ms)
		return;
	pc.next_line_ms = now + LEFT_EVERY_MS;
	if (passclock_left(now, &left))
		log_info("pass %u: left_s=%llu t=%llu", pc.s->pass, (unsigned long long)(left + 500) / 1000,
			 (unsigned long long)now / 1000);
}

void passclock_end(void)
{
	pc.on = false;
}
