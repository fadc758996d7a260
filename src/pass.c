// SPDX-License-Identifier: GPL-2.0-or-later
// The pass loop: each pass's steps (lib/run/schedule.h), which give every
// selected test to every usable byte while ramsift moves out of the way.
#include "errors.h"
#include "hammerhost.h"
#include "fmt.h"
#include "job.h"
#include "log.h"
#include "pass.h"
#include "passclock.h"
#include "fold_report.h"
#include "run/pass_plan.h"
#include "run/plan.h"
#include "run/schedule.h"
#include "selfcheck.h"
#include "smp.h"
#include "memstr.h"
#include "stop.h"
#include "usbkeys.h"
#include "x86/relocate.h"
#include "x86/timer.h"

// One test over r[0..n), then the self-check of ramsift's code.
static void run_test(const struct run_ctx *run, const struct mt_test *t, const struct range *r,
		     size_t n, bool own_memory)
{
	char after[64];

	job_run(run, t, r, n, own_memory);
	fmt_snprintf(after, sizeof(after), "test %s", t->name);
	selfcheck_verify(run, after);
}

// Move ramsift (fp) to dest: its working memory, then the image with new
// page tables (x86/relocate.h).
static void move_to(struct footprint *fp, uint64_t dest)
{
	struct footprint to = footprint_at(fp, dest);

	mem_copy((void *)(uintptr_t)footprint_work(&to), (const void *)(uintptr_t)footprint_work(fp),
		 fp->work_bytes);
	relocate(fp->image, fp->image_bytes, dest, fp->top);
	*fp = to;	// the copy of the stack holds to
}

// Where ramsift may move: while the USB stack runs, below 4 GiB, where its
// DMA block must stay (the controllers are not asked for 64-bit addressing).
static uint64_t move_limit(void)
{
	return usbkeys_running() ? 4 * GiB : ~0ull;
}

// The pass being run: its tests, its parts and where ramsift is; the
// ranges of a step.
static struct pass_plan ps;
static struct range step_ranges[SCHED_MAIN_MAX + 4 * SCHED_PART_MAX];

// The footprint's two ranges in address order.
static void footprint_sorted(const struct footprint *fp, struct range out[2])
{
	struct range image = footprint_image(fp), data = footprint_data(fp);
	bool image_first = image.start < data.start;

	out[0] = image_first ? image : data;
	out[1] = image_first ? data : image;
}

// Move ramsift into part to, after its tests: the APs halt, the USB stack
// stops (no DMA into memory about to be tested), and both start again at
// the new place.
static void move_into(struct run_ctx *run, enum sched_part to)
{
	struct ram *ram = run->ram;
	struct footprint *fp = run->fp;
	struct range old[2];
	uint64_t dest = pass_plan_move(&ps, to, ram, footprint_bytes(fp), move_limit(),
				       errors_table());

	footprint_sorted(fp, old);
	if (dest == 0) {
		log_warn("no free block of %llu KiB to move ramsift to; the memory it occupies "
			 "is not tested", (unsigned long long)(footprint_bytes(fp) >> 10));
		return;
	}
	usbkeys_stop();
	smp_park();
	move_to(fp, dest);
	errors_moved((uint64_t *)(uintptr_t)(footprint_work(fp) + WORK_ERRORS));
	report_init((void *)(uintptr_t)(footprint_work(fp) + WORK_REPORT));
	ram_release_all(ram);
	ram_claim_footprint(ram, fp);
	selfcheck_verify(run, "the move");
	smp_moved(ram, footprint_work(fp) + WORK_SMP, errors_table());
	usbkeys_moved(footprint_work(fp) + WORK_USB);
	log_info("ramsift moved itself to 0x%llx to test the memory it occupied: "
		 "0x%llx-0x%llx and 0x%llx-0x%llx", (unsigned long long)dest,
		 (unsigned long long)old[0].start, (unsigned long long)(old[0].end - 1),
		 (unsigned long long)old[1].start, (unsigned long long)(old[1].end - 1));
	ps.occupied = SCHED_BIT(to);
}

// Run t over the parts of mask.
static void run_over(const struct run_ctx *run, const struct mt_test *t, unsigned mask)
{
	size_t n = sched_ranges(&ps.parts, mask, step_ranges,
				sizeof(step_ranges) / sizeof(step_ranges[0]));

	if (n == 0)
		return;
	run_test(run, t, step_ranges, n, !(mask & SCHED_BIT(SCHED_MAIN)));
	passclock_job_end(job_sweeps(t) * sched_bytes(&ps.parts, mask));
}

