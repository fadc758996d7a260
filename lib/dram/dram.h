// SPDX-License-Identifier: GPL-2.0-or-later
// The DRAM's geometry as ramsift learns it (lib/dram/learn.c) and uses it
// (lib/dram/decode.c, lib/dram/diagnose.c): the memory controller's XOR bank
// functions and the row bits, over physical addresses. The image, the host
// tool ramsift-dram and the unit tests share these definitions.
#ifndef RAMSIFT_LIB_DRAM_DRAM_H
#define RAMSIFT_LIB_DRAM_DRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// At most this many bank functions (channel, rank, bank group, bank bits).
#define DRAM_MAX_FUNCS 8

// A learned (or given) mapping. Each function is a mask of physical-address
// bits; its value for an address is the parity of (addr & mask). Two
// addresses are in the same bank when every function has the same value for
// both; the row is the address bits row_lo..row_hi (inclusive). The column
// is what is left below the row once the bank functions' lowest bits are
// taken out (dram_decode()).
struct dram_map {
	uint64_t funcs[DRAM_MAX_FUNCS];
	unsigned nfuncs;
	unsigned row_lo, row_hi;
};

// An address in DRAM terms under a map.
struct dram_addr {
	uint32_t bank;		// bit i: function i's value
	uint64_t row;		// bits row_lo..row_hi, shifted down
	uint64_t column;	// the bits below row_lo not used as a bank bit, packed
};

// The validation of a mapping on fresh random pairs: measured conflicts
// (timing above the threshold) against the map's predicted ones
// (same bank, other row).
struct dram_validation {
	uint32_t pairs;
	uint32_t measured;	// pairs timed as conflicts
	uint32_t predicted;	// pairs the map says conflict
	uint32_t both;		// measured and predicted
};

// Precision and recall in thousandths (both/predicted, both/measured); 0
// when the denominator is 0.
uint32_t dram_precision_milli(const struct dram_validation *v);
uint32_t dram_recall_milli(const struct dram_validation *v);

// A mapping is trusted when both are at least this (0.9).
#define DRAM_TRUST_MILLI 900

// Decode addr under map into *out.
void dram_decode(const struct dram_map *map, uint64_t addr, struct dram_addr *out);

#endif
