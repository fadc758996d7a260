// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/dram/decode.c: decode and encode are inverse under
// several maps (random addresses and random bank, row and column), the
// fields of hand-worked addresses, the column's width, and the row
// neighbour against brute force over small maps (the one address of the
// same bank and column d rows away, or none) and on large ones.
//
// The large maps are plausible controller mappings in the style of the
// DRAMA paper's tables (Pessl et al., USENIX Security 2016), not copies of
// them: the published ones are lib/dram/learn's test subject. "faultgen"
// is tests/faults/faultgen.c's model.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "dram/decode.h"
#include "xorshift.h"

#define B(n) (1ull << (n))

struct named_map {
	const char *name;
	struct dram_map map;
};

static const struct named_map big_maps[] = {
	{ "faultgen", { { B(7) | B(16), B(14) | B(17), B(15) | B(18) }, 3, 16, 33 } },
	{ "sandy-like 1ch 2rank",
	  { { B(13) | B(17), B(14) | B(18), B(15) | B(19), B(16) | B(20) }, 4, 17, 32 } },
	{ "sandy-like 2ch (channel bit 6)",
	  { { B(6), B(14) | B(18), B(15) | B(19), B(16) | B(20), B(17) | B(21) }, 5, 18, 33 } },
	{ "haswell-like 2ch 2rank",
	  { { B(7) | B(8) | B(9) | B(12) | B(13) | B(18) | B(19) | B(20) | B(21),
	      B(14) | B(18), B(15) | B(19), B(16) | B(20), B(17) | B(21) }, 5, 18, 34 } },
	{ "skylake-like ddr4 2ch",
	  { { B(8) | B(9) | B(12) | B(13) | B(18) | B(19), B(7) | B(14), B(15) | B(19),
	      B(16) | B(20), B(17) | B(21), B(18) | B(22) }, 6, 19, 35 } },
	// Two functions with one lowest bit: the elimination picks 13 and 14.
	{ "shared lowest bit", { { B(13) | B(17), B(13) | B(14) | B(18) }, 2, 17, 32 } },
};

// Small enough for brute force: addresses below 1 << 16.
static const struct named_map small_maps[] = {
	{ "xor pairs", { { B(3) | B(10), B(4) | B(11), B(5) | B(12) }, 3, 10, 15 } },
	{ "channel hash",
	  { { B(6) | B(7) | B(8) | B(11) | B(12), B(7) | B(11), B(8) | B(12) }, 3, 10, 15 } },
	// A function of row bits alone: rows 2k and 2k+1 never share a bank.
	{ "row-only function", { { B(4) | B(10), B(12) | B(13) }, 2, 10, 15 } },
	// A function reaching above the row: those bits stay as they are.
	{ "bit above the row", { { B(4) | B(10) | B(15), B(5) | B(11) }, 2, 10, 13 } },
};

#define NBIG (sizeof(big_maps) / sizeof(big_maps[0]))
#define NSMALL (sizeof(small_maps) / sizeof(small_maps[0]))

static uint64_t rng_state = 0x5eed0d1a;

static uint64_t rng(void)
{
	return xorshift64(&rng_state);
}

static uint64_t below_top(const struct dram_map *m)
{
	return rng() & (B(m->row_hi + 1) - 1);
}

static bool same_addr(const struct dram_addr *a, const struct dram_addr *b)
{
	return a->bank == b->bank && a->row == b->row && a->column == b->column;
}

static void fail_fields(const char *what, const char *map, uint64_t addr,
			const struct dram_addr *got, const struct dram_addr *want)
{
	fail_msg("%s, map %s, addr %#llx: got bank %#x row %#llx column %#llx, "
		 "want bank %#x row %#llx column %#llx", what, map, (unsigned long long)addr,
		 got->bank, (unsigned long long)got->row, (unsigned long long)got->column,
		 want->bank, (unsigned long long)want->row, (unsigned long long)want->column);
}

static void test_decode_encode(void **state)
{
	(void)state;
	for (size_t k = 0; k < NBIG; k++) {
		const struct named_map *m = &big_maps[k];
		for (int iter = 0; iter < 2000; iter++) {
			uint64_t addr = below_top(&m->map), back = ~0ull;
			struct dram_addr a;
			dram_decode(&m->map, addr, &a);
			if (!dram_encode(&m->map, &a, &back) || back != addr)
				fail_msg("map %s: addr %#llx encodes back as %#llx", m->name,
					 (unsigned long long)addr, (unsigned long long)back);
		}
	}
}

static void test_encode_decode(void **state)
{
	(void)state;
	for (size_t k = 0; k < NBIG; k++) {
		const struct named_map *m = &big_maps[k];
		unsigned rows = m->map.row_hi - m->map.row_lo + 1;
		for (int iter = 0; iter < 2000; iter++) {
			struct dram_addr want = {
				.bank = (uint32_t)(rng() & (B(m->map.nfuncs) - 1)),
				.row = rng() & (B(rows) - 1),
				.column = rng() & (B(dram_column_bits(&m->map)) - 1),
			}, got;
			uint64_t addr;
			if (!dram_encode(&m->map, &want, &addr))
				fail_fields("encode refused", m->name, 0, &want, &want);
			dram_decode(&m->map, addr, &got);
			if (!same_addr(&got, &want))
				fail_fields("encode then decode", m->name, addr, &got, &want);
		}
	}
}

