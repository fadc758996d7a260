// SPDX-License-Identifier: GPL-2.0-or-later
// The row hammer test (issue #30), freestanding, over callbacks. A plan
// (hammer_plan.c) picks sites across physical ranges: a site is one bank's
// victim rows with their aggressors, the rows either side of each victim in
// the same bank under a struct dram_map (double-sided, or many-sided with
// decoys as in TRRespass), or, with no map, rows guessed one row stride
// apart, in banks of 8 KiB pieces. The run (hammer.c) fills a site's victims and aggressors with
// complementary data, has the machine activate the aggressors for two 64 ms
// refresh windows, checks the victims, and retests what flipped at a lower
// rate: the two-rate rule (hammer_rule.c) counts flips seen only at the
// maximum rate apart, as "vulnerable to row hammer", not as plain errors.
// The machine implements the callbacks (clflush, fences, the TSC); the
// host tool runs the same code against a simulated controller.
//
// Units: addresses are physical, in bytes; rates are activations per
// aggressor row per 64 ms refresh window; ticks are the TSC's.
#ifndef RAMSIFT_LIB_DRAM_HAMMER_H
#define RAMSIFT_LIB_DRAM_HAMMER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "range.h"
#include "dram/dram.h"

// The refresh window DDR3/DDR4 guarantee at normal temperature (JESD79-4
// tREFW), in milliseconds: a cell's charge is restored at least this often.
#define HAMMER_WINDOW_MS 64

// The lower rate of the two-rate rule, as MemTest86 uses it.
#define HAMMER_LOW_RATE 200000u

// At most this many aggressors per site, and decoys besides.
#define HAMMER_MAX_SIDES 16
#define HAMMER_MAX_DECOYS 4

// At most this many flipped words are kept per round for the two-rate
// rule; further ones are reported at once as plain errors.
#define HAMMER_MAX_FLIPS 16

// ---- the plan ----

// Where the victims are. Built once by hammer_plan_init(); read-only after,
// so every CPU may share one.
struct hammer_plan {
	struct dram_map map;	// the learned map, or the guess (no functions)
	bool guessed;		// no map was given: rows guessed from a stride
	const struct range *ranges;
	size_t nranges;
	unsigned sides;		// aggressors per site, 2 (double-sided) or more
	unsigned decoys;	// extra far rows of the bank hammered with them
	uint32_t banks;		// 1 << map.nfuncs
	uint64_t groups;	// site positions (row blocks) over all ranges
	uint64_t sites;		// groups * banks: what all passes cover
	uint32_t per_pass;	// sites per pass: min(the budget, sites)
	uint64_t stride;	// spreads a pass's groups over memory (see .c)
};

// One site: the rows to check and the rows to activate, each named by one
// address in it (same bank for all). Victim k lies between aggressors k
// and k + 1; the decoys follow the aggressors in aggr[].
struct hammer_site {
	uint32_t bank;
	uint64_t victim[HAMMER_MAX_SIDES - 1];
	unsigned nvictims;	// sides - 1
	uint64_t aggr[HAMMER_MAX_SIDES + HAMMER_MAX_DECOYS];
	unsigned naggr;		// sides + decoys
};

// Set up *p over ranges[0..nranges) (sorted, disjoint; the caller keeps
// them alive as long as p). map NULL, or one with no row bits
// (row_lo > row_hi), means no learned map: rows are guessed to be
// row_stride bytes apart (a power of two, >= 64), each address bit from
// 8 KiB up to the row a bank bit (at most DRAM_MAX_FUNCS, the highest), and
// p->guessed is set. sides: 2..HAMMER_MAX_SIDES; decoys:
// 0..HAMMER_MAX_DECOYS; per_pass: the budget of sites per pass (>= 1).
// Sites need all their rows (victims, aggressors, decoys) inside one
// range, so the first and last rows of a range are never victims. Returns
// false on a bad argument or a map with more than DRAM_MAX_FUNCS
// functions; p->sites may be 0 (ranges too small), and then every pass is
// empty.
bool hammer_plan_init(struct hammer_plan *p, const struct dram_map *map,
		      uint64_t row_stride, const struct range *ranges,
		      size_t nranges, unsigned sides, unsigned decoys,
		      uint32_t per_pass);

// Site i (0 <= i < p->per_pass) of pass number pass (any value; pass p and
// p + k * ceil(sites / per_pass) give the same sites). Consecutive i are on
// consecutive banks, and a pass's sites are spread over all the ranges;
// ceil(sites / per_pass) consecutive passes visit every site once. Returns
// false, *s undefined, when the site cannot be hammered here (its bank has
// no address in those rows, or a row falls outside the range): it is
// skipped.
bool hammer_plan_site(const struct hammer_plan *p, uint64_t pass, uint32_t i,
		      struct hammer_site *s);

