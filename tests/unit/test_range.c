// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/range.c: a table of memory maps (order, overlaps of
// every shape, unknown types, zero length, overflow, adjacency, alignment,
// output capacity), randomized comparisons of mmap_normalize and
// range_subtract against a brute-force page bitmap, and a timed
// several-thousand-entry map like GRUB badram produces.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <cmocka.h>

#include "range.h"
#include "memstr.h"
#include "contains.h"

#define K 1024ull
#define M (1024ull * K)
#define G (1024ull * M)
#define U MMAP_USABLE
#define R MMAP_RESERVED
#define MAXE 8

struct warnings {
	int count;
	int null_count;         // warnings with e == NULL
	char first[160];
};

static void record(void *ctx, const struct mmap_entry *e, const char *why)
{
	struct warnings *w = ctx;

	if (e == NULL)
		w->null_count++;
	if (w->count++ == 0)
		snprintf(w->first, sizeof(w->first), "%s", why);
}

static const struct {
	const char *name;
	struct mmap_entry in[MAXE];
	size_t n, cap;
	struct range want[MAXE];
	size_t nwant;
	int nwarn;
	const char *why;        // substring of the first warning
} cases[] = {
	{ "empty", { { 0 } }, 0, MAXE, { { 0 } }, 0, 0, NULL },
	{ "one usable", { { 0, 640 * K, U } }, 1, MAXE, { { 0, 640 * K } }, 1, 0, NULL },
	{ "only reserved", { { 0, 1 * M, R } }, 1, MAXE, { { 0 } }, 0, 0, NULL },
	{ "unsorted input", { { 4 * M, 1 * M, U }, { 1 * M, 1 * M, U } }, 2, MAXE,
	  { { 1 * M, 2 * M }, { 4 * M, 5 * M } }, 2, 0, NULL },
	{ "adjacent usable merge", { { 2 * M, 1 * M, U }, { 1 * M, 1 * M, U } }, 2, MAXE,
	  { { 1 * M, 3 * M } }, 1, 0, NULL },
	{ "overlapping usable merge", { { 1 * M, 2 * M, U }, { 2 * M, 2 * M, U } }, 2, MAXE,
	  { { 1 * M, 4 * M } }, 1, 0, NULL },
	{ "duplicate usable", { { 1 * M, 1 * M, U }, { 1 * M, 1 * M, U } }, 2, MAXE,
	  { { 1 * M, 2 * M } }, 1, 0, NULL },
	{ "usable contains usable", { { 1 * M, 8 * M, U }, { 2 * M, 1 * M, U } }, 2, MAXE,
	  { { 1 * M, 9 * M } }, 1, 0, NULL },
	{ "reserved adjacent, no overlap", { { 0, 1 * M, U }, { 1 * M, 1 * M, R } }, 2, MAXE,
	  { { 0, 1 * M } }, 1, 0, NULL },
	{ "reserved in the middle", { { 0, 8 * M, U }, { 2 * M, 1 * M, R } }, 2, MAXE,
	  { { 0, 2 * M }, { 3 * M, 8 * M } }, 2, 1, "overlaps a reserved entry" },
	{ "reserved over the start", { { 1 * M, 4 * M, U }, { 0, 2 * M, R } }, 2, MAXE,
	  { { 2 * M, 5 * M } }, 1, 1, "treated as reserved" },
	{ "reserved over the end", { { 1 * M, 4 * M, U }, { 4 * M, 4 * M, R } }, 2, MAXE,
	  { { 1 * M, 4 * M } }, 1, 1, NULL },
	{ "reserved covers usable", { { 1 * M, 1 * M, U }, { 0, 4 * M, R } }, 2, MAXE,
	  { { 0 } }, 0, 1, NULL },
	{ "reserved equals usable", { { 1 * M, 1 * M, U }, { 1 * M, 1 * M, R } }, 2, MAXE,
	  { { 0 } }, 0, 1, NULL },
	{ "reserved listed first", { { 2 * M, 1 * M, R }, { 0, 8 * M, U } }, 2, MAXE,
	  { { 0, 2 * M }, { 3 * M, 8 * M } }, 2, 1, NULL },
	{ "one warning per clipped entry", { { 0, 8 * M, U }, { 1 * M, 1 * M, R }, { 3 * M, 1 * M, MMAP_BAD } }, 3, MAXE,
	  { { 0, 1 * M }, { 2 * M, 3 * M }, { 4 * M, 8 * M } }, 3, 1, NULL },
	{ "two usable clipped", { { 0, 2 * M, U }, { 2 * M, 2 * M, U }, { 1 * M, 2 * M, MMAP_NVS } }, 3, MAXE,
	  { { 0, 1 * M }, { 3 * M, 4 * M } }, 2, 2, NULL },
	{ "ACPI, NVS and bad types", { { 0, 16 * M, U }, { 1 * M, 1 * M, MMAP_ACPI }, { 4 * M, 1 * M, MMAP_NVS }, { 8 * M, 4 * K, MMAP_BAD } }, 4, MAXE,
	  { { 0, 1 * M }, { 2 * M, 4 * M }, { 5 * M, 8 * M }, { 8 * M + 4 * K, 16 * M } }, 4, 1, NULL },
	{ "unknown types are reserved", { { 0, 16 * M, U }, { 1 * M, 1 * M, 0 }, { 4 * M, 1 * M, 6 }, { 8 * M, 1 * M, 0xffffffff } }, 4, MAXE,
	  { { 0, 1 * M }, { 2 * M, 4 * M }, { 5 * M, 8 * M }, { 9 * M, 16 * M } }, 4, 1, NULL },
	{ "zero length", { { 1 * M, 0, U }, { 2 * M, 1 * M, U } }, 2, MAXE,
	  { { 2 * M, 3 * M } }, 1, 1, "zero length" },
	{ "zero-length reserved cuts nothing", { { 0, 2 * M, U }, { 1 * M, 0, R } }, 2, MAXE,
	  { { 0, 2 * M } }, 1, 1, "zero length" },
	{ "base + len overflows", { { 1 * G, UINT64_MAX, U } }, 1, MAXE,
	  { { 1 * G, RANGE_MAX_ADDR } }, 1, 1, "overflows 64 bits" },
	{ "max len from 0", { { 0, UINT64_MAX, U } }, 1, MAXE,
	  { { 0, RANGE_MAX_ADDR } }, 1, 1, "ends above" },
	{ "ends above the limit", { { RANGE_MAX_ADDR - 4 * K, 8 * K, U } }, 1, MAXE,
	  { { RANGE_MAX_ADDR - 4 * K, RANGE_MAX_ADDR } }, 1, 1, "ends above" },
	{ "ends exactly at the limit", { { RANGE_MAX_ADDR - 4 * K, 4 * K, U } }, 1, MAXE,
	  { { RANGE_MAX_ADDR - 4 * K, RANGE_MAX_ADDR } }, 1, 0, NULL },
	{ "starts at the limit", { { RANGE_MAX_ADDR, 4 * K, U }, { 0, 4 * K, U } }, 2, MAXE,
	  { { 0, 4 * K } }, 1, 1, "starts above" },
	{ "starts far above", { { UINT64_MAX, 1, U } }, 1, MAXE,
	  { { 0 } }, 0, 1, "starts above" },
	{ "reserved overflowing cuts to the top", { { 0, 4 * G, U }, { 3 * G, UINT64_MAX, R } }, 2, MAXE,
	  { { 0, 3 * G } }, 1, 2, "overlaps a reserved entry" },
	{ "unaligned shrinks", { { 0x1234, 0x9f800 - 0x1234, U } }, 1, MAXE,
	  { { 0x2000, 0x9f000 } }, 1, 0, NULL },
	{ "BIOS low memory", { { 0, 0x9fc00, U }, { 0x9fc00, 0x400, R }, { 0xf0000, 0x10000, R }, { 0x100000, 0x7ee0000, U } }, 4, MAXE,
	  { { 0, 0x9f000 }, { 0x100000, 0x7fe0000 } }, 2, 0, NULL },
	{ "unaligned pieces merge into a page", { { 0, 0x800, U }, { 0x800, 0x800, U } }, 2, MAXE,
	  { { 0, 0x1000 } }, 1, 0, NULL },
	{ "vanishes under alignment", { { 0x1100, 0xe00, U }, { 0x10000, 0x1000, U } }, 2, MAXE,
	  { { 0x10000, 0x11000 } }, 1, 1, "smaller than a 4 KiB page" },
	{ "reserved byte costs its page", { { 0, 0x3000, U }, { 0x1000, 1, R } }, 2, MAXE,
	  { { 0, 0x1000 }, { 0x2000, 0x3000 } }, 2, 1, NULL },
	{ "cap keeps the lowest", { { 5 * M, 1 * M, U }, { 1 * M, 1 * M, U }, { 3 * M, 1 * M, U } }, 3, 2,
	  { { 1 * M, 2 * M }, { 3 * M, 4 * M } }, 2, 1, "more usable ranges than fit" },
	{ "cap exactly met", { { 5 * M, 1 * M, U }, { 1 * M, 1 * M, U } }, 2, 2,
	  { { 1 * M, 2 * M }, { 5 * M, 6 * M } }, 2, 0, NULL },
	{ "cap zero", { { 5 * M, 1 * M, U } }, 1, 0, { { 0 } }, 0, 1, "more usable" },
	{ "cap not hit by a vanishing range", { { 1 * M, 1 * M, U }, { 3 * M, 100, U } }, 2, 1,
	  { { 1 * M, 2 * M } }, 1, 1, "smaller than" },
};

