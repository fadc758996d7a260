// SPDX-License-Identifier: GPL-2.0-or-later
// CRC-32 four bits at a time (a 16-entry table: small, and fast enough for
// the few hundred KiB of the self-check).
#include "crc32.h"

static const uint32_t nibble[16] = {
	0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac, 0x76dc4190, 0x6b6b51f4,
	0x4db26158, 0x5005713c, 0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
	0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
};

// The register after one more byte, without the initial and final inversion.
static uint32_t step(uint32_t r, uint8_t b)
{
	r ^= b;
	r = (r >> 4) ^ nibble[r & 15];
	return (r >> 4) ^ nibble[r & 15];
}

uint32_t crc32(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint32_t r = 0xffffffffu;

	for (size_t i = 0; i < n; i++)
		r = step(r, b[i]);
	return ~r;
}

// The CRC is linear: for two blocks of the same length that differ by the
// byte e at offset k, the CRCs differ by the register that the byte e
// followed by n - 1 - k zero bytes leaves from a zero start. So for each e,
// feed zeros and see whether the register ever equals the difference.
bool crc32_find_byte(const void *p, size_t n, uint32_t want, size_t *at, uint8_t *was)
{
	const uint8_t *b = p;
	uint32_t diff = crc32(p, n) ^ want;

	if (diff == 0)
		return false;
	for (unsigned e = 1; e < 256; e++) {
		uint32_t r = step(0, (uint8_t)e);
		for (size_t zeros = 0; zeros < n; zeros++) {
			if (r == diff) {
				*at = n - 1 - zeros;
				*was = b[*at] ^ (uint8_t)e;
				return true;
			}
			r = step(r, 0);
		}
	}
	return false;
}
