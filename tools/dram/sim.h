// SPDX-License-Identifier: GPL-2.0-or-later
// A simulated memory controller for the host (never linked into the image):
// a mapping (XOR bank functions, row bits) over the physical addresses
// [0, size), and the latency of reading two addresses alternately after a
// flush, as lib/dram's timing callback sees it: a row hit is fastest, two
// banks slower, a row-buffer conflict slowest, plus a small jitter and, in
// noise percent of the rounds, a delay (an interrupt, a refresh). Every row
// activation goes through a hook, where a disturbance (row hammer) model
// can count them later.
#ifndef RAMSIFT_TOOLS_DRAM_SIM_H
#define RAMSIFT_TOOLS_DRAM_SIM_H

#include <stdint.h>

#include "dram/dram.h"

// Ticks of one round by how the pair meets the banks (an alternation of
// SIM_ALTERNATIONS reads of each, averaged, as on real hardware).
#define SIM_ROW_HIT 180
#define SIM_OTHER_BANK 200
#define SIM_CONFLICT 260
#define SIM_JITTER 8		// uniform 0..7 on every round
#define SIM_DELAY 200		// a disturbed round: uniform 0..199 more
#define SIM_ALTERNATIONS 4

// A MAP file's model (tools/dram/mapfile.h).
struct sim_config {
	struct dram_map map;
	uint64_t size;		// bytes: the sim covers [0, size)
	unsigned noise;		// percent of rounds delayed, 0..100
	uint32_t hammer;	// for the row hammer model (issue #30); kept only
	uint32_t victims;
};

// Called for each row activation: count of them in bank at row.
typedef void (*sim_activate_fn)(void *ctx, uint32_t bank, uint64_t row, uint32_t count);

struct sim {
	struct sim_config cfg;
	uint64_t rng;
	uint64_t rounds;	// time_pair calls so far
	sim_activate_fn activate;	// NULL: none
	void *activate_ctx;
};

// Start s on cfg's model, its noise drawn from seed.
void sim_init(struct sim *s, const struct sim_config *cfg, uint64_t seed);

// The bank (bit i: function i) and the row of addr under the model.
uint32_t sim_bank(const struct sim *s, uint64_t addr);
uint64_t sim_row(const struct sim *s, uint64_t addr);

// lib/dram's time_pair callback (ctx: a struct sim): one round's ticks.
uint32_t sim_time_pair(void *ctx, uint64_t a, uint64_t b);

#endif