static void test_table(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct range out[MAXE + 1];
		struct warnings w = { 0 };
		const char *name = cases[c].name;

		mem_set(out, 0xee, sizeof(out));
		size_t got = mmap_normalize(cases[c].in, cases[c].n, out,
					    cases[c].cap, record, &w);

		if (got != cases[c].nwant)
			fail_msg("%s: %zu ranges, want %zu", name, got, cases[c].nwant);
		for (size_t i = 0; i < got; i++) {
			const struct range *g = &out[i], *x = &cases[c].want[i];

			if (g->start != x->start || g->end != x->end)
				fail_msg("%s: range %zu is [%#llx, %#llx), want [%#llx, %#llx)",
					 name, i, (unsigned long long)g->start,
					 (unsigned long long)g->end,
					 (unsigned long long)x->start,
					 (unsigned long long)x->end);
		}
		if (out[cases[c].cap].start != 0xeeeeeeeeeeeeeeeeull)
			fail_msg("%s: wrote past cap", name);
		if (w.count != cases[c].nwarn)
			fail_msg("%s: %d warnings, want %d (first: %s)", name,
				 w.count, cases[c].nwarn, w.first);
		if (cases[c].why && !contains(w.first, cases[c].why))
			fail_msg("%s: first warning \"%s\" lacks \"%s\"", name,
				 w.first, cases[c].why);
	}
}

