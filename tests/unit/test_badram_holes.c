// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/badram/holes.c: the SIZE units, the line length, and
// the gap filling against brute force (every subset of gaps, for sets with
// few runs): the chosen ranges fit the line budget and cost the fewest good
// RAM pages any fitting choice costs, at most Linux's 4 KASLR ranges when a
// failure lies below the kernel window.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "badram/holes.h"
#include "xorshift.h"

static uint64_t rng_state = 0x5151;

static uint64_t rng(void)
{
	return xorshift64(&rng_state);
}

struct size_case {
	uint64_t bytes, value;
	char unit;
};

static const struct size_case size_cases[] = {
	{ 4096, 4, 'K' },
	{ 12288, 12, 'K' },
	{ 1ULL << 20, 1, 'M' },
	{ 3ULL << 20, 3, 'M' },
	{ (1ULL << 20) + 4096, 1028, 'K' },
	{ 1ULL << 30, 1, 'G' },
	{ 5ULL << 30, 5, 'G' },
	{ (1ULL << 30) + (1ULL << 20), 1025, 'M' },
};

static void test_sizes(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(size_cases) / sizeof(size_cases[0]); i++) {
		struct holes_size s = holes_size_of(size_cases[i].bytes);
		if (s.value != size_cases[i].value || s.unit != size_cases[i].unit)
			fail_msg("size %#llx: got %llu%c want %llu%c",
				 (unsigned long long)size_cases[i].bytes,
				 (unsigned long long)s.value, s.unit,
				 (unsigned long long)size_cases[i].value, size_cases[i].unit);
	}
	// "memmap=4K$0x1000,8K$0x10000"
	struct range r[2] = { { 0x1000, 0x2000 }, { 0x10000, 0x12000 } };
	assert_int_equal(holes_line_len(r, 2), 27);
}

static uint64_t ram_cost(const struct range *ram, size_t nram, uint64_t lo,
			 uint64_t hi)
{
	uint64_t n = 0;
	for (size_t i = 0; i < nram; i++) {
		uint64_t a = ram[i].start > lo ? ram[i].start : lo;
		uint64_t b = ram[i].end < hi ? ram[i].end : hi;
		if (a < b)
			n += b - a;
	}
	return n;
}

#define WINDOW_PAGES (HOLES_LINUX_KERNEL_WINDOW_END >> 12)

static void test_fill_vs_brute_force(void **state)
{
	(void)state;
	for (int iter = 0; iter < 400; iter++) {
		// Odd iterations: everything from the kernel window's end up, so
		// only the caller's cap counts; even ones: below it, so the cap
		// is at most 4 too.
		uint64_t base = iter & 1 ? WINDOW_PAGES : 0;
		struct range ram[2] = { { base, base + 1000 }, { base + 1200, base + 5000 } };
		struct universe u = { ram, 2 };
		uint64_t page[40];
		size_t n = 0;
		struct range out[16], work[1], runs[40], cand[40];
		bool capped;
		// A few runs inside RAM.
		for (uint64_t p = rng() % 50; p < 5000 && n < 40; p += 1 + rng() % 400) {
			for (uint64_t len = 1 + rng() % 3; len > 0 && n < 40 && p < 5000; len--, p++)
				if (p < 1000 || p >= 1200)
					page[n++] = base + p;
		}
		if (n == 0)
			continue;
		size_t chars = 64 + rng() % 200, cap = 1 + rng() % 12, nr = 0;
		size_t want_cap = !base && cap > HOLES_LINUX_MAX_MEMMAP_REGIONS
					  ? HOLES_LINUX_MAX_MEMMAP_REGIONS : cap;
		for (size_t i = 0; i < n; i++) {
			if (nr > 0 && runs[nr - 1].end == page[i]) {
				runs[nr - 1].end++;
			} else {
				runs[nr].start = page[i];
				runs[nr++].end = page[i] + 1;
			}
		}
		// Brute force over which of the nr - 1 gaps to fill.
		uint64_t best = UINT64_MAX;
		for (uint64_t mask = 0; mask < (1ULL << (nr - 1)) && nr <= 16; mask++) {
			size_t m = 0;
			uint64_t cost = 0;
			for (size_t i = 0; i < nr; i++) {
				if (i > 0 && (mask >> (i - 1) & 1)) {
					cost += ram_cost(ram, 2, cand[m - 1].end, runs[i].start);
					cand[m - 1].end = runs[i].end;
				} else {
					cand[m++] = runs[i];
				}
			}
			for (size_t i = 0; i < m; i++) {
				cand[i].start <<= 12;
				cand[i].end <<= 12;
			}
			if (m <= want_cap && holes_line_len(cand, m) <= chars && cost < best)
				best = cost;
		}
		struct holes_request req = { .page = page, .npages = n, .u = &u,
					     .max_chars = chars, .work = work, .work_cap = 1 };
		size_t got = holes_ranges(&req, out, cap, &capped);
		uint64_t cost = 0;
		for (size_t i = 0; i < got; i++)
			cost += ram_cost(ram, 2, out[i].start >> 12, out[i].end >> 12);
		cost -= n;
		if (got > want_cap || holes_line_len(out, got) > chars)
			fail_msg("iter %d: %zu ranges, %zu chars; cap %zu, budget %zu", iter, got,
				 holes_line_len(out, got), want_cap, chars);
		if (capped && (base || cap <= HOLES_LINUX_MAX_MEMMAP_REGIONS))
			fail_msg("iter %d (base %#llx, cap %zu): KASLR cap reported, none due",
				 iter, (unsigned long long)base, cap);
		if (nr <= 16 && cost != best)
			fail_msg("iter %d (%zu runs, %zu chars, cap %zu): costs %llu, best is %llu",
				 iter, nr, chars, cap, (unsigned long long)cost,
				 (unsigned long long)best);
	}
}

