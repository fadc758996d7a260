// SPDX-License-Identifier: GPL-2.0-or-later
// One test over one list of ranges (see job.h). A test marked parallel runs
// on every CPU at once, each over its share of the ranges (lib/run/job_plan.h:
// cut on the 2 MiB grid, rotated each pass), the CPUs meeting at a barrier
// between the test's phases (src/smp.h); any other test, or a run with one
// CPU, runs on the BSP alone over all the ranges. Each CPU's callbacks
// update its own job in the run status; the test's lines are rendered from
// the test as a whole (the run status's test, its progress the sum of the
// CPUs' jobs) and printed by the BSP alone, so a test has one start line,
// one progress line every 10 s and one end line whatever the CPUs.
#include "errors.h"
#include "hammerhost.h"
#include "job.h"
#include "keypoll.h"
#include "log.h"
#include "machcheck.h"
#include "passclock.h"
#include "run_ctx.h"
#include "run/job_plan.h"
#include "smp.h"
#include "status_screen.h"
#include "stop.h"
#include "x86/cpu.h"
#include "x86/timer.h"

#define PROGRESS_EVERY_MS 10000
#define SLEEP_SLICE_MS 100	// how often bit-fade's wait looks at the keys

// The test running: one at a time, read by every CPU that runs it.
static struct {
	const struct mt_test *test;
	const struct run_ctx *run;
	struct job_plan plan;			// its CPUs, the first leads, and shares
	bool parallel;				// more than one: they synchronise
	struct smp_barrier barrier;
	struct mt_hammer hammer;		// the hammer test's, over all the job's ranges
} job;

// The shares' ranges: each cut adds at most one range to the test's.
static struct range share_ranges[RAM_RANGES_MAX + MAX_CPUS];
static bool cpus_online[MAX_CPUS];

// A key asked the job to end early (KEY_STOP or KEY_SKIP; KEY_NONE while
// none did). Set by the bootstrap processor, which reads the keys (as it
// runs its share, or while it waits for the APs); every CPU running the job
// sees it at its next chunk, and one waiting at a barrier is let go.
static enum key_action job_ended_by;

// Poll this CPU's machine-check banks, read the keys (bootstrap processor
// only) and say whether the job must end.
static bool job_goes_on(void)
{
	machcheck_poll(false);
	if (this_cpu()->id == 0)
		status_screen_tick();
	if (this_cpu()->id == 0 && __atomic_load_n(&job_ended_by, __ATOMIC_RELAXED) == KEY_NONE) {
		enum key_action a = keys_poll();
		if (a == KEY_STOP)
			stop_request();
		if (a != KEY_NONE) {
			__atomic_store_n(&job_ended_by, a, __ATOMIC_RELAXED);
			if (job.parallel)
				smp_barrier_cancel(&job.barrier);
		}
	}
	return __atomic_load_n(&job_ended_by, __ATOMIC_RELAXED) == KEY_NONE;
}

static void on_error(void *ctx, uint64_t addr, uint64_t expected, uint64_t actual)
{
	const struct job_status *j = ctx;
	errors_record(addr, expected, actual, j->test, j->pass, this_cpu()->id);
}

// The BSP prints the test's progress line when one is due.
static void print_progress(void)
{
	struct run_status *s = job.run->status;
	uint64_t now = timer_ms();
	char line[LOG_LINE_MAX];

	s->test.done = status_jobs_done(s->job, smp_cpus());
	if (status_job_progress(&s->test, 0, now, PROGRESS_EVERY_MS)) {
		status_line_progress(line, sizeof(line), &s->test, now);
		log_info("%s", line);
	}
	passclock_tick(now);
}

// While the BSP waits for the APs: the progress line, and the keys.
static void bsp_tick(void)
{
	print_progress();
	job_goes_on();
}

static bool on_progress(void *ctx, uint64_t bytes)
{
	struct job_status *j = ctx;

	__atomic_store_n(&j->done, j->done + bytes, __ATOMIC_RELAXED);
	smp_beat();
	if (this_cpu()->id == 0)
		print_progress();
	return job_goes_on();
}

// bit-fade's wait happens once, whatever the CPUs: all of them meet, the
// first of them prints the line and waits (looking at the keys, showing
// life to the others) while the others wait for it at the next barrier.
static bool on_sleep(void *ctx, uint32_t seconds)
{
	(void)ctx;
	char line[LOG_LINE_MAX];
	bool goes_on = true;

	if (job.parallel && !smp_barrier_wait(&job.barrier, false))
		return false;
	if (this_cpu()->id == job.plan.ids[0]) {
		status_line_fade(line, sizeof(line), &job.run->status->test, seconds);
		log_info("%s", line);
		status_screen_waiting(seconds);
		for (uint64_t end = timer_ms() + (uint64_t)seconds * 1000; goes_on && timer_ms() < end;) {
			timer_delay_ms(SLEEP_SLICE_MS);
			smp_beat();
			goes_on = job_goes_on();
		}
	}
	if (job.parallel && !smp_barrier_wait(&job.barrier, false))
		return false;
	return goes_on && job_goes_on();
}

