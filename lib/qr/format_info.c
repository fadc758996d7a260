// SPDX-License-Identifier: GPL-2.0-or-later
// Format and version information (format_info.h): a few data bits followed by the
// remainder of their division by a generator polynomial over GF(2).
#include "qr/format_info.h"

#define FORMAT_GENERATOR 0x537          // x^10+x^8+x^5+x^4+x^2+x+1 (Annex C)
#define FORMAT_XOR 0x5412               // 7.9.1: never all zero
#define VERSION_GENERATOR 0x1f25        // x^12+x^11+x^10+x^9+x^8+x^5+x^2+1 (Annex D)

// data followed by the remainder of data * x^ec_bits divided by generator, a
// polynomial of degree ec_bits.
static uint32_t bch_code(uint32_t data, int ec_bits, uint32_t generator)
{
	uint32_t rem = data << ec_bits;

	for (int bit = 31; bit >= ec_bits; bit--) {
		if (rem & (UINT32_C(1) << bit))
			rem ^= generator << (bit - ec_bits);
	}
	return data << ec_bits | rem;
}

uint16_t qr_format_bits(enum qr_level level, int mask)
{
	// Table 12: the level's two bits are not in the order L, M, Q, H.
	static const uint8_t level_bits[QR_LEVEL_COUNT] = { 1, 0, 3, 2 };
	uint32_t data = (uint32_t)level_bits[level] << 3 | (uint32_t)mask;

	return (uint16_t)(bch_code(data, 10, FORMAT_GENERATOR) ^ FORMAT_XOR);
}

uint32_t qr_version_bits(int version)
{
	return bch_code((uint32_t)version, 12, VERSION_GENERATOR);
}
