// SPDX-License-Identifier: GPL-2.0-or-later
// Physical addresses to DRAM terms and back under a struct dram_map: the
// bank functions' values, the row and the column (dram_decode()), the
// address of given bank, row and column (dram_encode()), and the same
// column of the same bank d rows away (dram_row_neighbour()). The column
// and the way back rest on one GF(2) elimination of the functions over the
// bits below the row (decode.h says which bits are the pivots).
#include "dram/decode.h"

// The map's functions in reduced echelon form over the bits below row_lo.
struct echelon {
	uint64_t g[DRAM_MAX_FUNCS];     // reduced functions
	uint32_t combo[DRAM_MAX_FUNCS]; // which original functions XOR to g[j]
	uint64_t pivot[DRAM_MAX_FUNCS]; // g[j]'s pivot bit, or 0 for none
	uint64_t pivots;                // all pivot bits
	uint64_t column_mask;           // the bits below row_lo that are no pivot
};

static unsigned parity(uint64_t x)
{
	return (unsigned)__builtin_parityll(x);
}

static uint64_t low_bits(unsigned n)
{
	return n >= 64 ? UINT64_MAX : (1ull << n) - 1;
}

static void echelon_init(const struct dram_map *map, struct echelon *e)
{
	unsigned n = map->nfuncs;

	for (unsigned j = 0; j < n; j++) {
		e->g[j] = map->funcs[j];
		e->combo[j] = 1u << j;
		e->pivot[j] = 0;
	}
	e->pivots = 0;
	for (unsigned bit = 0; bit < map->row_lo; bit++) {
		uint64_t b = 1ull << bit;
		unsigned p = 0;
		while (p < n && (e->pivot[p] || !(e->g[p] & b)))
			p++;
		if (p == n)
			continue;
		e->pivot[p] = b;
		e->pivots |= b;
		for (unsigned k = 0; k < n; k++) {
			if (k != p && (e->g[k] & b)) {
				e->g[k] ^= e->g[p];
				e->combo[k] ^= e->combo[p];
			}
		}
	}
	e->column_mask = low_bits(map->row_lo) & ~e->pivots;
}

// The bits of x under mask, packed from bit 0 (x86's pext), and back.
static uint64_t pack(uint64_t x, uint64_t mask)
{
	uint64_t out = 0;
	unsigned k = 0;

	for (; mask; mask &= mask - 1, k++)
		out |= (x >> __builtin_ctzll(mask) & 1) << k;
	return out;
}

static uint64_t unpack(uint64_t x, uint64_t mask)
{
	uint64_t out = 0;
	unsigned k = 0;

	for (; mask; mask &= mask - 1, k++)
		out |= (x >> k & 1) << __builtin_ctzll(mask);
	return out;
}

static unsigned row_width(const struct dram_map *map)
{
	return map->row_hi - map->row_lo + 1;
}

static uint64_t above_row(const struct dram_map *map)
{
	return ~low_bits(map->row_hi + 1);
}

void dram_decode(const struct dram_map *map, uint64_t addr, struct dram_addr *out)
{
	struct echelon e;

	echelon_init(map, &e);
	out->bank = 0;
	for (unsigned i = 0; i < map->nfuncs; i++)
		out->bank |= parity(map->funcs[i] & addr) << i;
	out->row = addr >> map->row_lo & low_bits(row_width(map));
	out->column = pack(addr, e.column_mask);
}

unsigned dram_column_bits(const struct dram_map *map)
{
	struct echelon e;

	echelon_init(map, &e);
	return (unsigned)__builtin_popcountll(e.column_mask);
}

// dram_encode() with the bits above row_hi taken from high.
static bool encode_above(const struct dram_map *map, const struct dram_addr *a, uint64_t high,
			 uint64_t *addr)
{
	struct echelon e;

	echelon_init(map, &e);
	if (a->row > low_bits(row_width(map)) ||
	    a->column > low_bits((unsigned)__builtin_popcountll(e.column_mask)) ||
	    a->bank > low_bits(map->nfuncs))
		return false;
	uint64_t x = (high & above_row(map)) | a->row << map->row_lo | unpack(a->column, e.column_mask);
	// Each pivot is in its own reduced function only, so setting one
	// fixes that function's parity and leaves the others as they are.
	for (unsigned j = 0; j < map->nfuncs; j++) {
		unsigned want = parity(e.combo[j] & a->bank);
		if (parity(e.g[j] & x) == want)
			continue;
		if (!e.pivot[j])
			return false;
		x |= e.pivot[j];
	}
	*addr = x;
	return true;
}

bool dram_encode(const struct dram_map *map, const struct dram_addr *a, uint64_t *addr)
{
	return encode_above(map, a, 0, addr);
}

bool dram_row_neighbour(const struct dram_map *map, uint64_t addr, int64_t d,
			uint64_t limit, uint64_t *out)
{
	struct dram_addr a;
	uint64_t x;

	dram_decode(map, addr, &a);
	// A row past the top fails encode's width check; a wrap of the sum
	// is caught here, as a row of all 64 bits has no width check.
	uint64_t row = a.row + (uint64_t)d;
	if ((d < 0 && row > a.row) || (d > 0 && row < a.row))
		return false;
	a.row = row;
	if (!encode_above(map, &a, addr, &x) || x >= limit)
		return false;
	*out = x;
	return true;
}
