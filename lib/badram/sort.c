// SPDX-License-Identifier: GPL-2.0-or-later
// LSD radix sort of 64-bit keys (see sort.h), one byte per pass,
// ping-ponging between a and tmp; a pass where every key has the same byte
// is skipped.
#include "badram/sort.h"
#include "memstr.h"

void sort_u64(uint64_t *a, uint64_t *tmp, size_t n)
{
	uint64_t any = 0;
	uint64_t *src = a, *dst = tmp;

	if (n < 2)
		return;
	for (size_t i = 0; i < n; i++)
		any |= a[i];
	for (unsigned shift = 0; shift < 64 && (any >> shift) != 0; shift += 8) {
		size_t count[256];
		size_t pos = 0;

		mem_set(count, 0, sizeof(count));
		for (size_t i = 0; i < n; i++)
			count[(src[i] >> shift) & 0xff]++;
		if (count[(src[0] >> shift) & 0xff] == n)
			continue;
		for (unsigned d = 0; d < 256; d++) {
			size_t c = count[d];
			count[d] = pos;
			pos += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[count[(src[i] >> shift) & 0xff]++] = src[i];
		uint64_t *t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		mem_copy(a, src, n * sizeof(*a));
}
