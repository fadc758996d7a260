// SPDX-License-Identifier: GPL-2.0-or-later
// What the failing addresses of a run say about the module, in DRAM terms:
// isolated cells, one row, one column, one bank, several banks or the whole
// module, and whether excluding them is enough or the module should go. The
// image prints it as the `diagnosis:` line and puts the fields in the JSON.
//
// A cell here is one failing 64-bit word. The rules, in this order, over the
// distinct cells (n):
//   none    n == 0.
//   column  one column of one bank holds at least DRAM_DIAG_LINE_MIN cells
//           (in as many rows) and at least 3/4 of all cells. Replace: a
//           column crosses every row of its bank (a bitline or sense
//           amplifier), far too many pages to exclude, and it grows.
//   row     one row of one bank holds at least DRAM_DIAG_LINE_MIN cells and
//           at least 3/4 of all cells. Safe to exclude.
//   cells   the cells lie in at most DRAM_DIAG_FEW_ROWS rows: isolated weak
//           cells, or a few rows. Safe to exclude.
//   bank    more rows than that, and one bank holds at least 3/4 of the
//           cells. Replace.
//   module  the cells are in at least half of the map's banks (a whole
//           channel or rank of two is half). Replace.
//   banks   otherwise: more than one bank, fewer than half. Replace.
// The 3/4 leaves room for a few stray cells beside the fault itself.
//
// With no map (none learned, or it failed its validation) the diagnosis
// reads the address bits against a guessed geometry that holds for the
// usual XOR maps, whose rows start at bit 16 to 19 and whose functions take
// as lowest bit (pivot, decode.h) bit 6 or 7 or one from 13 up: a row lies
// within one aligned MiB, and address bits 3-6 and 8-12 are column bits.
// So a "row" is the cells of one MiB, and a "column" the cells sharing
// those bits; the bank is unknown. What it cannot tell apart: one row from
// several rows within the same MiB; a column from the module when a
// function with row bits has its pivot in bits 3-12 (then the column's
// cells differ there, row to row); and one bank, several banks and the
// whole module from each other, all of which it calls "module" (replace
// the module, whichever it is).
#ifndef RAMSIFT_LIB_DRAM_DIAGNOSE_H
#define RAMSIFT_LIB_DRAM_DIAGNOSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dram/dram.h"

// A row or a column has at least this many cells to count as one.
#define DRAM_DIAG_LINE_MIN 4
// Cells in at most this many rows are isolated: excluding them costs a few
// dozen pages at most.
#define DRAM_DIAG_FEW_ROWS 16
// With no map: a row is within one aligned block of 1 << this bytes, and
// the column is the address bits of this mask.
#define DRAM_DIAG_GUESS_ROW_SHIFT 20
#define DRAM_DIAG_GUESS_COLUMN_MASK 0x1f78ull

enum dram_shape {
	DRAM_SHAPE_NONE,
	DRAM_SHAPE_CELLS,
	DRAM_SHAPE_ROW,
	DRAM_SHAPE_COLUMN,
	DRAM_SHAPE_BANK,
	DRAM_SHAPE_BANKS,
	DRAM_SHAPE_MODULE,
};

struct dram_diagnosis {
	enum dram_shape shape;
	bool mapped;            // false: from address bits, the guessed geometry
	bool replace;           // replace the module (else: safe to exclude)
	uint32_t cells;         // distinct failing words
	uint32_t rows;          // distinct rows (no map: MiB blocks)
	uint32_t columns;       // distinct columns of a bank
	uint32_t banks;         // distinct banks (no map: 0, unknown)
	uint32_t map_banks;     // banks of the map: 1 << nfuncs (no map: 0)
	// The row, column or bank concerned (shapes row, column and bank; 0
	// otherwise), as dram_decode() gives them (no map: the row is the MiB's
	// number, addr >> 20, and the column the address bits of
	// DRAM_DIAG_GUESS_COLUMN_MASK in place).
	uint32_t bank;
	uint64_t row;
	uint64_t column;
	uint32_t in_shape;      // cells in that row, column or bank
	uint32_t shape_rows;    // rows of that column or bank
	// The bank functions (bit i: function i) with one value in every
	// cell, and those values. Across banks they tell which channel or rank
	// failed, so which module; the words name them for banks and module.
	// 0 with no map.
	uint32_t fixed_funcs, fixed_values;
};

// Diagnose the failing words at addrs[0..n) (physical byte addresses; the
// low 3 bits are ignored; duplicates allowed) under map, or from the
// address bits when map is NULL. addrs is rewritten: its first out->cells
// entries become the distinct word addresses, ascending. scratch holds n
// entries, its contents lost. O(n log n) time, no allocation. Requires
// n < 2^32 and addresses below 2^52 (x86's physical limit).
void dram_diagnose(uint64_t *addrs, size_t n, uint64_t *scratch, const struct dram_map *map,
		   struct dram_diagnosis *out);

// The shape's name for machines: "none", "cells", "row", "column", "bank",
// "banks" or "module".
const char *dram_shape_name(enum dram_shape shape);

// Write the diagnosis in words into buf of size bytes (fmt_snprintf's
// semantics: always NUL-terminated when size > 0; returns the full
// length), e.g. "3 cells in 3 rows: safe to exclude", "a row of bank 5
// (row 0x1a2b, 37 cells): safe to exclude", "a column of bank 5 (column
// 0x3f8, 1024 rows): replace the module", "the module (16 of 32 banks,
// 900 rows, 2000 cells, all with bank function 0 = 1): replace the
// module"; with no map followed by
// " (DRAM mapping unknown: from address bits)".
int dram_diagnosis_format(const struct dram_diagnosis *d, char *buf, size_t size);

#endif
