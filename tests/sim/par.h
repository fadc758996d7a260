// SPDX-License-Identifier: GPL-2.0-or-later
// The parallel schedule on the simulated memory: a test's ranges split into
// shares as the image splits them (cuts at multiples of a block near each
// 1/n of the bytes), each share run by its own instance of the test with a
// sync callback, the instances taking turns on one thread (coroutines with
// their own stacks) in a chosen interleaving between the barriers. Real CPUs
// run their shares at once, so the relative order of two words of different
// shares within a phase is unknown; the three orders below give a fault
// between two shares both orders, and the interleaved one lockstep at a
// grain of a few words. Host-only, one run at a time.
#ifndef RAMSIFT_TESTS_SIM_PAR_H
#define RAMSIFT_TESTS_SIM_PAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "memtest/memtest.h"
#include "range.h"

// Simulated CPUs a run may have.
#define PAR_MAX_CPUS 16

// Ranges the shares of one run may hold in all.
#define PAR_MAX_RANGES 64

// Accesses a CPU makes before the interleaved order passes the turn on
// (2 per word in a March element: about two words).
#define PAR_TURN_ACCESSES 4

enum par_order {
	PAR_ASCENDING,  // each phase: CPU 0's share whole, then CPU 1's, ...
	PAR_DESCENDING, // each phase: CPU n-1's share whole, then n-2's, ...
	PAR_INTERLEAVED, // each phase: round robin from CPU 0, a turn every
			 // PAR_TURN_ACCESSES accesses, so the CPUs progress in
			 // lockstep
	PAR_NORDERS
};

// How a flushing barrier flushes: each CPU its own cache (what memaccess.h
// requires), or only the CPU that arrives last (what it forbids: the
// simulated caches then show the other CPUs' stores unflushed).
enum par_flush { PAR_FLUSH_EACH, PAR_FLUSH_LAST };

// A run's setup. The base context gives the ranges (sorted, disjoint), the
// callbacks (called for every CPU with base's cb_ctx; par_cpu() says which
// CPU calls), seed and bitfade_s; its sync, share and nshares are ignored.
struct par_setup {
	const struct mt_ctx *base;
	unsigned ncpus;        // 1..PAR_MAX_CPUS
	uint64_t block;        // the shares' cuts are multiples of it (bytes)
	unsigned rotation;     // CPU k runs share (k + rotation) mod ncpus
	enum par_order order;
	enum par_flush flush;
	// Tell every CPU share 0 of 1: the test then orders nothing across
	// shares (march-c without its parallel schedule), for comparison.
	bool plain;
};

// What a run did, per CPU (indexed by CPU).
struct par_result {
	bool ran[PAR_MAX_CPUS];       // its share was not empty: it ran
	bool returned[PAR_MAX_CPUS];  // what its run returned
	unsigned syncs[PAR_MAX_CPUS]; // sync calls
	unsigned flushes[PAR_MAX_CPUS];
	uint64_t progress[PAR_MAX_CPUS]; // bytes reported
	uint64_t bytes[PAR_MAX_CPUS];    // bytes of its share
	unsigned share[PAR_MAX_CPUS];    // which share it ran
	unsigned nrunning;               // CPUs that ran (nshares)
	bool all_returned;               // every CPU that ran returned true
};

// Split r[0..n) into parts shares: cut addresses are the multiples of block
// nearest to where 1/parts, 2/parts, ... of the bytes lie (never going
// backwards, so a small total leaves shares empty); share j is r cut to
// [cut j, cut j+1). Writes the ranges to out (cap of them) and share j's
// first index and count to first[j], count[j]. Returns the ranges written, or
// 0 when out is too small.
size_t par_split(const struct range *r, size_t n, unsigned parts,
		 uint64_t block, struct range *out, size_t cap, size_t *first,
		 size_t *count);

// Run test t as set up: the shares as par_split makes them, CPU k over share
// (k + rotation) mod ncpus; a CPU whose share is empty does not run, and the
// others get nshares = how many run and share = their rank among them in
// address order. The base context's sleep is called with the seconds by
// which the CPU's wait ends later than the latest wait so far in the phase
// (so waits at one barrier overlap, as on hardware: one 90 s wait for all).
// A false from progress or sleep aborts: every other CPU's next sync returns
// false. Fills res and returns res->all_returned.
bool par_run(const struct mt_test *t, const struct par_setup *setup,
	     struct par_result *res);

// The CPU whose code runs now (during par_run), else 0.
unsigned par_cpu(void);

#endif
