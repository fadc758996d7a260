// SPDX-License-Identifier: GPL-2.0-or-later
// One test over one list of ranges (see job.h): the test's callbacks, which
// update this CPU's job in the run status and print the lines rendered from
// it.
#include "errors.h"
#include "job.h"
#include "keys.h"
#include "log.h"
#include "run.h"
#include "status_screen.h"
#include "x86/cpu.h"
#include "x86/timer.h"

#define PROGRESS_EVERY_MS 10000
#define SLEEP_SLICE_MS 100	// how often bit-fade's wait looks at the keys
#define LINE_LEN 256

// A key asked the job to end early (KEY_STOP or KEY_SKIP; KEY_NONE while
// none did). Set by the bootstrap processor, which reads the keys; every CPU
// running the job sees it at its next chunk.
static enum key_action job_ended_by;

// Read the keys (bootstrap processor only) and say whether the job must end.
static bool job_goes_on(void)
{
	if (this_cpu()->id == 0)
		status_screen_tick();
	if (this_cpu()->id == 0 && __atomic_load_n(&job_ended_by, __ATOMIC_RELAXED) == KEY_NONE) {
		enum key_action a = keys_poll();
		if (a == KEY_STOP)
			run_request_stop();
		if (a != KEY_NONE)
			__atomic_store_n(&job_ended_by, a, __ATOMIC_RELAXED);
	}
	return __atomic_load_n(&job_ended_by, __ATOMIC_RELAXED) == KEY_NONE;
}

static void on_error(void *ctx, uint64_t addr, uint64_t expected, uint64_t actual)
{
	const struct job_status *j = ctx;
	errors_record(addr, expected, actual, j->test, j->pass, this_cpu()->id);
}

static bool on_progress(void *ctx, uint64_t bytes)
{
	struct job_status *j = ctx;
	uint64_t now = timer_ms();
	char line[LINE_LEN];

	if (status_job_progress(j, bytes, now, PROGRESS_EVERY_MS)) {
		status_line_progress(line, sizeof(line), j, now);
		log_info("%s", line);
	}
	return job_goes_on();
}

static bool on_sleep(void *ctx, uint32_t seconds)
{
	const struct job_status *j = ctx;
	char line[LINE_LEN];

	status_line_fade(line, sizeof(line), j, seconds);
	log_info("%s", line);
	status_screen_waiting(seconds);
	for (uint64_t end = timer_ms() + (uint64_t)seconds * 1000; timer_ms() < end;) {
		if (!job_goes_on())
			return false;
		timer_delay_ms(SLEEP_SLICE_MS);
	}
	return job_goes_on();
}

void job_run(const struct mt_test *t, const struct range *r, size_t n, uint32_t pass,
	     const struct config *cfg, uint64_t seed, bool own_memory)
{
	struct cpu *c = this_cpu();
	struct job_status *j = &run_status()->job[c->id];
	struct mt_ctx ctx = {
		.ranges = r, .nranges = n, .error = on_error, .progress = on_progress,
		.sleep = on_sleep, .cb_ctx = j, .seed = seed, .bitfade_s = cfg->bitfade_s,
	};
	char line[LINE_LEN];

	__atomic_store_n(&job_ended_by, KEY_NONE, __ATOMIC_RELAXED);
	status_job_begin(j, t->name, pass, own_memory, range_total(r, n), n, t->sweeps, timer_ms(),
			 errors_total());
	status_line_job_start(line, sizeof(line), j);
	log_info("%s", line);
	c->test = t->name;
	t->run(&ctx, t->param);
	c->test = NULL;
	status_line_job_end(line, sizeof(line), j, timer_ms(), errors_total());
	j->test = NULL;
	log_info("%s", line);
	if (job_ended_by == KEY_STOP)
		log_info("test %s: stopped by a key; reporting what was found so far", t->name);
	else if (job_ended_by == KEY_SKIP)
		log_info("test %s: skipped by a key", t->name);
}
