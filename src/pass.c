// SPDX-License-Identifier: GPL-2.0-or-later
// The pass loop: every selected test over the free RAM, then over the memory
// ramsift occupied, after moving itself out of the way.
#include "errors.h"
#include "fmt.h"
#include "job.h"
#include "log.h"
#include "pass.h"
#include "report.h"
#include "run.h"
#include "run/plan.h"
#include "selfcheck.h"
#include "smp.h"
#include "string.h"
#include "x86/relocate.h"
#include "x86/timer.h"

// Add r to the sorted list of ranges own[0..*n) (tests want them sorted).
static void add_sorted(struct range *own, size_t *n, struct range r)
{
	size_t i = *n;

	if (r.start >= r.end)
		return;
	for (; i > 0 && own[i - 1].start > r.start; i--)
		own[i] = own[i - 1];
	own[i] = r;
	(*n)++;
}

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

// Where ramsift moves: while the USB stack runs, below 4 GiB, where its DMA
// block must stay (the controllers are not asked for 64-bit addressing).
static uint64_t move_destination(const struct ram *ram, uint64_t bytes)
{
	if (!usbkeys_running())
		return plan_move(ram, bytes, errors_table());
	uint64_t dest = plan_block(ram, bytes, PLAN_MOVE_MIN_ADDR, 4 * GiB, errors_table());
	if (dest == 0)
		log_warn("no free block of %llu KiB below 4 GiB to move ramsift to, where the USB "
			 "controllers reach", (unsigned long long)(bytes >> 10));
	return dest;
}

// Move ramsift to tested free memory and run the tests over what it left,
// and over the AP start-up code's pages, unused between start-ups. Returns
// the bytes so tested (0 when there was nowhere to go and no start-up code).
static uint64_t test_own_memory(const struct run_ctx *run, const struct mt_test *const *tests,
				size_t ntests)
{
	struct ram *ram = run->ram;
	struct footprint *fp = run->fp;
	struct range own[3];
	size_t nown = 0;
	struct range tramp = smp_trampoline();
	uint64_t dest = move_destination(ram, footprint_bytes(fp));

	if (dest == 0) {
		log_warn("no free block of %llu KiB to move ramsift to; the memory it occupies "
			 "is not tested", (unsigned long long)(footprint_bytes(fp) >> 10));
	} else {
		struct range image = footprint_image(fp), data = footprint_data(fp);

		// The APs halt while ramsift moves, and start again on the new
		// page tables and per-CPU memory.
		usbkeys_stop();	// no DMA into the working memory while it moves
		smp_park();
		move_to(fp, dest);
		errors_moved((uint64_t *)(uintptr_t)(footprint_work(fp) + WORK_ERRORS));
		report_init((void *)(uintptr_t)(footprint_work(fp) + WORK_REPORT));
		ram_release_all(ram);
		ram_claim_footprint(ram, fp);
		selfcheck_verify(run, "the move");
		smp_moved(ram, footprint_work(fp) + WORK_SMP, errors_table());
		usbkeys_moved(footprint_work(fp) + WORK_USB);
		add_sorted(own, &nown, image);
		add_sorted(own, &nown, data);
		log_info("ramsift moved itself to 0x%llx to test the memory it occupied: "
			 "0x%llx-0x%llx and 0x%llx-0x%llx",
			 (unsigned long long)dest, (unsigned long long)own[0].start,
			 (unsigned long long)(own[0].end - 1), (unsigned long long)own[1].start,
			 (unsigned long long)(own[1].end - 1));
	}
	add_sorted(own, &nown, tramp);
	if (nown == 0)
		return 0;
	for (size_t i = 0; i < ntests && !run_stopping(); i++)
		run_test(run, tests[i], own, nown, true);
	return range_total(own, nown);
}

void run_passes(struct run_ctx *run)
{
	const struct config *cfg = run->cfg;
	struct ram *ram = run->ram;
	struct run_status *s = run->status;
	const struct mt_test *tests[CMDLINE_MAX_TESTS];
	size_t ntests = plan_tests(cfg, tests, CMDLINE_MAX_TESTS);
	char line[LOG_LINE_MAX];

	for (uint32_t pass = 1; cfg->passes == 0 || pass <= cfg->passes; pass++) {
		uint64_t tested = range_total(ram->free, ram->nfree);

		run->pass_seed = plan_pass_seed(run->seed, pass);
		status_pass_begin(errors_to_status(s), pass, timer_ms());
		status_line_pass_start(line, sizeof(line), s, ntests, ram->nfree);
		log_info("%s", line);
		for (size_t i = 0; i < ntests && !run_stopping(); i++)
			run_test(run, tests[i], ram->free, ram->nfree, false);
		if (!run_stopping())
			tested += test_own_memory(run, tests, ntests);
		if (run_stopping()) {
			log_info("pass %u: stopped by a key before its end", pass);
			break;
		}
		errors_to_status(s);
		status_line_pass_end(line, sizeof(line), s, tested, timer_ms());
		log_info("%s", line);
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
