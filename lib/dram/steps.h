// SPDX-License-Identifier: GPL-2.0-or-later
// The learning's middle steps, each over a started probe (probe.h) whose
// threshold is set: grouping a pool of addresses into same-bank sets and
// solving the bank functions (group.c), and finding the row bits (rows.c).
// Each returns DRAM_LEARNED when it found what it looks for, or the outcome
// that ends the learning (DRAM_NO_SOLUTION, DRAM_OUT_OF_TIME).
#ifndef RAMSIFT_LIB_DRAM_STEPS_H
#define RAMSIFT_LIB_DRAM_STEPS_H

#include <stdint.h>

#include "dram/probe.h"

// The address bits that vary over pool[0..n): the only bits learnable.
uint64_t steps_vary(const uint64_t *pool, uint32_t n);

// Take bases from pool[0..n) (reordered), time each against the rest, keep
// confirmed conflicts as same-bank sets, and set map->funcs and nfuncs to
// the lowest-weight basis of the functions of the vary bits that are
// constant within every set.
enum dram_outcome group_solve(struct probe *p, uint64_t *pool, uint32_t n, uint64_t vary,
			      struct dram_map *map);

// Under map's functions, set map->row_lo and row_hi: the vary bits whose
// flip (its bank change undone by lower non-row bits) makes a conflict,
// tested on bases from pool[0..n).
enum dram_outcome rows_find(struct probe *p, const uint64_t *pool, uint32_t n, uint64_t vary,
			    struct dram_map *map);

#endif
