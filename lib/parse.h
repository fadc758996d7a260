// SPDX-License-Identifier: GPL-2.0-or-later
// Strict number parsers for command-line values. They take a length instead
// of relying on a NUL, so a word can be parsed where it lies inside the
// command line, and they reject anything that is not entirely a number:
// a mistyped value must produce a warning, never a silently different one.
#ifndef RAMSIFT_LIB_PARSE_H
#define RAMSIFT_LIB_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// Parse the len bytes at s as an unsigned 64-bit integer: decimal digits
// ("0", "007" is 7, never octal) or "0x"/"0X" followed by hex digits of
// either case. No sign, no spaces, no suffix. Returns false, leaving *out
// unchanged, for len == 0, a bare "0x", any other byte, or a value above
// UINT64_MAX. s may be NULL when len == 0.
bool parse_u64(const char *s, size_t len, uint64_t *out);

// The value of the hex digit c (either case), or -1.
int parse_digit(char c);

// Parse a size in bytes: a parse_u64 number optionally followed by a binary
// unit, K, M, G or T (either case; 2^10, 2^20, 2^30, 2^40), optionally
// followed by "iB" ("4K", "4KiB", "0x10M", "1g"). No bare "B" suffix (it
// would be ambiguous after hex digits). Returns false, leaving *out
// unchanged, on any malformed input or when the result exceeds UINT64_MAX.
bool parse_size(const char *s, size_t len, uint64_t *out);

#endif