// {map, address, its bank, row and column}, worked by hand.
struct known_case {
	const struct named_map *map;
	uint64_t addr;
	struct dram_addr want;
};

static const struct known_case known_cases[] = {
	// faultgen's bank 5, row 0x1a2b, word column 0x3ff, byte 0: its
	// dram_addr() gives bit 7 = 1^1, bits 14-15 = 2^1, so 0x1a2bfff8 less
	// bit 7. The column is bytes: bits 0-6 and 8-13, packed.
	{ &big_maps[0], 0x1a2b0000ull | 0x78 | 0x3f00 | 3ull << 14, { 5, 0x1a2b, 0x1ff8 } },
	{ &big_maps[0], 0, { 0, 0, 0 } },
	{ &big_maps[0], B(7), { 1, 0, 0 } },
	{ &big_maps[0], B(16), { 1, 1, 0 } },
	{ &big_maps[0], B(16) | B(7), { 0, 1, 0 } },
	{ &big_maps[0], B(8), { 0, 0, B(7) } },
	// Haswell-like: bit 8 is in the channel function only (pivot 7).
	{ &big_maps[3], B(8), { 1, 0, B(7) } },
	{ &big_maps[3], B(18), { 0x3, 1, 0 } },
	// Shared lowest bit: pivots 13 and 14; bit 13 flips both functions.
	{ &big_maps[5], B(13), { 3, 0, 0 } },
	{ &big_maps[5], B(15), { 0, 0, B(13) } },
};

static void test_known(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof(known_cases) / sizeof(known_cases[0]); k++) {
		const struct known_case *c = &known_cases[k];
		struct dram_addr got;
		dram_decode(&c->map->map, c->addr, &got);
		if (!same_addr(&got, &c->want))
			fail_fields("known case", c->map->name, c->addr, &got, &c->want);
	}
}

static void test_column_bits(void **state)
{
	static const unsigned want[NBIG] = { 13, 13, 13, 13, 13, 15 };
	(void)state;
	for (size_t k = 0; k < NBIG; k++) {
		unsigned got = dram_column_bits(&big_maps[k].map);
		if (got != want[k])
			fail_msg("map %s: %u column bits, want %u", big_maps[k].name, got, want[k]);
	}
}

// The brute-force neighbour: the one x below limit with addr's bank,
// column and bits above the row, in row + d; or none (false).
static bool brute_neighbour(const struct dram_map *m, const struct dram_addr *table, uint64_t addr,
			    int64_t d, uint64_t limit, uint64_t *out)
{
	uint64_t above = ~(B(m->row_hi + 1) - 1);
	unsigned found = 0;
	struct dram_addr want = table[addr];
	want.row += (uint64_t)d;
	for (uint64_t x = 0; x < limit; x++) {
		if (same_addr(&table[x], &want) && (x & above) == (addr & above)) {
			*out = x;
			found++;
		}
	}
	if (found > 1)
		fail_msg("brute force: %u addresses for one bank, row and column", found);
	return found == 1;
}

static void test_neighbour_brute(void **state)
{
	static struct dram_addr table[B(16)];
	static const int64_t ds[] = { -2, -1, 1, 2, 5 };
	(void)state;
	for (size_t k = 0; k < NSMALL; k++) {
		const struct dram_map *m = &small_maps[k].map;
		unsigned found = 0, none = 0;
		for (uint64_t x = 0; x < B(16); x++)
			dram_decode(m, x, &table[x]);
		for (int iter = 0; iter < 150; iter++) {
			uint64_t addr = rng() % B(16), limit = B(16) - rng() % B(14);
			for (size_t j = 0; j < sizeof(ds) / sizeof(ds[0]); j++) {
				uint64_t got = ~0ull, want = ~0ull;
				bool g = dram_row_neighbour(m, addr, ds[j], limit, &got);
				bool w = brute_neighbour(m, table, addr, ds[j], limit, &want);
				if (g != w || got != want)
					fail_msg("map %s addr %#llx d %lld limit %#llx: got %d %#llx, want %d %#llx",
						 small_maps[k].name, (unsigned long long)addr, (long long)ds[j],
						 (unsigned long long)limit, g, (unsigned long long)got, w,
						 (unsigned long long)want);
				found += w;
				none += !w;
			}
		}
		// Both answers occur, so neither half is untested.
		if (found == 0 || none == 0)
			fail_msg("map %s: %u neighbours found, %u none", small_maps[k].name, found, none);
	}
}