bool job_wait_until(const struct run_ctx *run, uint64_t until_ms)
{
	struct job_status fade = { .test = "bit-fade", .pass = run->status->pass };
	char line[LOG_LINE_MAX];
	uint64_t now = timer_ms();
	uint32_t seconds = now < until_ms ? (uint32_t)((until_ms - now + 999) / 1000) : 0;

	if (seconds == 0)
		return true;	// the work since the fill took longer
	__atomic_store_n(&job_ended_by, KEY_NONE, __ATOMIC_RELAXED);
	job.parallel = false;
	status_line_fade(line, sizeof(line), &fade, seconds);
	log_info("%s", line);
	status_screen_waiting(seconds);
	while (timer_ms() < until_ms && job_goes_on()) {
		timer_delay_ms(SLEEP_SLICE_MS);
		passclock_tick(timer_ms());
	}
	if (job_ended_by == KEY_SKIP)
		log_info("test bit-fade: wait skipped by a key");
	return job_ended_by == KEY_NONE || job_ended_by == KEY_SKIP;
}

static bool on_sync(void *ctx, bool flush)
{
	(void)ctx;
	return smp_barrier_wait(&job.barrier, flush) && job_goes_on();
}

// What each CPU of the job runs: the test over its share. Posted to the
// APs (smp_post), called directly on the BSP.
static void run_share(void *arg)
{
	(void)arg;
	struct cpu *c = this_cpu();
	struct job_status *j = &job.run->status->job[c->id];
	const struct plan_share *sh = &job.plan.share[c->id];
	struct mt_ctx ctx = {
		.ranges = job.plan.ranges + sh->first, .nranges = sh->n, .error = on_error,
		.progress = on_progress, .sleep = on_sleep, .sync = job.parallel ? on_sync : NULL,
		.cb_ctx = j, .seed = job.run->pass_seed, .bitfade_s = job.run->cfg->bitfade_s,
		.nshares = (unsigned)job.plan.nids, .share = job_plan_place(&job.plan, c->id),
		.hammer = &job.hammer,
	};

	c->test = job.test->name;
	smp_test_hook(job.run->cfg->test_fault, false);
	job.test->run(&ctx, job.test->param);
	smp_test_hook(job.run->cfg->test_fault, true);
	c->test = NULL;
	machcheck_poll(true);
	smp_check_stack(job.test->name);
}

// Who runs t over r[0..n), with which share: fills job.plan.
static void plan_job(const struct mt_test *t, const struct range *r, size_t n, uint32_t pass)
{
	struct job_plan_in in = {
		.parallel = t->parallel, .r = r, .n = n, .pass = pass, .online = cpus_online,
		.ncpus = smp_cpus(), .scratch = share_ranges,
		.cap = sizeof(share_ranges) / sizeof(share_ranges[0]),
	};

	for (unsigned id = 0; id < in.ncpus; id++)
		cpus_online[id] = smp_online(id);
	job_plan(&job.plan, &in);
}

uint32_t job_sweeps(const struct mt_test *t)
{
	return t->parallel && smp_online_count() > 1 ? t->shared_sweeps : t->sweeps;
}

void job_run(const struct run_ctx *run, const struct mt_test *t, const struct range *r, size_t n,
	     bool own_memory)
{
	struct run_status *s = run->status;
	uint32_t pass = s->pass;
	unsigned aps[MAX_CPUS];
	size_t naps = 0;
	bool bsp_runs = false;
	char line[LOG_LINE_MAX];

	__atomic_store_n(&job_ended_by, KEY_NONE, __ATOMIC_RELAXED);
	job.test = t;
	job.run = run;
	plan_job(t, r, n, pass);
	job.parallel = job.plan.nids > 1;
	hammerhost_job(&job.hammer, run, r, n, s->usable_bytes);

	struct job_start begin = {
		.test = t->name, .pass = pass, .own_memory = own_memory,
		.bytes = range_total(r, n), .nranges = n,
		.sweeps = job.parallel ? t->shared_sweeps : t->sweeps,
		.now_ms = timer_ms(), .errors = errors_total(),
	};
	status_job_begin(&s->test, &begin);
	// Each CPU's entry is begun here, before its job is posted; from then
	// on only that CPU writes it, until the job ends.
	for (size_t i = 0; i < job.plan.nids; i++) {
		const struct plan_share *sh = &job.plan.share[job.plan.ids[i]];
		begin.bytes = range_total(job.plan.ranges + sh->first, sh->n);
		begin.nranges = sh->n;
		status_job_begin(&s->job[job.plan.ids[i]], &begin);
	}
	status_line_job_start(line, sizeof(line), &s->test);
	log_info("%s", line);

	if (job.parallel)
		smp_barrier_init(&job.barrier, job.plan.ids, job.plan.nids, t->name);
	for (size_t i = 0; i < job.plan.nids; i++) {
		if (job.plan.ids[i] == 0) {
			bsp_runs = true;
			continue;
		}
		aps[naps++] = job.plan.ids[i];
		smp_post(job.plan.ids[i], run_share, NULL);
	}
	if (bsp_runs)
		run_share(NULL);
	smp_wait(aps, naps, bsp_tick, t->name);

	s->test.done = status_jobs_done(s->job, smp_cpus());
	status_line_job_end(line, sizeof(line), &s->test, timer_ms(), errors_total());
	for (size_t i = 0; i < job.plan.nids; i++)
		s->job[job.plan.ids[i]].test = NULL;
	s->test.test = NULL;
	log_info("%s", line);
	if (job_ended_by == KEY_STOP)
		log_info("test %s: stopped by a key; reporting what was found so far", t->name);
	else if (job_ended_by == KEY_SKIP)
		log_info("test %s: skipped by a key", t->name);
}
