// SPDX-License-Identifier: GPL-2.0-or-later
// What the learning's steps share: the machine, the budget, the random
// addresses and the timing of pairs. A measurement is the minimum over
// lim->rounds rounds, which drops the delays an interrupt or a refresh adds
// to some rounds. Once the measurement cap is reached or the deadline has
// passed, the probe is stopped: every further measurement returns 0 at once
// and each step checks `stopped` and gives up.
#ifndef RAMSIFT_LIB_DRAM_PROBE_H
#define RAMSIFT_LIB_DRAM_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "dram/learn.h"

struct probe {
	const struct dram_machine *m;
	const struct dram_limits *lim;
	uint64_t rng;		// splitmix64 state
	uint64_t total;		// bytes in m->ranges
	uint32_t threshold;	// a measurement above it is a conflict
	uint32_t measurements;
	bool stopped;
};

// Start a probe over m within lim from seed; *measurements so far.
void probe_init(struct probe *p, const struct dram_machine *m, const struct dram_limits *lim,
		uint64_t seed, uint32_t measurements);

// The next pseudo-random 64-bit number (splitmix64: Steele, Lea, Flood 2014).
uint64_t probe_random(struct probe *p);

// A random 64-byte-aligned address in the ranges (p->total must be > 0).
uint64_t probe_address(struct probe *p);

// True when the 64 bytes at addr lie in the ranges.
bool probe_readable(const struct probe *p, uint64_t addr);

// The latency of the pair a, b in ticks (0 once stopped).
uint32_t probe_time(struct probe *p, uint64_t a, uint64_t b);

// True when the pair a, b measures as a row-buffer conflict.
bool probe_conflict(struct probe *p, uint64_t a, uint64_t b);

// The bank of addr under funcs[0..n): bit i is function i's parity.
uint32_t probe_bank(const uint64_t *funcs, unsigned n, uint64_t addr);

#endif