// One step of the pass (lib/run/schedule.h).
static void run_step(struct run_ctx *run, const struct sched_step *st, uint64_t *fill_end)
{
	unsigned mask = st->op == SCHED_MOVE || st->op == SCHED_WAIT
				? 0 : pass_plan_free_parts(&ps, st->parts);

	switch (st->op) {
	case SCHED_SWEEP:
		for (size_t i = 0; i < ps.nsweeps && !stop_requested(); i++)
			run_over(run, ps.sweeps[i], mask);
		break;
	case SCHED_FILL:
		run_over(run, &mt_fade_fill[st->ones], mask);
		*fill_end = timer_ms();
		passclock_filled(*fill_end);
		break;
	case SCHED_WAIT:
		if (!job_wait_until(run, *fill_end + run->cfg->bitfade_s * 1000ull))
			stop_request();
		break;
	case SCHED_CHECK:
		run_over(run, &mt_fade_check[st->ones], mask);
		break;
	case SCHED_MOVE:
		move_into(run, st->to);
		break;
	}
}

// Warn about every part that missed a step; returns the bytes tested.
static uint64_t pass_tested(void)
{
	for (unsigned i = 0; i < SCHED_NPARTS; i++)
		if ((ps.missed & SCHED_BIT(i)) && sched_bytes(&ps.parts, SCHED_BIT(i)))
			log_warn("%s (%llu KiB) was not tested this pass: ramsift could not leave it",
				 sched_part_name(i),
				 (unsigned long long)(sched_bytes(&ps.parts, SCHED_BIT(i)) >> 10));
	return pass_plan_tested(&ps);
}

// Cut this pass's memory into parts and choose its steps.
static const struct sched_step *plan_pass(struct run_ctx *run, size_t *n)
{
	struct footprint *fp = run->fp;
	struct range old[2];
	uint64_t bytes = footprint_bytes(fp), home[2];
	unsigned homes = sched_homes(run->ram, bytes, PLAN_MOVE_MIN_ADDR, move_limit(), errors_table(),
				     home);

	footprint_sorted(fp, old);
	homes = pass_plan_homes(&ps, homes);
	if (homes == 0)
		log_warn("no free block of %llu KiB to move ramsift to%s; the memory it occupies "
			 "is not tested", (unsigned long long)(bytes >> 10),
			 usbkeys_running() ? " below 4 GiB, where the USB controllers reach" : "");
	else if (ps.retention && homes == 1)
		log_warn("room to move ramsift only once: its old place fades after the rest, "
			 "the pass takes four retention windows instead of three");
	struct sched_memory memory = {
		.free = run->ram->free, .nfree = run->ram->nfree, .home = home, .nhomes = homes,
		.bytes = bytes, .old = old, .nold = 2, .tramp = smp_trampoline(),
	};
	sched_cut(&ps.parts, &memory);
	pass_plan_begin(&ps);
	return sched_steps(ps.retention, homes, n);
}

// One pass: its steps in order; returns the bytes it tested.
static uint64_t run_pass(struct run_ctx *run)
{
	size_t n;
	const struct sched_step *steps = plan_pass(run, &n);
	struct sched_clock clock = { .steps = steps, .nsteps = n,
				     .wait_ms = run->cfg->bitfade_s * 1000ull };
	uint32_t sweeps[CMDLINE_MAX_TESTS];
	uint64_t fill_end = 0;

	for (size_t i = 0; i < ps.nsweeps; i++)
		sweeps[i] = job_sweeps(ps.sweeps[i]);
	sched_work(&clock, &ps.parts, sweeps, ps.nsweeps);
	passclock_begin(&clock, run->status, timer_ms());
	for (size_t i = 0; i < n && !stop_requested(); i++) {
		passclock_step(i, timer_ms());
		run_step(run, &steps[i], &fill_end);
	}
	passclock_end();
	return pass_tested();
}

void run_passes(struct run_ctx *run)
{
	const struct config *cfg = run->cfg;
	struct ram *ram = run->ram;
	struct run_status *s = run->status;
	const struct mt_test *tests[CMDLINE_MAX_TESTS];
	size_t ntests = plan_tests(cfg, tests, CMDLINE_MAX_TESTS);
	char line[LOG_LINE_MAX];

	pass_plan_tests(&ps, cfg);
	for (uint32_t pass = 1; cfg->passes == 0 || pass <= cfg->passes; pass++) {
		uint64_t tested;

		run->pass_seed = plan_pass_seed(run->seed, pass);
		status_pass_begin(errors_to_status(s), pass, timer_ms());
		status_line_pass_start(line, sizeof(line), s, ntests, ram->nfree);
		log_info("%s", line);
		tested = run_pass(run);
		if (stop_requested()) {
			log_info("pass %u: stopped by a key before its end", pass);
			break;
		}
		errors_to_status(s);
		status_line_pass_end(line, sizeof(line), s, tested, timer_ms());
		log_info("%s", line);
		hammerhost_pass_end(pass);
		status_pass_end(s, tested);
		if (cfg->passes != pass && errors_found()) {
			// Runs that go on (passes=0) show the lines so far.
			char prefix[24];
			fmt_snprintf(prefix, sizeof(prefix), "pass %u: ", pass);
			report_badram(cfg, ram, prefix);
		}
	}
	smp_park();	// the APs halt; the report is the BSP's
}
