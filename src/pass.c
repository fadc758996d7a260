// SPDX-License-Identifier: GPL-2.0-or-later
// One test over one list of ranges is a "job": it owns the callbacks' state
// (progress, timing) so that several CPUs can later run jobs side by side.
#include "x86/cpu.h"
#include "fmt.h"
#include "errors.h"
#include "log.h"
#include "memtest/memtest.h"
#include "page.h"
#include "pass.h"
#include "report.h"
#include "run.h"
#include "x86/timer.h"

#define PROGRESS_EVERY_MS 10000
#define SELF_MIN_ADDR (1ull << 20)	// keep the first MiB for firmware-style uses (AP start-up)

struct job {
	const struct mt_test *test;
	uint32_t pass;
	uint64_t total;		// bytes the test will report through progress
	uint64_t done;
	uint64_t start_ms, last_ms;
};

static void on_error(void *ctx, uint64_t addr, uint64_t expected, uint64_t actual)
{
	const struct job *j = ctx;
	errors_record(addr, expected, actual, j->test->name, j->pass, this_cpu()->id);
}

static bool on_progress(void *ctx, uint64_t bytes)
{
	struct job *j = ctx;
	uint64_t now = timer_ms();

	j->done += bytes;
	if (now - j->last_ms >= PROGRESS_EVERY_MS && j->total) {
		log_info("test %s: %llu%% done, pass=%u t=%llu", j->test->name,
			 (unsigned long long)(j->done * 100 / j->total), j->pass,
			 (unsigned long long)(now / 1000));
		j->last_ms = now;
	}
	return true;
}

static bool on_sleep(void *ctx, uint32_t seconds)
{
	struct job *j = ctx;

	log_info("test %s: waiting %u s for bits to fade, pass=%u", j->test->name, seconds, j->pass);
	timer_delay_ms((uint64_t)seconds * 1000);
	return true;
}

// "key=S.mmm"
static void print_ms(const char *key, uint64_t ms, char *buf, size_t len)
{
	fmt_snprintf(buf, len, "%s=%llu.%03llu", key, (unsigned long long)(ms / 1000),
		     (unsigned long long)(ms % 1000));
}

static void run_job(const struct mt_test *t, const struct range *r, size_t n, uint32_t pass,
		    const struct config *cfg, uint64_t seed, const char *where)
{
	uint64_t bytes = range_total(r, n);
	struct job j = { t, pass, bytes * t->passes, 0, timer_ms(), timer_ms() };
	struct mt_ctx ctx = {
		.ranges = r, .nranges = n, .error = on_error, .progress = on_progress,
		.sleep = on_sleep, .cb_ctx = &j, .seed = seed, .bitfade_s = cfg->bitfade_s,
	};
	uint64_t errors_before = errors_total();
	char t0[32], dt[32];

	print_ms("t", j.start_ms, t0, sizeof(t0));
	log_info("test %s: start pass=%u bytes=%llu ranges=%zu%s %s", t->name, pass,
		 (unsigned long long)bytes, n, where, t0);
	this_cpu()->test = t->name;
	t->run(&ctx, t->param);
	this_cpu()->test = NULL;
	uint64_t ms = timer_ms() - j.start_ms;
	uint64_t mib_s = ms ? j.total / ms * 1000 / (1 << 20) : 0;
	print_ms("time_s", ms, dt, sizeof(dt));
	print_ms("t", timer_ms(), t0, sizeof(t0));
	log_info("test %s: end pass=%u errors=%llu %s MiB_s=%llu%s %s", t->name, pass,
		 (unsigned long long)(errors_total() - errors_before), dt, (unsigned long long)mib_s,
		 where, t0);
}


// Where ramsift can move: the highest block of free RAM above the first MiB
// that holds it and contains no page known to fail. 0 if there is none.
static uint64_t move_destination(const struct memmap *mm, uint64_t bytes)
{
	const struct badram_table *bad = errors_table();

	for (size_t i = mm->nfree; i-- > 0;) {
		uint64_t lo = mm->free[i].start > SELF_MIN_ADDR ? mm->free[i].start : SELF_MIN_ADDR;
		uint64_t end = mm->free[i].end;
		// Slide the block down below the highest failing page inside it.
		while (end > lo && end - lo >= bytes) {
			uint64_t page = end;
			while (page > end - bytes && !badram_table_has(bad, page - PAGE_SIZE))
				page -= PAGE_SIZE;
			if (page == end - bytes)
				return page;
			end = page - PAGE_SIZE;
		}
	}
	return 0;
}