static void test_warn_args(void **state)
{
	(void)state;
	struct mmap_entry in[] = { { 1 * M, 1 * M, U }, { 3 * M, 1 * M, U } };
	struct range out[1];
	struct warnings w = { 0 };

	// The cap warning is global: e == NULL.
	assert_int_equal(mmap_normalize(in, 2, out, 1, record, &w), 1);
	assert_int_equal(w.null_count, 1);
	// warn may be NULL.
	assert_int_equal(mmap_normalize(in, 2, out, 1, NULL, NULL), 1);
	assert_int_equal(mmap_normalize(NULL, 0, NULL, 0, NULL, NULL), 0);
}

// ---- brute-force model -------------------------------------------------

// The model's address space: 64 pages, entries placed at 256-byte
// granularity so unaligned edges are common.
#define NPAGES 64
#define GRAN 256u
#define NGRAN (NPAGES * PAGE_SIZE / GRAN)

static void test_random_vs_bitmap(void **state)
{
	(void)state;
	srand(42);
	for (int round = 0; round < 20000; round++) {
		struct mmap_entry in[24];
		size_t n = (size_t)rand() % 24;
		bool use[NGRAN] = { false }, res[NGRAN] = { false };

		for (size_t i = 0; i < n; i++) {
			// Entries stay inside the model's space.
			uint64_t len = (uint64_t)(rand() % (NGRAN / 4));
			uint64_t s = (uint64_t)rand() % (NGRAN - len + 1);
			int t = rand() % 8;

			in[i].base = s * GRAN;
			in[i].len = len * GRAN;
			// Mostly usable; otherwise a known or unknown type.
			in[i].type = t < 4 ? U : t == 7 ? (uint32_t)rand() : (uint32_t)t - 2;
			for (uint64_t g = s; g < s + len; g++) {
				if (in[i].type == U)
					use[g] = true;
				else
					res[g] = true;
			}
		}
		// Model: a page is usable when every granule in it is.
		bool page[NPAGES];
		struct range want[NPAGES];
		size_t nwant = 0;

		for (size_t p = 0; p < NPAGES; p++) {
			page[p] = true;
			for (size_t g = 0; g < PAGE_SIZE / GRAN; g++) {
				size_t k = p * (PAGE_SIZE / GRAN) + g;

				page[p] = page[p] && use[k] && !res[k];
			}
			if (!page[p])
				continue;
			if (nwant > 0 && want[nwant - 1].end == p * PAGE_SIZE)
				want[nwant - 1].end += PAGE_SIZE;
			else
				want[nwant++] = (struct range){ p * PAGE_SIZE,
							 (p + 1) * PAGE_SIZE };
		}

		size_t cap = round % 4 == 0 ? (size_t)rand() % 4 : NPAGES;
		struct range out[NPAGES];
		struct warnings w = { 0 };
		size_t got = mmap_normalize(in, n, out, cap, record, &w);
		size_t expect = nwant < cap ? nwant : cap;

		if (got != expect)
			fail_msg("round %d: %zu ranges, model %zu (cap %zu)", round,
				 got, expect, cap);
		for (size_t i = 0; i < got; i++) {
			if (out[i].start != want[i].start || out[i].end != want[i].end)
				fail_msg("round %d range %zu: [%#llx, %#llx), model [%#llx, %#llx)",
					 round, i, (unsigned long long)out[i].start,
					 (unsigned long long)out[i].end,
					 (unsigned long long)want[i].start,
					 (unsigned long long)want[i].end);
		}
		if (w.null_count != (nwant > cap))
			fail_msg("round %d: %d cap warnings, model has %zu > cap %zu",
				 round, w.null_count, nwant, cap);
	}
}

