// SPDX-License-Identifier: GPL-2.0-or-later
// The memory tests: what a caller gives a test (struct mt_ctx), what a test
// reports back (callbacks), and the one table of tests that the command line,
// the run loop and the coverage simulator all read. A test is a pure function
// of its context: it touches only the listed physical ranges (through
// memrw.h), keeps no state outside its stack, never prints, and reports each
// failing 64-bit word through the error callback.
//
// Several CPUs may run one test together, each with its own context over its
// own share of the memory (struct mt_ctx's sync, share and nshares): the
// shares' union is the memory, and the test calls sync at each boundary
// between its phases, so that every CPU finishes a phase over its share
// before any starts the next. docs/memory-tests.md ("Testing in parallel")
// says what each test does then and what the fault simulator shows of it.
#ifndef RAMSIFT_LIB_MEMTEST_MEMTEST_H
#define RAMSIFT_LIB_MEMTEST_MEMTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dram/hammer.h"
#include "range.h"

// Progress is reported, and an abort can happen, once per chunk of at most
// this many bytes of one range (never inside the per-word loop).
#define MT_CHUNK_BYTES (4u << 20)

// A word failed: addr is the physical address of the 64-bit word, expected
// what the test wrote (or what its algorithm implies), actual what it read.
// Called once per failing read, from inside the test's loops (keep it short);
// the same word may fail again later in the same test.
typedef void (*mt_error_fn)(void *cb_ctx, uint64_t addr, uint64_t expected,
			    uint64_t actual);

// bytes more of the ranges have been swept (one chunk). Return false to make
// the test stop as soon as possible and return false.
typedef bool (*mt_progress_fn)(void *cb_ctx, uint64_t bytes);

// Wait seconds of wall time (bit-fade's retention delay; the simulator
// advances its clock instead). Return false to abort the test.
typedef bool (*mt_sleep_fn)(void *cb_ctx, uint32_t seconds);

// All CPUs that run this test over their shares finish the current phase
// before any starts the next. flush: the phase's cached stores must reach
// DRAM before the next phase reads (see memaccess.h). Return false to abort.
//
// The contract in full:
//  - Every CPU running the test calls sync the same number of times, at the
//    same points: the points depend only on the test, its parameters and
//    nshares, never on the size of a share (an empty share calls them all).
//    The last call follows the test's last phase, so when run returns true
//    on one CPU, every CPU has finished the test.
//  - flush true: before it waits, the callback must make this CPU's cached
//    stores reach DRAM and empty its caches: mem_flush_cache() (wbinvd) on
//    every CPU, not on one for all. WBINVD reaches only the caches of the
//    CPU that runs it, and those it shares; see memaccess.h for the SDM's
//    words. The test does not flush when sync is set.
//  - A CPU whose test stops early (progress or sleep returned false) makes
//    no further calls: the callback must then return false on the others
//    (the abort that stopped one must release the barrier for all), and
//    each CPU's run returns false.
typedef bool (*mt_sync_fn)(void *cb_ctx, bool flush);

// What the hammer test needs besides the memory: the machine's way to
// hammer (src/hammerhost.c), the map, the whole memory of the job (each
// CPU hammers its banks of one plan over all of it, not its share) and the
// budget. NULL in mt_ctx: nothing to hammer with (the host simulators).
struct mt_hammer {
	const struct range *ranges;	// the job's memory, sorted, disjoint
	size_t nranges;
	const struct dram_map *map;	// learned; NULL: aggressors guessed
	uint64_t row_stride;		// the guess's row stride, bytes
	uint64_t pass;			// which of the plan's sites this pass takes
	hammer_fill_fn fill;		// the machine's (they get cb_ctx NULL)
	hammer_read_fn read;
	hammer_fn hammer;
	uint64_t tsc_hz;
	uint64_t max_ticks;		// this CPU's budget for the job
	// A word flipped only at the maximum rate; the CPU's result at the
	// end of its share (both with ctx).
	void (*vulnerable)(void *ctx, uint64_t addr, uint64_t expected, uint64_t actual);
	void (*done)(void *ctx, const struct hammer_result *double_sided,
		     const struct hammer_result *many_sided);
	void *ctx;
};

struct mt_ctx {
	// The memory to test: physical ranges [start, end), both 8-byte
	// aligned (any representable values; the tests never compute an
	// address beyond end, so even end near 2^64 is safe). Empty ranges are
	// skipped. Give them sorted ascending and disjoint, as mmap_normalize
	// makes them: descending sweeps walk them last to first, so March
	// element orders are address orders across ranges too.
	const struct range *ranges;
	size_t nranges;
	mt_error_fn error;       // required
	mt_progress_fn progress; // required
	mt_sleep_fn sleep;       // required by bit-fade when bitfade_s > 0
	void *cb_ctx;            // passed to every callback
	uint64_t seed;           // random patterns; same seed, same run
	uint32_t bitfade_s;      // bit-fade's wait per polarity; 0: skip it
	mt_sync_fn sync;         // NULL: this CPU runs the test alone
	// With sync: this CPU's share, 0..nshares-1 (distinct on every CPU),
	// and how many CPUs run the test, each over its share (ranges is this
	// CPU's share). march-c orders the shares' phases by these so that a
	// coupling between two shares is found whatever the CPUs' relative
	// speed (march.c); nshares 0 counts as 1. Ignored without sync.
	unsigned share;
	unsigned nshares;
	const struct mt_hammer *hammer;	// the hammer test's; NULL: it does nothing
};

struct mt_test {
	const char *name;    // the tests= name, e.g. "march-c"
	// Run the test over ctx's ranges. Returns false when a callback asked
	// to abort, true when the test ran to its end (errors or not).
	bool (*run)(const struct mt_ctx *ctx, const void *param);
	const void *param;   // the test's parameters, passed to run
	const char *summary; // one line: the algorithm and what it detects
	bool in_default_pass;
	// Sweeps over the ranges (a "pass" is the run's repeat of all tests):
	// a run to its end reports exactly sweeps * (bytes in the ranges)
	// through progress (bit-fade with bitfade_s 0: nothing). 0: the test
	// touches a negligible number of words (address-walk) and reports none.
	uint32_t sweeps;
	// false: one CPU runs it over all ranges (address-walk: it tests the
	// address lines of each whole range). true: several CPUs may run it,
	// each over its share, with sync.
	bool parallel;
	// Sweeps over each share when nshares >= 2 (each CPU reports
	// shared_sweeps * (bytes of its share)); march-c's parallel schedule
	// makes one background's march a March C- core (march.c: 2 sweeps
	// more), the others equal sweeps.
	uint32_t shared_sweeps;
	// The test waits bitfade= seconds between its fills and its checks
	// (bit-fade): a pass runs its halves, mt_fade_fill and mt_fade_check,
	// in retention windows it shares with other work (lib/run/schedule.h).
	bool retention;
};

// bit-fade's halves, indexed by the pattern (0: zeros, 1: ones), named
// "bit-fade" in every line: a fill (1 sweep), and a check (1 sweep) that
// the caller starts bitfade= seconds after the fill ended.
extern const struct mt_test mt_fade_fill[2], mt_fade_check[2];

// Every test, in the order of the default pass. Names are unique.
extern const struct mt_test mt_tests[];
extern const size_t mt_ntests;

// The test called exactly name[0..len) (name need not be NUL-terminated),
// or NULL when there is none.
const struct mt_test *mt_find(const char *name, size_t len);

#endif
