// SPDX-License-Identifier: GPL-2.0-or-later
// The format information (7.9: level and mask in a (15,5) BCH code) and the
// version information (7.10: the version in an (18,6) Golay code), as bit
// strings; lib/qr/matrix.c places them. Internal to lib/qr/.
#ifndef RAMSIFT_LIB_QR_FORMAT_INFO_H
#define RAMSIFT_LIB_QR_FORMAT_INFO_H

#include <stdint.h>

#include "qr/qr.h"

// The 15 format bits for level and mask (0-7), bit 14 the most significant,
// already XORed with the standard's 101010000010010, e.g. 111011111000100
// (0x77c4) for L with mask 0.
uint16_t qr_format_bits(enum qr_level level, int mask);

// The 18 version bits of version 7-40, bit 17 the most significant, e.g.
// 000111110010010100 (0x07c94) for version 7.
uint32_t qr_version_bits(int version);

#endif
