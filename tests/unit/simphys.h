// SPDX-License-Identifier: GPL-2.0-or-later
// Simulated physical memory for the firmware-table parsers' unit tests: a
// few regions, nothing else readable. read_sim is the parsers' reader.
// Included after cmocka.h (assert_true) and lib/memstr.h (mem_copy).
#ifndef SIMPHYS_H
#define SIMPHYS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#define REGIONS_MAX 32

struct region {
	uint64_t base;
	size_t len;
	uint8_t *bytes;
};

static struct region regions[REGIONS_MAX];
static size_t nregions;

static inline void mem_reset(void)
{
	for (size_t i = 0; i < nregions; i++)
		free(regions[i].bytes);
	nregions = 0;
}

// A region of len bytes at base, copied from bytes (zeros if NULL).
static inline uint8_t *mem_add(uint64_t base, const void *bytes, size_t len)
{
	assert_true(nregions < REGIONS_MAX);
	struct region *r = &regions[nregions++];
	r->base = base;
	r->len = len;
	r->bytes = calloc(1, len ? len : 1);
	if (bytes)
		mem_copy(r->bytes, bytes, len);
	return r->bytes;
}

// The byte at addr in the last region added that holds it, or NULL.
static inline uint8_t *mem_at(uint64_t addr)
{
	for (size_t i = nregions; i-- > 0;)
		if (addr >= regions[i].base && addr - regions[i].base < regions[i].len)
			return regions[i].bytes + (addr - regions[i].base);
	return NULL;
}

static inline bool read_sim(void *ctx, uint64_t addr, void *buf, size_t n)
{
	(void)ctx;
	for (size_t i = 0; i < n; i++) {
		const uint8_t *p = addr + i >= addr ? mem_at(addr + i) : NULL;
		if (!p)
			return false;
		((uint8_t *)buf)[i] = *p;
	}
	return true;
}

#endif