static void test_subtract_vs_bitmap(void **state)
{
	(void)state;
	srand(7);
	for (int round = 0; round < 20000; round++) {
		struct range r[NPAGES];
		bool bits[NPAGES] = { false };
		size_t n = 0;

		// Random sorted disjoint list, in page units.
		for (size_t p = 0; p < NPAGES; p++) {
			bool on = rand() % 3 != 0;

			bits[p] = on;
			if (!on)
				continue;
			if (n > 0 && r[n - 1].end == p && rand() % 2)
				r[n - 1].end = p + 1;
			else
				r[n++] = (struct range){ p, p + 1 };
		}
		size_t cap = round % 3 == 0 ? n : n + 1 + (size_t)rand() % 3;
		struct range cut = { (uint64_t)(rand() % (NPAGES + 2)), 0 };

		cut.end = cut.start + (uint64_t)(rand() % 20) - 2;   // may be empty
		uint64_t before = range_total(r, n);
		size_t got = range_subtract(r, n, cap, cut);

		if (got > cap)
			fail_msg("round %d: %zu ranges > cap %zu", round, got, cap);
		bool out[NPAGES] = { false };
		for (size_t i = 0; i < got; i++) {
			if (r[i].start >= r[i].end || (i > 0 && r[i - 1].end > r[i].start))
				fail_msg("round %d: result not sorted/disjoint at %zu", round, i);
			for (uint64_t p = r[i].start; p < r[i].end; p++)
				out[p] = true;
		}
		uint64_t lost = 0;
		for (uint64_t p = 0; p < NPAGES; p++) {
			bool want = bits[p] && !(p >= cut.start && p < cut.end);

			if (out[p] && !want)
				fail_msg("round %d: page %llu kept but cut or absent",
					 round, (unsigned long long)p);
			if (want && !out[p])
				lost++;
		}
		// Pages may be lost only when a split found the list full.
		if (lost != 0 && !(n == cap && got == n))
			fail_msg("round %d: %llu pages lost without a full list",
				 round, (unsigned long long)lost);
		if (range_total(r, got) + lost > before)
			fail_msg("round %d: total grew", round);
	}
}

