// SPDX-License-Identifier: GPL-2.0-or-later
// Reed-Solomon over GF(256) (rs.h). Products through the field's exponent
// and logarithm tables: a version-40 symbol takes about 10^5 of them.
#include <stdbool.h>

#include "qr/rs.h"

// The field's tables, built once from its primitive polynomial
// x^8 + x^4 + x^3 + x^2 + 1 (0x11d, 7.5.2) with alpha = 2: exp[i] is
// alpha^i for i = 0..254, log[alpha^i] is i (the logarithm of 0, never
// looked up, stays 0).
static struct {
	bool built;
	uint8_t exp[255], log[256];
} gf;

static void gf_build(void)
{
	unsigned x = 1;

	for (int i = 0; i < 255; i++) {
		gf.exp[i] = (uint8_t)x;
		gf.log[x] = (uint8_t)i;
		x <<= 1;
		if (x & 0x100)
			x ^= 0x11d;
	}
	gf.built = true;
}

uint8_t qr_gf_mul(uint8_t a, uint8_t b)
{
	if (a == 0 || b == 0)
		return 0;
	if (!gf.built)
		gf_build();
	return gf.exp[(gf.log[a] + gf.log[b]) % 255];
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
