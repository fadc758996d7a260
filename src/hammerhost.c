// SPDX-License-Identifier: GPL-2.0-or-later
// The hammer test's side in the image (see hammerhost.h). The jobs' CPUs
// report into one account under a lock; the BSP prints it.
#include "dram_geometry.h"
#include "fmt.h"
#include "hammerhost.h"
#include "log.h"
#include "page.h"
#include "x86/cpu.h"
#include "x86/hammer_loop.h"
#include "x86/io.h"
#include "x86/spinlock.h"
#include "x86/timer.h"

// Pages of vulnerable words the summary names, at most.
#define VULNERABLE_PAGES_MAX 16
// Vulnerable lines printed at most (each is counted).
#define VULNERABLE_LINES_MAX 100

static struct spinlock lock;
static struct {
	struct hammer_result two, many;	// this pass's, summed over CPUs and jobs
	unsigned cpus;			// CPU shares reported
	uint32_t pass;
} acc;
static uint64_t only, only_lines, rows_total;
static uint32_t best_rate;
static bool any;
static uint64_t pages[VULNERABLE_PAGES_MAX];
static size_t npages;

static void add(struct hammer_result *sum, const struct hammer_result *r)
{
	sum->sites += r->sites;
	sum->rows += r->rows;
	sum->acts += r->acts;
	sum->ticks += r->ticks;
	sum->spent += r->spent;
	sum->errors += r->errors;
	sum->hammer_only += r->hammer_only;
	sum->guessed |= r->guessed;
}

static void on_done(void *ctx, const struct hammer_result *two, const struct hammer_result *many)
{
	(void)ctx;
	spin_lock(&lock);
	add(&acc.two, two);
	add(&acc.many, many);
	acc.cpus++;
	spin_unlock(&lock);
}

static void note_page(uint64_t addr)
{
	uint64_t page = addr & ~(uint64_t)(PAGE_SIZE - 1);

	for (size_t i = 0; i < npages; i++)
		if (pages[i] == page)
			return;
	if (npages < VULNERABLE_PAGES_MAX)
		pages[npages++] = page;
}

static void on_vulnerable(void *ctx, uint64_t addr, uint64_t expected, uint64_t actual)
{
	(void)ctx;
	spin_lock(&lock);
	only++;
	bool print = only_lines < VULNERABLE_LINES_MAX;
	only_lines += print;
	note_page(addr);
	spin_unlock(&lock);
	if (print)
		log_info("hammer: vulnerable addr=0x%016llx expected=0x%016llx actual=0x%016llx "
			 "pass=%u cpu=%u: flipped at the maximum rate only", (unsigned long long)addr,
			 (unsigned long long)expected, (unsigned long long)actual, acc.pass,
			 this_cpu()->id);
}

// test_fault=hammer-weak: the first double-sided site hammered faster than
// twice the retest's rate has one bit of its victim (between the two
// guessed aggressors) flipped, as a cell that gives way to the maximum rate
// only: the two-rate rule's path in the image, where TCG flips nothing.
static bool weak_done;

static uint64_t weak_hammer(void *ctx, const uint64_t *aggr, unsigned naggr, uint32_t count,
			    uint64_t hold_ticks)
{
	uint64_t ticks = x86_hammer_activate(ctx, aggr, naggr, count, hold_ticks);

	if (naggr == 2 && aggr[1] - aggr[0] == 2 * HAMMERHOST_ROW_STRIDE &&
	    count > 2 * HAMMER_LOW_RATE && !__atomic_exchange_n(&weak_done, true, __ATOMIC_RELAXED)) {
		volatile uint64_t *victim = (volatile uint64_t *)(uintptr_t)(aggr[0] + HAMMERHOST_ROW_STRIDE);
		*victim ^= 1ull << 3;
		mfence();
	}
	return ticks;
}

void hammerhost_job(struct mt_hammer *h, const struct run_ctx *run, const struct range *r,
		    size_t n, uint64_t total)
{
	uint64_t bytes = range_total(r, n);
	uint64_t ticks = timer_tsc_hz() * run->cfg->hammer_s;

	acc.pass = run->status->pass;
	*h = (struct mt_hammer){
		.ranges = r, .nranges = n, .map = dram_map_learned(),
		.row_stride = HAMMERHOST_ROW_STRIDE, .pass = run->status->pass - 1,
		.fill = x86_hammer_fill, .read = x86_hammer_read,
		.hammer = run->cfg->test_fault == TEST_FAULT_HAMMER_WEAK ? weak_hammer
									: x86_hammer_activate,
		.tsc_hz = timer_tsc_hz(),
		// In 64ths of the pass's memory: ticks * bytes could pass 2^64.
		.max_ticks = (total ? ticks * (bytes * 64 / total) / 64 : ticks) + 1,
		.vulnerable = on_vulnerable, .done = on_done,
	};
}

static void describe(char *buf, size_t len, const char *what, const struct hammer_result *r)
{
	fmt_snprintf(buf, len, "%s %u rows in %u sites at %u activations per aggressor per %u ms "
		     "window", what, r->rows, r->sites, hammer_rate(r, timer_tsc_hz()),
		     HAMMER_WINDOW_MS);
}

void hammerhost_pass_end(uint32_t pass)
{
	char two[160], many[160];

	if (acc.cpus == 0)
		return;
	uint32_t rate = hammer_rate(&acc.two, timer_tsc_hz());
	describe(two, sizeof(two), "double-sided:", &acc.two);
	describe(many, sizeof(many), "8-sided with 2 decoys:", &acc.many);
	log_info("hammer: pass %u: %s; %s; %u errors, %u words vulnerable only at the maximum rate%s",
		 pass, two, many, acc.two.errors + acc.many.errors,
		 acc.two.hammer_only + acc.many.hammer_only,
		 acc.two.guessed ? "; no DRAM mapping: aggressors guessed 256 KiB apart, which "
				   "may miss the victims' banks" : "");
	any = true;
	rows_total += acc.two.rows + acc.many.rows;
	if (rate > best_rate)
		best_rate = rate;
	acc.two = acc.many = (struct hammer_result){ 0 };
	acc.cpus = 0;
}

uint64_t hammerhost_only(void)
{
	return only;
}

void hammerhost_summary(void)
{
	char list[VULNERABLE_PAGES_MAX * 20 + 1];
	size_t used = 0;

	if (!any)
		return;
	log_info("summary: row hammer: %llu rows hammered at up to %u activations per aggressor per "
		 "%u ms window; hammer_only=%llu", (unsigned long long)rows_total, best_rate,
		 HAMMER_WINDOW_MS, (unsigned long long)only);
	if (only == 0)
		return;
	for (size_t i = 0; i < npages; i++)
		used += (size_t)fmt_snprintf(list + used, sizeof(list) - used, "%s0x%llx", i ? "," : "",
					     (unsigned long long)pages[i]);
	log_info("summary: row hammer: %llu words flipped at the maximum rate only, not at %u: "
		 "vulnerable to row hammer at %u activations per window; not counted as errors and "
		 "not in the BadRAM lines", (unsigned long long)only, HAMMER_LOW_RATE, best_rate);
	log_info("summary: row hammer: their pages%s: %s (to keep software off them too, exclude "
		 "them as the failing pages are)", npages == VULNERABLE_PAGES_MAX ? ", the first 16" : "",
		 list);
}

bool hammerhost_totals(uint32_t *rate, uint64_t *rows)
{
	*rate = best_rate;
	*rows = rows_total;
	return any;
}
