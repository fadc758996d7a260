// SPDX-License-Identifier: GPL-2.0-or-later
// Ternary cubes over page numbers, the unit the BadRAM fold works in, and
// their arithmetic against the usable-RAM map: how many RAM pages a cube
// matches, how many holes (maximal runs) it cuts into RAM, the next page it
// matches, and the exact union measure of a set of cubes. A page number is a
// physical address >> PAGE_SHIFT (12, page.h); page-number bit i is address
// bit i + 12, so the 51-bit domain covers address bits 12..62 and a cube
// never touches address bit 63 (a GRUB pattern with bit 63 fixed hangs GRUB).
#ifndef RAMSIFT_LIB_BADRAM_CUBE_H
#define RAMSIFT_LIB_BADRAM_CUBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "page.h"
#include "range.h"

#define CUBE_BITS 51                          // page-number bits a cube may fix
#define CUBE_DOMAIN ((1ULL << CUBE_BITS) - 1)   // every page number is <= this
#define CUBE_MAX_CUBES 64                     // most pairs a fold may print

// The pages p with (p & care) == val. val has no bit outside care; neither
// has a bit outside CUBE_DOMAIN. A bit clear in care is "free".
struct cube {
	uint64_t val, care;
};

// What the arithmetic measures against: ram[0..nram) is usable RAM in page
// numbers (not bytes), half-open, sorted, disjoint and not adjacent (adjacent
// ranges merged).
struct universe {
	const struct range *ram;
	size_t nram;
};

// The cube matching exactly page p.
struct cube cube_page(uint64_t p);

// True when page p is in c.
static inline bool cube_match(struct cube c, uint64_t p)
{
	return (p & c.care) == c.val;
}

// Number of free bits of c (log2 of its size in pages).
unsigned cube_free_bits(struct cube c);

// The smallest cube containing both a and b (their supercube).
struct cube cube_join(struct cube a, struct cube b);

// True when every page of inner is in outer.
bool cube_contains(struct cube outer, struct cube inner);

// Number of pages p < b in c; b may be anything up to 2^64 - 1.
uint64_t cube_count_below(struct cube c, uint64_t b);

// Smallest page y >= x in c: stores it in *y and returns true, or returns
// false when c has no page at or above x. x <= CUBE_DOMAIN.
bool cube_next(struct cube c, uint64_t x, uint64_t *y);

// One past the last page of the run of c that contains page p (p in c): c is
// a union of aligned blocks of 2^t pages, t its number of trailing free bits,
// and no two of its blocks touch.
static inline uint64_t cube_block_end(struct cube c, uint64_t p)
{
	uint64_t low = (c.care & (~c.care + 1)) - 1;   // trailing free bits
	return (p | low) + 1;
}

// Number of RAM pages in c.
uint64_t cube_ram_pages(struct cube c, const struct universe *u);

// Number of holes c alone cuts into RAM: maximal runs of pages of c inside
// one RAM range.
uint64_t cube_ram_runs(struct cube c, const struct universe *u);

// True when c's span (its lowest to its highest page) lies inside one RAM
// range, or meets no RAM at all: then all its RAM pages are in one region
// of the firmware map.
bool cube_in_one_range(struct cube c, const struct universe *u);

// What a set of cubes excludes from RAM.
struct cube_measure {
	uint64_t pages;   // RAM pages matched by at least one cube
	uint64_t runs;    // holes: maximal runs of such pages inside one RAM range
};

// Measure the union of c[0..n) against RAM by walking its runs in address
// order. Returns false, with *m unspecified, when the union has more than
// max_runs runs or the walk needs more than about max_steps steps (a step is
// one block of one cube); callers treat that as "too many holes". Time is
// O(steps * n * CUBE_BITS) at worst.
bool cube_measure(const struct cube *c, size_t n, const struct universe *u,
		uint64_t max_runs, uint64_t max_steps, struct cube_measure *m);

// Saturating arithmetic for costs that may be "infinite" (UINT64_MAX).
static inline uint64_t cube_sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static inline uint64_t cube_sat_mul(uint64_t a, uint64_t b)
{
	return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

#endif