// Which of ncpus (>= 1) CPUs hammers site i of pass: its bank modulo
// ncpus. Shares are disjoint, and two CPUs never hammer one bank at once.
// With fewer banks than CPUs (a guessed map has one) some CPUs get none.
unsigned hammer_site_cpu(const struct hammer_plan *p, uint64_t pass,
			 uint32_t i, unsigned ncpus);

// ---- the run ----

// Write value to every 64-bit word of [start, end) (8-byte aligned) and
// make the stores reach DRAM (non-temporal stores, or clflush, then a
// fence), so that the check reads what the cells hold.
typedef void (*hammer_fill_fn)(void *cb_ctx, uint64_t start, uint64_t end,
			       uint64_t value);

// Read the 64-bit word at addr from DRAM, not from a cached copy.
typedef uint64_t (*hammer_read_fn)(void *cb_ctx, uint64_t addr);

// Activate each of aggr[0..naggr) count times, in turn, as fast as the
// machine can: read, clflush, with fences so that every read opens its row
// again. Return the TSC ticks that took. Then, if hold_ticks is larger, wait
// until hold_ticks have passed since the start without touching memory, so
// that no refresh window gets more than count activations of any one row.
typedef uint64_t (*hammer_fn)(void *cb_ctx, const uint64_t *aggr,
			      unsigned naggr, uint32_t count,
			      uint64_t hold_ticks);

// A flipped word: its physical address, what was written, what was read.
typedef void (*hammer_flip_fn)(void *cb_ctx, uint64_t addr, uint64_t expected,
			       uint64_t actual);

// Return false to stop the run after the site just done.
typedef bool (*hammer_progress_fn)(void *cb_ctx, uint32_t sites_done);

struct hammer_ctx {
	hammer_fill_fn fill;		// required
	hammer_read_fn read;		// required
	hammer_fn hammer;		// required
	hammer_flip_fn error;		// required: a plain error
	hammer_flip_fn vulnerable;	// flipped only at the maximum rate; may be NULL
	hammer_progress_fn progress;	// may be NULL
	void *cb_ctx;
	uint64_t tsc_hz;	// ticks per second, > 0
	// The maximum rate aimed at (activations per aggressor per window):
	// each round hammers min(max_rate, what the calibration measured).
	uint32_t max_rate;
	uint32_t low_rate;	// the retest's rate, HAMMER_LOW_RATE usually
	uint64_t max_ticks;	// budget: stop starting sites past it; 0: none
};

// What one CPU's run did; sum the fields over CPUs for the pass.
struct hammer_result {
	uint32_t sites;		// sites hammered
	uint32_t rows;		// victim rows hammered and checked
	uint64_t acts;		// activations per aggressor at the maximum rate
	uint64_t ticks;		// the ticks those took, each call at least a window
	uint64_t spent;		// ticks spent in the hammer callback, holds included
	uint32_t errors;	// words reported through error
	uint32_t hammer_only;	// words reported through vulnerable
	bool guessed;		// the plan's aggressors were guessed
	bool budget_spent;	// max_ticks cut the share short
	bool stopped;		// progress asked to stop
};

// Hammer this CPU's share (hammer_site_cpu() == cpu) of pass's sites.
// For each site and each polarity (victims all zeros with the aggressors
// all ones, then the reverse): fill, two windows of hammering at the
// maximum rate (one whole refresh interval at that rate, whatever its
// phase), check; when words flipped, the same again at low_rate, and
// the two-rate rule sorts them. Starts no site once res->spent reaches
// max_ticks, so a pass takes at most per_pass sites, and about max_ticks
// plus one site's time. Zeroes *res first. Returns false when progress
// stopped it.
bool hammer_run(const struct hammer_plan *p, uint64_t pass, unsigned cpu,
		unsigned ncpus, const struct hammer_ctx *ctx,
		struct hammer_result *res);

// The rate res reached: activations per aggressor per window, acts scaled
// from res->ticks to one window; 0 when nothing was hammered.
uint32_t hammer_rate(const struct hammer_result *res, uint64_t tsc_hz);

// The TSC ticks of one refresh window.
uint64_t hammer_window_ticks(uint64_t tsc_hz);

// ---- the two-rate rule ----

struct hammer_flip {
	uint64_t addr, expected, actual;
};

// True when f and g are the same flip: the same word, and a bit flipped in
// both.
bool hammer_same_flip(const struct hammer_flip *f, const struct hammer_flip *g);

// The two-rate rule for f, a flip found at the maximum rate (rate, as
// reached), given the flips low[0..nlow) of the retest at low_rate; lost:
// the retest found more flips than low[] holds. True when f counts as
// "vulnerable to row hammer at rate" only: the maximum rate was above
// low_rate, and the retest, complete, did not show f. False: a plain error.
bool hammer_only_at_max(const struct hammer_flip *f, uint32_t rate,
			uint32_t low_rate, const struct hammer_flip *low,
			size_t nlow, bool lost);

#endif
