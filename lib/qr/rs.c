// SPDX-License-Identifier: GPL-2.0-or-later
// Reed-Solomon over GF(256) (rs.h). Multiplication shifts and adds instead of
// using log tables: a version-40 symbol needs about 10^5 products, nothing
// next to scoring its masks, and no table has to be built or stored.
#include "rs.h"

#define GF_POLY 0x11d   // 7.5.2: the field's primitive polynomial

uint8_t qr_gf_mul(uint8_t a, uint8_t b)
{
	unsigned product = 0;
	unsigned x = a;

	for (; b != 0; b >>= 1) {
		if (b & 1)
			product ^= x;
		x <<= 1;
		if (x & 0x100)
			x ^= GF_POLY;
	}
	return (uint8_t)product;
}

void qr_rs_generator(int degree, uint8_t *gen)
{
	// Multiply (x - alpha^0)(x - alpha^1)... one factor at a time (in
	// GF(2^8) minus is plus). Before factor k, gen[0..k) holds a product
	// of degree k without its leading 1; times (x + root) it becomes
	// gen[i] + root * gen[i - 1], where gen[-1] is that leading 1. From
	// the top down, so each gen[i - 1] read is still the old one.
	uint8_t root = 1;

	for (int k = 0; k < degree; k++) {
		for (int i = k; i >= 0; i--) {
			uint8_t above = i == 0 ? 1 : gen[i - 1];
			uint8_t own = i == k ? 0 : gen[i];

			gen[i] = own ^ qr_gf_mul(above, root);
		}
		root = qr_gf_mul(root, 2);
	}
}

void qr_rs_remainder(const uint8_t *data, size_t len,
		     const uint8_t *gen, int degree, uint8_t *ec)
{
	// Long division as a shift register: ec is the running remainder.
	for (int i = 0; i < degree; i++)
		ec[i] = 0;
	for (size_t n = 0; n < len; n++) {
		uint8_t factor = data[n] ^ ec[0];

		for (int i = 0; i + 1 < degree; i++)
			ec[i] = ec[i + 1] ^ qr_gf_mul(gen[i], factor);
		ec[degree - 1] = qr_gf_mul(gen[degree - 1], factor);
	}
}