static const struct {
	const char *name;
	struct range in[4];
	size_t n, cap;
	struct range cut;
	struct range want[4];
	size_t nwant;
} sub_cases[] = {
	{ "split", { { 0, 100 } }, 1, 2, { 40, 60 }, { { 0, 40 }, { 60, 100 } }, 2 },
	{ "split, list full", { { 0, 100 } }, 1, 1, { 40, 60 }, { { 0, 40 } }, 1 },
	{ "trim both sides", { { 0, 50 }, { 70, 100 } }, 2, 2, { 40, 80 }, { { 0, 40 }, { 80, 100 } }, 2 },
	{ "remove inner", { { 0, 10 }, { 20, 30 }, { 40, 50 } }, 3, 3, { 15, 35 }, { { 0, 10 }, { 40, 50 } }, 2 },
	{ "remove all", { { 0, 10 }, { 20, 30 } }, 2, 2, { 0, 30 }, { { 0 } }, 0 },
	{ "disjoint", { { 0, 10 } }, 1, 1, { 10, 20 }, { { 0, 10 } }, 1 },
	{ "empty cut", { { 0, 10 } }, 1, 1, { 5, 5 }, { { 0, 10 } }, 1 },
	{ "inverted cut", { { 0, 10 } }, 1, 1, { 8, 2 }, { { 0, 10 } }, 1 },
	{ "split keeps the tail", { { 0, 10 }, { 20, 30 } }, 2, 3, { 2, 4 }, { { 0, 2 }, { 4, 10 }, { 20, 30 } }, 3 },
};

static void test_subtract_table(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(sub_cases) / sizeof(sub_cases[0]); c++) {
		struct range r[4];

		mem_copy(r, sub_cases[c].in, sizeof(r));
		size_t got = range_subtract(r, sub_cases[c].n, sub_cases[c].cap,
					    sub_cases[c].cut);

		if (got != sub_cases[c].nwant)
			fail_msg("%s: %zu ranges, want %zu", sub_cases[c].name, got,
				 sub_cases[c].nwant);
		for (size_t i = 0; i < got; i++) {
			if (r[i].start != sub_cases[c].want[i].start ||
			    r[i].end != sub_cases[c].want[i].end)
				fail_msg("%s: range %zu is [%llu, %llu), want [%llu, %llu)",
					 sub_cases[c].name, i,
					 (unsigned long long)r[i].start,
					 (unsigned long long)r[i].end,
					 (unsigned long long)sub_cases[c].want[i].start,
					 (unsigned long long)sub_cases[c].want[i].end);
		}
	}
	struct range t[] = { { 0, 4096 }, { 8192, 1ull << 52 } };
	assert_int_equal(range_total(t, 2), 4096 + (1ull << 52) - 8192);
	assert_int_equal(range_total(t, 0), 0);
}

// GRUB badram-style map: one big usable entry with thousands of 1-page
// bad holes, and the usable part reported as many pieces, shuffled.
static void test_many_entries(void **state)
{
	(void)state;
	enum { HOLES = 2000 };
	static struct mmap_entry in[2 * HOLES + 1];
	static struct range out[HOLES + 2];
	size_t n = 0;

	srand(99);
	for (size_t i = 0; i < HOLES; i++) {
		in[n++] = (struct mmap_entry){ 1 * G + i * 64 * K, 64 * K, U };
		in[n++] = (struct mmap_entry){ 1 * G + i * 64 * K + 32 * K, 4 * K, MMAP_BAD };
	}
	in[n++] = (struct mmap_entry){ 0, 640 * K, U };
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)rand() % (i + 1);
		struct mmap_entry t = in[i];

		in[i] = in[j];
		in[j] = t;
	}
	struct warnings w = { 0 };
	clock_t t0 = clock();
	size_t got = mmap_normalize(in, n, out, HOLES + 2, record, &w);
	double ms = (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC;

	print_message("mmap_normalize: %zu entries in %.1f ms (host, sanitized)\n", n, ms);
	assert_int_equal(got, HOLES + 2);
	assert_int_equal(w.count, HOLES);   // each usable piece overlaps a hole
	assert_int_equal(out[0].start, 0);
	assert_int_equal(out[0].end, 640 * K);
	assert_int_equal(out[1].start, 1 * G);
	assert_int_equal(out[1].end, 1 * G + 32 * K);
	assert_int_equal(out[HOLES + 1].start, 1 * G + (HOLES - 1) * 64 * K + 36 * K);
	assert_int_equal(out[HOLES + 1].end, 1 * G + HOLES * 64 * K);
	assert_int_equal(range_total(out, got), 640 * K + HOLES * 60 * K);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_warn_args),
		cmocka_unit_test(test_random_vs_bitmap),
		cmocka_unit_test(test_subtract_table),
		cmocka_unit_test(test_subtract_vs_bitmap),
		cmocka_unit_test(test_many_entries),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
