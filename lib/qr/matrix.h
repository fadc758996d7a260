// SPDX-License-Identifier: GPL-2.0-or-later
// The module grid of a symbol being built: one bit per module, row by row,
// set for dark. Draws the function patterns (7.3), places the codewords in
// the two-column zigzag (7.7.3) and writes the format information (7.9).
// Internal to lib/qr/.
#ifndef RAMSIFT_LIB_QR_MATRIX_H
#define RAMSIFT_LIB_QR_MATRIX_H

#include <stdbool.h>
#include <stdint.h>

#include "qr/qr.h"
#include "qr/tables.h"

struct qr_grid {
	uint8_t *bits;          // (size * size + 7) / 8 bytes
	int version;
	int size;               // QR_SIZE(version)
	int align_count;        // alignment centres on each axis
	uint8_t align[QR_ALIGN_MAX];
	// For each coordinate, the alignment centre within 2 modules, or -1:
	// looked up for every module a mask visits.
	int8_t align_at[QR_SIZE(QR_VERSION_MAX)];
};

// Set up g over bits for version (1-40) and clear every module to light.
void qr_grid_init(struct qr_grid *g, uint8_t *bits, int version);

// The module at column x, row y (both in 0..size) of a grid stored as bits.
static inline bool qr_bits_get(const uint8_t *bits, int size, int x, int y)
{
	int i = y * size + x;

	return bits[i >> 3] >> (i & 7) & 1;
}

void qr_grid_set(struct qr_grid *g, int x, int y, bool dark);
void qr_grid_flip(struct qr_grid *g, int x, int y);

// True when (x, y) belongs to a function pattern or to the format or
// version information: the modules that carry no codeword and no mask.
bool qr_is_function(const struct qr_grid *g, int x, int y);

// Set in map (one bit per module, laid out as the grid's bits) the modules
// qr_is_function() names, clear the others.
void qr_function_map(const struct qr_grid *g, uint8_t *map);

// Draw finders, separators, timing, alignment patterns, the dark module and
// the version information on a cleared grid. The format information is left
// light, for qr_draw_format().
void qr_draw_function_patterns(struct qr_grid *g);

// Write both copies of the format information for level and mask.
void qr_draw_format(struct qr_grid *g, enum qr_level level, int mask);

// Place count codewords from cw, most significant bit first, in the modules
// that qr_is_function() leaves free; the remainder bits after them stay
// light. count must be qr_total_codewords(g->version).
void qr_place_codewords(struct qr_grid *g, const uint8_t *cw, int count);

#endif
