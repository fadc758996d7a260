// SPDX-License-Identifier: GPL-2.0-or-later
// Learning the DRAM's geometry from row-buffer-conflict timing, the DRAMA
// method (Pessl et al., USENIX Security 2016): two addresses in the same
// bank but in different rows take longer to read alternately than any other
// pair. The machine supplies the timing through a callback (clflush, fences
// and reads are its business); this code picks the pairs, finds the conflict
// threshold, groups addresses into same-bank sets, solves the XOR bank
// functions over GF(2), finds the row bits and validates the result on
// fresh pairs, in bounded time and in caller-supplied memory.
#ifndef RAMSIFT_LIB_DRAM_LEARN_H
#define RAMSIFT_LIB_DRAM_LEARN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dram/dram.h"
#include "range.h"

// The machine: its timing, its clock and the memory the learning may read.
struct dram_machine {
	// One round: flush the cache lines at physical addresses a and b,
	// fence, read a and b alternately a fixed number of times, return the
	// time it took in ticks (any unit, the same every call). a and b lie
	// in ranges, 64-byte aligned, a != b.
	uint32_t (*time_pair)(void *ctx, uint64_t a, uint64_t b);
	// True once the learning must stop; NULL: no deadline.
	bool (*expired)(void *ctx);
	void *ctx;
	// The physical memory it may read: sorted, disjoint, 64-byte aligned.
	const struct range *ranges;
	size_t nranges;
};

// What the learning may spend. A measurement times one pair: the minimum
// over `rounds` calls of time_pair.
struct dram_limits {
	uint32_t rounds;		// 1..64
	uint32_t max_measurements;	// the cap over all steps
	uint32_t hist_pairs;		// random pairs for the threshold, 64..65536
	uint32_t pool;			// addresses grouped into sets, 64..65536
	uint32_t validation_pairs;	// pairs for the validation, >= 64
};

// About 10500 measurements when all goes well: well under a second on a PC
// or in simulation; the cap bounds a noisy machine.
#define DRAM_LIMITS_DEFAULT \
	{ .rounds = 4, .max_measurements = 250000, .hist_pairs = 4000, \
	  .pool = 4096, .validation_pairs = 2000 }

enum dram_outcome {
	DRAM_LEARNED,		// map validated: precision and recall >= 0.9
	DRAM_NO_SIGNAL,		// no bimodal latency: conflicts not visible
	DRAM_NO_SOLUTION,	// the sets gave no consistent functions or rows
	DRAM_REJECTED,		// a candidate failed its validation
	DRAM_OUT_OF_TIME,	// the deadline or the measurement cap came first
	DRAM_TOO_LITTLE_MEMORY,	// ranges or scratch too small
	DRAM_BAD_LIMITS,	// a limit out of its range
};

// What dram_learn() found. map is the learned mapping for DRAM_LEARNED and
// empty (nfuncs 0) otherwise, a rejected candidate included; validation
// holds the figures for DRAM_LEARNED and DRAM_REJECTED.
struct dram_result {
	enum dram_outcome outcome;
	struct dram_map map;
	struct dram_validation validation;
	uint32_t threshold;	// ticks: above it a pair conflicts (0: none found)
	uint32_t measurements;	// measurements made, all steps
};

// The scratch memory dram_learn() needs under lim, in bytes.
size_t dram_scratch_size(const struct dram_limits *lim);

// Learn the mapping of machine m within lim, pseudo-randomly from seed (the
// same seed and timings give the same result), using scratch[0..size) (at
// least dram_scratch_size(lim) bytes, 8-byte aligned) as its only memory.
// Writes *out; never returns a map its validation rejects.
void dram_learn(const struct dram_machine *m, const struct dram_limits *lim, uint64_t seed,
		void *scratch, size_t size, struct dram_result *out);

// Validate map against m: lim->validation_pairs fresh pairs from seed,
// timed against threshold: an eighth at random, an eighth moved into one
// bank under the map, a quarter near each other (rows differing in row_lo
// at most) in one bank, half in banks one function apart (where a function
// too many shows). Writes *v, adds the measurements made to
// *measurements, returns whether both precision and recall reach
// DRAM_TRUST_MILLI (false also when the time ran out).
bool dram_validate(const struct dram_machine *m, const struct dram_limits *lim, uint64_t seed,
		   const struct dram_map *map, uint32_t threshold, struct dram_validation *v,
		   uint32_t *measurements);

// The outcome in words for a person, e.g. "no timing signal: ...".
const char *dram_outcome_text(enum dram_outcome o);

// The outcome's name for machines (the JSON's dram.status): "learned",
// "no-signal", "no-solution", "rejected", "out-of-time",
// "too-little-memory", "bad-limits".
const char *dram_outcome_name(enum dram_outcome o);

#endif
