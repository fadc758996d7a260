// SPDX-License-Identifier: GPL-2.0-or-later
// The four functions GCC may emit calls to even in freestanding code (struct
// copies, large initialisers). They forward to lib/memstr.c.
#include <stddef.h>

#include "memstr.h"

void *memcpy(void *d, const void *s, size_t n);
void *memset(void *d, int c, size_t n);
void *memmove(void *d, const void *s, size_t n);
int memcmp(const void *a, const void *b, size_t n);

void *memcpy(void *d, const void *s, size_t n) { return mem_copy(d, s, n); }
void *memset(void *d, int c, size_t n) { return mem_set(d, c, n); }
void *memmove(void *d, const void *s, size_t n) { return mem_move(d, s, n); }
int memcmp(const void *a, const void *b, size_t n) { return mem_cmp(a, b, n); }
