// SPDX-License-Identifier: GPL-2.0-or-later
// The default pass as scheduled, over the simulated memory (see schedule.h).
// The memory is cut as the image cuts its RAM, in words:
//	[0, 64)       the AP start-up code
//	[64, 320)     ramsift's image        (OLD)
//	[320, 2048)   free RAM               (MAIN)
//	[2048, 2560)  the pass's last home   (LAST)
//	[2560, 3072)  free RAM               (MAIN)
//	[3072, 3584)  the mid-pass home      (NEXT)
//	[3584, 3840)  ramsift's tables, data (OLD)
//	[3840, 4096)  free RAM               (MAIN)
// While ramsift sits in a part it writes every word of it before each step
// (harsher than a program, which writes some), which restarts every decay
// there; a move writes the new home (the copy) and the start-up code.
#include <stdbool.h>
#include <stdio.h>

#include "memtest/memtest.h"
#include "run/schedule.h"
#include "schedule.h"
#include "memrw.h"
#include "simmem.h"

#define W(n) (8ull * (n))	// words to bytes
#define HOME_WORDS 512u
#define LAYOUT_WORDS 4096u

struct sched_run {
	bool detected;
	uint64_t errors;
};

static void on_error(void *cb, uint64_t addr, uint64_t expected, uint64_t actual)
{
	struct sched_run *r = cb;

	(void)addr, (void)expected, (void)actual;
	r->detected = true;
	r->errors++;
}

static bool on_progress(void *cb, uint64_t bytes)
{
	(void)cb, (void)bytes;
	return true;
}

static bool on_sleep(void *cb, uint32_t seconds)
{
	(void)cb;
	sim_sleep(seconds);
	return true;
}

static struct sched_parts parts;

static void cut(uint64_t base)
{
	const struct range free[] = { { base + W(320), base + W(3584) },
				      { base + W(3840), base + W(4096) } };
	const struct range old[] = { { base + W(64), base + W(320) },
				     { base + W(3584), base + W(3840) } };
	const uint64_t home[2] = { base + W(3072), base + W(2048) };

	sched_cut(&parts, &(struct sched_memory){ .free = free, .nfree = 2, .home = home,
						  .nhomes = 2, .bytes = W(HOME_WORDS), .old = old,
						  .nold = 2, .tramp = { base, base + W(64) } });
}

// The part holding word w.
static unsigned part_of(uint64_t base, size_t w)
{
	uint64_t a = base + W(w);

	for (unsigned p = 0; p < SCHED_NPARTS; p++) {
		struct range r[8];
		size_t n = sched_ranges(&parts, SCHED_BIT(p), r, 8);

		for (size_t i = 0; i < n; i++)
			if (a >= r[i].start && a < r[i].end)
				return p;
	}
	return SCHED_NPARTS;
}

// Whether f is a two-word fault with its words in two parts.
static unsigned two_parts(uint64_t base, const struct sim_fault *f)
{
	bool two_words = f->kind == SIM_AF_ALIAS || f->kind == SIM_AF_MULTI ||
			 f->kind == SIM_CFIN || f->kind == SIM_CFID || f->kind == SIM_CFST;

	return two_words && part_of(base, f->vword) != part_of(base, f->aword);
}

// ramsift's writes to the parts of mask.
static void occupy(unsigned mask, uint64_t stamp)
{
	struct range r[8];
	size_t n = sched_ranges(&parts, mask, r, 8);

	for (size_t i = 0; i < n; i++)
		for (uint64_t a = r[i].start; a < r[i].end; a += 8)
			sim_write(a, a * 0x9e3779b97f4a7c15ull + stamp, false);
}

static void run_on(const struct mt_test *t, unsigned mask, struct mt_ctx *ctx)
{
	static struct range r[SCHED_MAIN_MAX + 4 * SCHED_PART_MAX];

	ctx->ranges = r;
	ctx->nranges = sched_ranges(&parts, mask, r, sizeof(r) / sizeof(r[0]));
	if (ctx->nranges)
		t->run(ctx, t->param);
}

// The pass's steps over the current simulated memory; *tested gets the
// parts no step had to skip.
static struct sched_run run_pass(uint64_t seed, uint32_t bitfade_s, unsigned *tested)
{
	struct sched_run r = { 0 };
	struct mt_ctx ctx = { .error = on_error, .progress = on_progress, .sleep = on_sleep,
			      .cb_ctx = &r, .seed = seed, .bitfade_s = bitfade_s };
	size_t n;
	const struct sched_step *steps = sched_steps(true, 2, &n);
	unsigned occupied = SCHED_BIT(SCHED_OLD), missed = 0;

