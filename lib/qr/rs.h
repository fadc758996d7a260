// SPDX-License-Identifier: GPL-2.0-or-later
// Reed-Solomon error correction for QR codes (7.5.2): arithmetic in GF(256)
// modulo x^8 + x^4 + x^3 + x^2 + 1 (0x11d), generator polynomials with roots
// alpha^0 .. alpha^(degree-1), alpha = 2. Internal to lib/qr/.
#ifndef RAMSIFT_LIB_QR_RS_H
#define RAMSIFT_LIB_QR_RS_H

#include <stddef.h>
#include <stdint.h>

// The product of a and b in GF(256).
uint8_t qr_gf_mul(uint8_t a, uint8_t b);

// The generator polynomial of the given degree (1-30): its coefficients
// after the leading 1, highest power first, in gen[0..degree).
void qr_rs_generator(int degree, uint8_t *gen);

// The error-correction codewords of the len data codewords at data: the
// remainder of data(x) * x^degree divided by gen (from qr_rs_generator with
// the same degree), highest power first, in ec[0..degree).
void qr_rs_remainder(const uint8_t *data, size_t len,
		     const uint8_t *gen, int degree, uint8_t *ec);

#endif
