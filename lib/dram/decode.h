// SPDX-License-Identifier: GPL-2.0-or-later
// From DRAM terms back to physical addresses under a struct dram_map: the
// inverse of dram_decode() (declared in dram.h, defined in decode.c), and
// the same column of the same bank some rows away, which the row hammer
// test needs to find a victim's aggressors.
//
// The column, precisely: the map's functions are brought to echelon form
// over the address bits below row_lo, from the lowest bit up (GF(2)
// elimination); each reduced function that still has a bit below row_lo
// takes its lowest as its pivot. The column is the bits below row_lo that
// are no pivot, packed from bit 0. For the usual maps, where each
// function's lowest bit is in no other function, the pivots are the
// functions' lowest bits. A pivot is what makes a bank value reachable in
// any row: setting it fixes the parity of its function.
//
// Address bits above row_hi belong to no field: dram_decode() ignores them,
// dram_encode() leaves them 0 and dram_row_neighbour() keeps them.
#ifndef RAMSIFT_LIB_DRAM_DECODE_H
#define RAMSIFT_LIB_DRAM_DECODE_H

#include <stdbool.h>
#include <stdint.h>

#include "dram/dram.h"

// The number of column bits under map: row_lo less the pivots. Requires
// map->nfuncs <= DRAM_MAX_FUNCS and row_lo <= row_hi <= 63, as every
// function here does.
unsigned dram_column_bits(const struct dram_map *map);

// Store in *addr the physical address whose dram_decode() is *a, with the
// bits above row_hi 0. Returns false, leaving *addr alone, when there is
// none: a->row wider than row_lo..row_hi, a->column wider than
// dram_column_bits(), a->bank with bits at or above map->nfuncs, or a bank
// value that some function made of row (or higher) bits alone, once
// reduced, cannot take in that row.
bool dram_encode(const struct dram_map *map, const struct dram_addr *a, uint64_t *addr);

// Store in *out the physical address of the same bank and column as addr,
// in row (addr's row + d), with addr's bits above row_hi. Returns false,
// leaving *out alone, when that row is outside row_lo..row_hi (below 0 or
// past the top), when no address has that bank in that row (see
// dram_encode()), or when the address is not below limit (bytes, the end of
// the RAM that may be touched).
bool dram_row_neighbour(const struct dram_map *map, uint64_t addr, int64_t d,
			uint64_t limit, uint64_t *out);

#endif
