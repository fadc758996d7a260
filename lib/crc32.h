// SPDX-License-Identifier: GPL-2.0-or-later
// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320, as zlib and PNG), for
// the self-check of ramsift's own code, and the search for the one byte
// whose change explains a mismatch.
#ifndef RAMSIFT_LIB_CRC32_H
#define RAMSIFT_LIB_CRC32_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// The CRC-32 of p[0..n) ("123456789" gives 0xcbf43926).
uint32_t crc32(const void *p, size_t n);

// p[0..n) no longer has the CRC-32 want. If changing one byte back explains
// it, set *at to that byte's offset and *was to its value when the CRC was
// taken, and return true; false when no single byte does (several bytes
// changed). A change of several bytes that happens to look like one of a
// single byte is possible (about 1 in 4096 for a 4 KiB block) and then
// named as that byte. Takes about 255 * n table steps.
bool crc32_find_byte(const void *p, size_t n, uint32_t want, size_t *at, uint8_t *was);

#endif
