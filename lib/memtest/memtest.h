// SPDX-License-Identifier: GPL-2.0-or-later
// The memory tests: what a caller gives a test (struct mt_ctx), what a test
// reports back (callbacks), and the one table of tests that the command line,
// the run loop and the coverage simulator all read. A test is a pure function
// of its context: it touches only the listed physical ranges (through
// memrw.h), keeps no state outside its stack, never prints, and reports each
// failing 64-bit word through the error callback. Several CPUs may run tests
// at once, each with its own context and its own ranges.
#ifndef RAMSIFT_LIB_MEMTEST_MEMTEST_H
#define RAMSIFT_LIB_MEMTEST_MEMTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
typedef bool (*mt_sync_fn)(void *cb_ctx, bool flush);

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
	bool parallel;           // false: one CPU runs it over all ranges (address-walk)
};

// Every test, in the order of the default pass. Names are unique.
extern const struct mt_test mt_tests[];
extern const size_t mt_ntests;

// The test called exactly name[0..len) (name need not be NUL-terminated),
// or NULL when there is none.
const struct mt_test *mt_find(const char *name, size_t len);

#endif
