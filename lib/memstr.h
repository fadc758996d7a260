// SPDX-License-Identifier: GPL-2.0-or-later
// Memory and string primitives for lib/ and src/: the freestanding image has
// no libc, so every copy, fill, compare and length goes through these. They
// are plain byte loops; the image is built with -fno-builtin and
// -fno-tree-loop-distribute-patterns so the compiler never turns a loop here
// back into a call to memcpy/memset (which src/ defines on top of these).
#ifndef RAMSIFT_LIB_MEMSTR_H
#define RAMSIFT_LIB_MEMSTR_H

#include <stdbool.h>
#include <stddef.h>

// Fill n bytes at d with (unsigned char)c. Returns d.
void *mem_set(void *d, int c, size_t n);

// Copy n bytes from s to d. The regions must not overlap (use mem_move).
// Returns d.
void *mem_copy(void *d, const void *s, size_t n);

// Copy n bytes from s to d; the regions may overlap. Returns d.
void *mem_move(void *d, const void *s, size_t n);

// Compare n bytes as unsigned char. Returns <0, 0 or >0 as a sorts before,
// equal to, or after b. n == 0 returns 0.
int mem_cmp(const void *a, const void *b, size_t n);

// Length in bytes of the NUL-terminated string s, not counting the NUL.
size_t str_len(const char *s);

// True when the NUL-terminated strings a and b are byte-for-byte equal.
bool str_eq(const char *a, const char *b);

// Compare NUL-terminated strings as unsigned char, like strcmp: <0, 0, >0.
int str_cmp(const char *a, const char *b);

// True when NUL-terminated s begins with NUL-terminated prefix ("" is a
// prefix of every string).
bool str_starts_with(const char *s, const char *prefix);

// True when the first n bytes of a and b are equal, stopping early (equal)
// at a NUL common to both, like strncmp(a, b, n) == 0. n == 0 is true.
bool str_n_eq(const char *a, const char *b, size_t n);

// True when the n bytes at a (not NUL-terminated, e.g. a word cut from a
// command line) equal the NUL-terminated string b exactly: same length and
// same bytes.
bool str_eq_n(const char *a, size_t n, const char *b);

#endif
