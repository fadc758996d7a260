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

#include <stdbool.h>
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

// ---- The disturbance (row hammer) model, issue #30 ----
// Cells of some rows leak when a neighbouring row (row - 1 or row + 1, same
// bank, under the model's map) is activated at least cfg.hammer times
// within one 64 ms refresh window of simulated time: cfg.victims such cells,
// placed pseudo-randomly from a seed in rows that have both neighbours
// below size, each on one bit, leaking from its charged value only (a true
// or an anti cell), so that only one of the two data polarities shows it.
// Memory holds, per bank and row, the value last written there (lib/dram's
// hammer test writes a bank's part of a row with one value); a row never
// written reads as SIM_UNWRITTEN. Only the hammer callback's reads
// activate rows and take time: each read SIM_HAMMER_NS, and it activates
// when its bank has another row open, so aggressors not sharing a bank
// with another aggressor hardly activate at all. Ticks are nanoseconds
// (a 1 GHz TSC). Memory for SIM_HAMMER_ROWS rows of data is kept: enough
// for any one site of the test, not for a whole pass.

// One read: tRC, the row cycle (about 46 ns on DDR4-2400, JESD79-4),
// rounded up for the hammer loop's clflush and fence. Double-sided, a
// window then holds 64 ms / (2 * 50 ns) = 640 K activations per aggressor.
#define SIM_HAMMER_NS 50
#define SIM_TSC_HZ 1000000000ull
#define SIM_WINDOW_NS 64000000ull
#define SIM_MAX_VICTIMS 1024
#define SIM_HAMMER_ROWS 64
#define SIM_UNWRITTEN 0x5a5a5a5a5a5a5a5aull

struct sim_cell {
	uint64_t addr;		// its 64-bit word
	uint64_t bit;		// its bit in the word, one bit set
	uint64_t charged;	// the bit's value that leaks: 0 or bit
	uint32_t bank;
	uint64_t row;
	uint64_t flipped;	// its row's data generation when it flipped; 0: never
	bool reported;		// sim_hammer_report() saw it
};

struct sim_row_data {
	uint32_t bank;
	uint64_t row;
	uint64_t value;
	uint64_t gen;		// a new one at every write: older flips are gone
};

struct sim_row_acts {
	uint32_t bank;
	uint64_t row;
	uint64_t count;		// activations in the current window
};

struct sim_hammer {
	const struct sim *s;
	uint64_t now;		// ns of simulated time
	struct sim_cell cells[SIM_MAX_VICTIMS];	// by bank, row, address
	unsigned ncells;
	struct sim_row_data data[SIM_HAMMER_ROWS];
	unsigned ndata, next_data;	// next_data: the slot to reuse
	unsigned last;		// data[last] was read last
	uint64_t gen;
	struct sim_row_acts acts[SIM_HAMMER_ROWS];
	unsigned nacts;
	uint64_t open_row[1u << DRAM_MAX_FUNCS];	// row + 1 open in each bank, 0 none
	uint32_t strays;	// flips reported that are no victim cell's
};

// Start h over s's model (s must outlive h): its victim cells placed from
// seed. Returns false when fewer than s->cfg.victims cells (at most
// SIM_MAX_VICTIMS) fit in the rows with neighbours.
bool sim_hammer_init(struct sim_hammer *h, const struct sim *s, uint64_t seed);

// lib/dram's hammer test callbacks (hammer.h), ctx a struct sim_hammer.
void sim_hammer_fill(void *ctx, uint64_t start, uint64_t end, uint64_t value);
uint64_t sim_hammer_read(void *ctx, uint64_t addr);
uint64_t sim_hammer_activate(void *ctx, const uint64_t *aggr, unsigned naggr,
			     uint32_t count, uint64_t hold_ticks);

// The test's error (and vulnerable) callback: marks the victim cells the
// flip shows as reported, or counts a stray flip (a bug: the model flips
// only victim cells).
void sim_hammer_report(void *ctx, uint64_t addr, uint64_t expected, uint64_t actual);

// The victim cells reported so far.
unsigned sim_hammer_found(const struct sim_hammer *h);

#endif
