// SPDX-License-Identifier: GPL-2.0-or-later
// The standard's per-version numbers: how many codewords a symbol holds, how
// they split into data and error correction (Table 9), where the alignment
// patterns sit (Annex E) and how long byte mode's count field is (Table 3).
// Internal to lib/qr/; every function takes a version in 1-40 and a level
// in range, which the caller has checked.
#ifndef RAMSIFT_LIB_QR_TABLES_H
#define RAMSIFT_LIB_QR_TABLES_H

#include <stdint.h>

#include "qr/qr.h"

// Most error-correction codewords in one block, over all versions and levels.
#define QR_EC_PER_BLOCK_MAX 30
// Most alignment-pattern centres on one axis (versions 35-40).
#define QR_ALIGN_MAX 7

// Modules that carry codewords: all but the function patterns, format and
// version information (some of them are remainder bits, see 7.7.3).
int qr_data_modules(int version);

// Codewords of a symbol: data and error correction (qr_data_modules() / 8).
int qr_total_codewords(int version);

// Error-correction blocks at level, and error-correction codewords in each.
int qr_block_count(int version, enum qr_level level);
int qr_ec_per_block(int version, enum qr_level level);

// Data codewords of the whole symbol at level.
int qr_data_codewords(int version, enum qr_level level);

// Bits of byte mode's character count indicator: 8 or 16.
int qr_count_bits(int version);

// Write the row/column coordinates of the alignment-pattern centres, in
// increasing order, to pos[0..n) and return n: 0 for version 1, else 2-7.
int qr_alignment_centres(int version, uint8_t pos[QR_ALIGN_MAX]);

#endif