static void test_extra_cubes_and_non_ram(void **state)
{
	struct range ram[2] = { { 0, 160 }, { 200, 4096 } };   // pages
	struct universe u = { ram, 2 };
	struct range out[8], work[8];
	// A cube spanning the hole: cut into its RAM pieces; page 170 (in the
	// hole) is left out.
	struct cube c = { 128, CUBE_DOMAIN & ~0x7fULL };        // pages 128..255
	uint64_t page[] = { 170, 1000 };
	(void)state;
	bool capped;
	struct holes_request req = { .page = page, .npages = 2, .extra = &c, .nextra = 1,
				     .u = &u, .max_chars = 1024, .work = work, .work_cap = 8 };
	size_t n = holes_ranges(&req, out, 8, &capped);
	assert_int_equal(n, 3);
	assert_int_equal(out[0].start, 128ULL << 12);
	assert_int_equal(out[0].end, 160ULL << 12);
	assert_int_equal(out[1].start, 200ULL << 12);
	assert_int_equal(out[1].end, 256ULL << 12);
	assert_int_equal(out[2].start, 1000ULL << 12);
	// Only non-RAM failures: nothing to reserve.
	uint64_t hole[] = { 170 };
	req = (struct holes_request){ .page = hole, .npages = 1, .u = &u, .max_chars = 1024,
				      .work = work, .work_cap = 8 };
	assert_int_equal(holes_ranges(&req, out, 8, &capped), 0);
	assert_false(capped);
}

// Linux's KASLR limit, on the failures a Debian 6.1 boot caught: five runs,
// the first at 40 MiB, against RAM 0-640K, 1M-1G.
struct kaslr_case {
	const char *name;
	uint64_t shift;         // pages added to every failing page
	size_t want;            // ranges
	bool capped;
};

static const struct kaslr_case kaslr_cases[] = {
	{ "first failure at 40 MiB", 0, 4, true },
	{ "all failures above 512 MiB", 0x20000, 5, false },
	// First failure on the window's last page, then at its end.
	{ "window's last page", WINDOW_PAGES - 1 - 0x2815, 4, true },
	{ "window's end", WINDOW_PAGES - 0x2815, 5, false },
};

static void test_kaslr_limit(void **state)
{
	struct range ram[2] = { { 0, 160 }, { 256, 0x40000 } };   // pages
	struct universe u = { ram, 2 };
	static const uint64_t base[] = { 0x2815, 0x97c0, 0x97c1, 0x97c2, 0x97c3,
					 0xd48e, 0xeb58, 0x1a8e6 };
	const size_t nb = sizeof(base) / sizeof(base[0]);
	uint64_t page[8];
	struct range out[8], work[1];
	bool capped;
	(void)state;
	for (size_t k = 0; k < sizeof(kaslr_cases) / sizeof(kaslr_cases[0]); k++) {
		const struct kaslr_case *c = &kaslr_cases[k];
		for (size_t i = 0; i < nb; i++)
			page[i] = base[i] + c->shift;
		struct holes_request req = { .page = page, .npages = nb, .u = &u,
					     .max_chars = 1024, .work = work, .work_cap = 1 };
		size_t n = holes_ranges(&req, out, 8, &capped);
		if (n != c->want || capped != c->capped)
			fail_msg("%s: %zu ranges, capped %d; want %zu, capped %d", c->name,
				 n, capped, c->want, c->capped);
		for (size_t i = 0; i < nb; i++) {
			bool in = false;
			for (size_t j = 0; j < n; j++)
				in |= page[i] << 12 >= out[j].start && page[i] << 12 < out[j].end;
			if (!in)
				fail_msg("%s: page %#llx not reserved", c->name,
					 (unsigned long long)page[i]);
		}
	}
	// The cheapest gap filled: 0xd48f..0xeb58, 5833 pages.
	struct holes_request req = { .page = base, .npages = nb, .u = &u, .max_chars = 1024,
				     .work = work, .work_cap = 1 };
	holes_ranges(&req, out, 8, &capped);
	assert_int_equal(out[2].start, 0xd48e000);
	assert_int_equal(out[2].end, 0xeb59000);
	// A caller's cap of 4 or less is not the KASLR limit's doing.
	assert_int_equal(holes_ranges(&req, out, 3, &capped), 3);
	assert_false(capped);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_fill_vs_brute_force),
		cmocka_unit_test(test_extra_cubes_and_non_ram),
		cmocka_unit_test(test_kaslr_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