// Move ramsift to tested free memory and run the tests over what it left.
// Returns the bytes so tested (0 when there was nowhere to go).
static uint64_t test_own_memory(const struct config *cfg, struct memmap *mm, struct footprint *fp,
				const struct mt_test *const *tests, size_t ntests, uint32_t pass,
				uint64_t seed)
{
	struct range old[2] = { { fp->image, fp->image + fp->image_bytes },
				{ fp->tables, fp->tables + fp->table_bytes } };
	if (old[1].start < old[0].start) {
		struct range t = old[0];
		old[0] = old[1];
		old[1] = t;
	}
	uint64_t dest = move_destination(mm, footprint_bytes(fp));
	if (dest == 0) {
		log_warn("no free block of %llu KiB to move ramsift to; the memory it occupies "
			 "is not tested", (unsigned long long)(footprint_bytes(fp) >> 10));
		return 0;
	}
	relocate(fp, dest);
	memmap_release_all(mm);
	memmap_claim(mm, (struct range){ fp->image, fp->image + fp->image_bytes },
		     "image, stacks and boot page tables");
	memmap_claim(mm, (struct range){ fp->tables, fp->tables + fp->table_bytes }, "page tables");
	log_info("ramsift moved itself to 0x%llx to test the memory it occupied: "
		 "0x%llx-0x%llx and 0x%llx-0x%llx",
		 (unsigned long long)dest, (unsigned long long)old[0].start,
		 (unsigned long long)(old[0].end - 1), (unsigned long long)old[1].start,
		 (unsigned long long)(old[1].end - 1));
	for (size_t i = 0; i < ntests; i++)
		run_job(tests[i], old, 2, pass, cfg, seed, " own-memory");
	return range_total(old, 2);
}

static size_t select_tests(const struct config *cfg, const struct mt_test **out)
{
	size_t n = 0;

	if (cfg->ntests) {
		for (size_t i = 0; i < cfg->ntests; i++)
			out[n++] = &mt_tests[cfg->tests[i]];
		return n;
	}
	for (size_t i = 0; i < mt_ntests && n < CMDLINE_MAX_TESTS; i++)
		if (mt_tests[i].in_default_pass)
			out[n++] = &mt_tests[i];
	return n;
}

void run_passes(const struct config *cfg, struct memmap *mm, struct footprint *fp, uint64_t seed)
{
	const struct mt_test *tests[CMDLINE_MAX_TESTS];
	size_t ntests = select_tests(cfg, tests);

	for (uint32_t pass = 1; cfg->passes == 0 || pass <= cfg->passes; pass++) {
		// Each pass draws other random patterns, reproducibly from seed.
		uint64_t pass_seed = seed + pass * 0x9e3779b97f4a7c15ull;
		uint64_t start = timer_ms();
		uint64_t errors_before = errors_total();
		uint64_t tested = range_total(mm->free, mm->nfree);
		char dt[32];

		log_info("pass %u: start, %zu tests over %zu ranges", pass, ntests, mm->nfree);
		for (size_t i = 0; i < ntests; i++)
			run_job(tests[i], mm->free, mm->nfree, pass, cfg, pass_seed, "");
		tested += test_own_memory(cfg, mm, fp, tests, ntests, pass, pass_seed);
		print_ms("time_s", timer_ms() - start, dt, sizeof(dt));
		log_info("pass %u: end errors=%llu tested_bytes=%llu %s", pass,
			 (unsigned long long)(errors_total() - errors_before), (unsigned long long)tested, dt);
		run_pass_done(tested);
		if (cfg->passes != pass && errors_total()) {
			// Runs that go on (passes=0) show the lines so far.
			char prefix[24];
			fmt_snprintf(prefix, sizeof(prefix), "pass %u: ", pass);
			report_badram(cfg, mm, prefix);
		}
	}
}