static void test_neighbour_big(void **state)
{
	static const int64_t ds[] = { -2, -1, 1, 2 };
	(void)state;
	for (size_t k = 0; k < NBIG; k++) {
		const struct named_map *m = &big_maps[k];
		for (int iter = 0; iter < 1000; iter++) {
			// Rows 4 and up, not the top half: both neighbours exist.
			uint64_t addr = (below_top(&m->map) | B(m->map.row_lo + 2)) & ~B(m->map.row_hi),
				 out;
			for (size_t j = 0; j < sizeof(ds) / sizeof(ds[0]); j++) {
				struct dram_addr a, n;
				dram_decode(&m->map, addr, &a);
				if (!dram_row_neighbour(&m->map, addr, ds[j], UINT64_MAX, &out))
					fail_msg("map %s addr %#llx d %lld: no neighbour", m->name,
						 (unsigned long long)addr, (long long)ds[j]);
				dram_decode(&m->map, out, &n);
				a.row += (uint64_t)ds[j];
				if (!same_addr(&n, &a))
					fail_fields("neighbour", m->name, out, &n, &a);
			}
		}
	}
}

// The edges: {map, address, d, limit, found, neighbour}.
struct edge_case {
	const char *what;
	const struct named_map *map;
	uint64_t addr;
	int64_t d;
	uint64_t limit;
	bool found;
	uint64_t want;
};

// No bank function and every address bit a row bit: the sum can wrap.
static const struct named_map whole_row = { "whole row", { { 0 }, 0, 0, 63 } };

static const struct edge_case edge_cases[] = {
	{ "a 64-bit row wraps past the top", &whole_row, UINT64_MAX, 1, UINT64_MAX, false, 0 },
	{ "a 64-bit row wraps below 0", &whole_row, 5, -8, UINT64_MAX, false, 0 },
	{ "a 64-bit row steps down", &whole_row, 0x40, -8, UINT64_MAX, true, 0x38 },
	{ "row 0 has no row below", &big_maps[0], 0x1238, -1, UINT64_MAX, false, 0 },
	{ "the top row has none above", &big_maps[0], B(34) - 8, 1, UINT64_MAX, false, 0 },
	{ "d below the row", &big_maps[0], B(16) | 0x40, -2, UINT64_MAX, false, 0 },
	{ "d 0 is the address", &big_maps[0], 0x12345678, 0, UINT64_MAX, true, 0x12345678 },
	// Row 1 of bank 0 at column 0 is B(16) | B(7); row 2 is B(17) | B(14).
	{ "row 0 to row 1", &big_maps[0], 0, 1, UINT64_MAX, true, B(16) | B(7) },
	{ "row 0 to row 2", &big_maps[0], 0, 2, UINT64_MAX, true, B(17) | B(14) },
	{ "row 2 is at the limit", &big_maps[0], 0, 2, B(17) | B(14), false, 0 },
	{ "row 2 just below it", &big_maps[0], 0, 2, (B(17) | B(14)) + 1, true, B(17) | B(14) },
	{ "bits above row_hi kept", &big_maps[0], B(40) | B(16) | B(7), -1, UINT64_MAX, true,
	  B(40) },
};

static void test_neighbour_edges(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof(edge_cases) / sizeof(edge_cases[0]); k++) {
		const struct edge_case *c = &edge_cases[k];
		uint64_t got = ~0ull;
		bool found = dram_row_neighbour(&c->map->map, c->addr, c->d, c->limit, &got);
		if (found != c->found || (found && got != c->want))
			fail_msg("%s: got %d %#llx, want %d %#llx", c->what, found,
				 (unsigned long long)got, c->found, (unsigned long long)c->want);
	}
}

// encode refuses what no address has.
static void test_encode_refuses(void **state)
{
	const struct dram_map *fg = &big_maps[0].map, *ro = &small_maps[2].map;
	struct dram_addr wide_row = { 0, B(18), 0 }, wide_column = { 0, 0, B(13) },
			 wide_bank = { 8, 0, 0 }, row_only_0 = { 2, 1, 0 }, row_only_1 = { 0, 1, 0 },
			 ok = { 2, 4, 0 };
	uint64_t addr = 0;
	(void)state;
	assert_false(dram_encode(fg, &wide_row, &addr));
	assert_false(dram_encode(fg, &wide_column, &addr));
	assert_false(dram_encode(fg, &wide_bank, &addr));
	// Row 1 has bits 12-13 = 0 (function 1 is 0): bank 2 is not there.
	assert_false(dram_encode(ro, &row_only_0, &addr));
	assert_true(dram_encode(ro, &row_only_1, &addr));
	assert_int_equal(addr, B(10) | B(4));
	// Row 4 has bit 12 set: function 1 is 1.
	assert_true(dram_encode(ro, &ok, &addr));
	assert_int_equal(addr, B(12));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode_encode),
		cmocka_unit_test(test_encode_decode),
		cmocka_unit_test(test_known),
		cmocka_unit_test(test_column_bits),
		cmocka_unit_test(test_neighbour_brute),
		cmocka_unit_test(test_neighbour_big),
		cmocka_unit_test(test_neighbour_edges),
		cmocka_unit_test(test_encode_refuses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