	for (size_t i = 0; i < n; i++) {
		const struct sched_step *st = &steps[i];
		unsigned mask = st->parts & ~occupied;

		missed |= st->parts & occupied;
		occupy(occupied, i);
		switch (st->op) {
		case SCHED_SWEEP:
			for (size_t t = 0; t < mt_ntests; t++)
				if (mt_tests[t].in_default_pass && !mt_tests[t].retention)
					run_on(&mt_tests[t], mask, &ctx);
			break;
		case SCHED_FILL:
			run_on(&mt_fade_fill[st->ones], mask, &ctx);
			break;
		case SCHED_WAIT:
			sim_sleep(bitfade_s);	// the sweeps take no simulated time
			break;
		case SCHED_CHECK:
			run_on(&mt_fade_check[st->ones], mask, &ctx);
			break;
		case SCHED_MOVE:
			occupied = SCHED_BIT(st->to);
			occupy(occupied | SCHED_BIT(SCHED_TRAMP), i);
			break;
		}
	}
	*tested = ((1u << SCHED_NPARTS) - 1) & ~missed;
	return r;
}

// Retention faults in the first, middle and last word of part p, decaying
// to 0 and to 1 just inside the window: how many of them were found.
static unsigned part_retention(uint64_t base, uint64_t seed, uint32_t bitfade_s,
			       enum sched_part p, unsigned *tried)
{
	struct range r[8];
	size_t n = sched_ranges(&parts, SCHED_BIT(p), r, 8);
	unsigned found = 0, tested;

	for (size_t i = 0; i < n; i++) {
		size_t first = (r[i].start - base) / 8, last = (r[i].end - base) / 8 - 1;
		size_t words[3] = { first, (first + last) / 2, last };

		for (unsigned k = 0; k < 6; k++) {
			struct sim_fault f = { .kind = SIM_RET, .vword = words[k / 2],
					       .vbit = (unsigned)(k * 13 % 64), .value = k % 2,
					       .delay_s = bitfade_s - 1 };
			sim_reset(base, LAYOUT_WORDS, seed + k);
			sim_inject(&f);
			found += run_pass(seed, bitfade_s, &tested).detected;
			(*tried)++;
		}
	}
	return found;
}

int schedule_coverage(uint64_t base, size_t nwords, uint64_t seed, uint32_t bitfade_s,
		      const struct sim_fault (*faults)[FAULTS_MAX_PER_CLASS], const size_t *nfaults)
{
	unsigned tested;
	int bad = 0;

	if (nwords != LAYOUT_WORDS) {
		printf("FAIL: the scheduled pass's layout needs %u words\n", LAYOUT_WORDS);
		return 1;
	}
	cut(base);
	sim_reset(base, nwords, seed);
	struct sched_run clean = run_pass(seed, bitfade_s, &tested);
	if (clean.errors || tested != (1u << SCHED_NPARTS) - 1) {
		printf("FAIL: the scheduled pass reports %llu errors on a fault-free memory and "
		       "tests parts 0x%x of 0x%x\n", (unsigned long long)clean.errors, tested,
		       (1u << SCHED_NPARTS) - 1);
		bad = 1;
	}
	printf("\nThe default pass as the image schedules it (lib/run/schedule.h: three "
	       "windows, ramsift moving twice), over the memory cut into parts, in %% of the "
	       "faults whose cells lie in one part, then (not promised) of the two-word faults "
	       "whose cells lie in two parts, which no test sweeps together:\n\n| faults |");
	for (int c = 0; c < FC_COUNT; c++)
		printf(" %s |", fault_class_label(c));
	printf("\n|---|");
	for (int c = 0; c < FC_COUNT; c++)
		printf("--:|");
	unsigned found[FC_COUNT][2] = { 0 }, tried[FC_COUNT][2] = { 0 };
	for (int c = 0; c < FC_COUNT; c++) {
		for (size_t f = 0; f < nfaults[c]; f++) {
			unsigned apart = two_parts(base, &faults[c][f]);

			sim_reset(base, nwords, seed + 1000 * c + f);
			sim_inject(&faults[c][f]);
			found[c][apart] += run_pass(seed, bitfade_s, &tested).detected;
			tried[c][apart]++;
		}
		if (found[c][0] != tried[c][0] || tried[c][0] == 0)
			bad = 1;
	}
	for (unsigned apart = 0; apart < 2; apart++) {
		printf("\n| %s |", apart ? "in two parts" : "in one part");
		for (int c = 0; c < FC_COUNT; c++)
			if (tried[c][apart])
				printf(" %.0f |", 100.0 * found[c][apart] / tried[c][apart]);
			else
				printf(" - |");
	}
	printf("\n");
	for (int c = 0; c < FC_COUNT; c++)
		if (found[c][0] != tried[c][0] || tried[c][0] == 0)
			printf("FAIL: the scheduled pass finds %u of %u %s faults inside one part\n",
			       found[c][0], tried[c][0], fault_class_label(c));
	printf("\n\nRetention faults in each part (first, middle and last word of each range, "
	       "decaying to 0 and to 1, %u s after the last write):\n\n", bitfade_s - 1);
	for (unsigned p = 0; p < SCHED_NPARTS; p++) {
		unsigned tried = 0, found = part_retention(base, seed, bitfade_s, p, &tried);

		printf("- %s: %u of %u\n", sched_part_name(p), found, tried);
		if (found != tried || tried == 0) {
			printf("FAIL: the scheduled pass misses retention faults in %s\n",
			       sched_part_name(p));
			bad = 1;
		}
	}
	return bad;
}
