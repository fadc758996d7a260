// SPDX-License-Identifier: GPL-2.0-or-later
// The eight data masks (7.8.2, Table 10) and the penalty score that picks one
// (7.8.3.1, Table 11). Internal to lib/qr/.
#ifndef RAMSIFT_LIB_QR_MASK_H
#define RAMSIFT_LIB_QR_MASK_H

#include <stdbool.h>

#include "qr/matrix.h"

// True when mask (0-7) flips the module at column x, row y.
bool qr_mask_flips(int mask, int x, int y);

// Flip the modules that mask selects, except those set in function_map
// (qr_function_map's). Applying the same mask again undoes it.
void qr_apply_mask(struct qr_grid *g, int mask, const uint8_t *function_map);

// The penalty score of the whole grid as it stands, format information
// included; lower is better. The four features of Table 11:
//   N1  each run of 5 + i modules of one colour in a row or column: 3 + i;
//   N2  each 2x2 block of one colour: 3 (a m x n block scores 3(m-1)(n-1));
//   N3  each dark-light-dark-light-dark run of widths 1:1:3:1:1 (any unit
//       w) in a row or column with a light run of at least 4w before or
//       after it, the light outside the symbol counting: 40;
//   N4  10 for every full 5 % the dark share is away from 50 %.
int qr_penalty(const struct qr_grid *g);

#endif
