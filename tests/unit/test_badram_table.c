// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/badram/table.c: what each add reports (new, known,
// overflow, invalid), that repeats and other offsets in a page are one page,
// and that past the table's capacity the overflow cubes keep covering every
// page added, however many.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "badram/badram.h"

static uint64_t slots[1024];

struct add_case {
	uint64_t addr;
	enum badram_add want;
};

static const struct add_case add_cases[] = {
	{ 0x1234008, BADRAM_ADD_NEW },
	{ 0x1234ff0, BADRAM_ADD_KNOWN },        // same page, last-page fast path
	{ 0x0, BADRAM_ADD_NEW },                // page 0
	{ 0x1234000, BADRAM_ADD_KNOWN },        // known, through the hash
	{ 0xfffffffffffff, BADRAM_ADD_NEW },    // highest physical address
	{ 0x10000000000000, BADRAM_ADD_INVALID }, // 2^52: not physical
	{ 0x8000000000000000, BADRAM_ADD_INVALID },
	{ 0x0, BADRAM_ADD_KNOWN },
};

static void test_add(void **state)
{
	struct badram_table t;
	(void)state;
	badram_table_init(&t, slots, 1024);
	assert_true(badram_table_empty(&t));
	for (size_t i = 0; i < sizeof(add_cases) / sizeof(add_cases[0]); i++) {
		enum badram_add got = badram_table_add(&t, add_cases[i].addr);
		if (got != add_cases[i].want)
			fail_msg("add case %zu (%#llx): got %d want %d", i,
				 (unsigned long long)add_cases[i].addr, got, add_cases[i].want);
	}
	assert_int_equal(t.n, 3);
	assert_false(badram_table_empty(&t));
	assert_true(badram_table_has(&t, 0x1234fff));           // same page
	assert_true(badram_table_has(&t, 0xfffffffffffff));
	assert_false(badram_table_has(&t, 0x1235000));          // next page
	assert_false(badram_table_has(&t, 0x10000000000000));   // not physical
}

static void test_overflow_covers(void **state)
{
	static uint64_t pages[5000];
	struct badram_table t;
	uint64_t x = 12345;
	(void)state;
	badram_table_init(&t, slots, 16);       // holds 14 pages
	for (size_t i = 0; i < 5000; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		pages[i] = (x >> 30) & 0xfffffff;
		enum badram_add a = badram_table_add(&t, pages[i] << 12);
		if (i < 14 && a != BADRAM_ADD_NEW)
			fail_msg("page %zu: got %d before the table was full", i, a);
		// Every page so far is in the table or an overflow cube.
		for (size_t k = 0; k <= i; k += 1 + i / 64) {
			bool found = false;
			for (uint64_t s = 0; s <= t.mask; s++)
				found |= t.slot[s] == pages[k];
			for (unsigned c = 0; c < t.novf; c++)
				found |= cube_match(t.ovf[c], pages[k]);
			if (!found || !badram_table_has(&t, pages[k] << 12))
				fail_msg("after %zu adds, page %#llx (added %zu) is lost", i + 1,
					 (unsigned long long)pages[k], k);
		}
	}
	assert_int_equal(t.n, 14);
	assert_true(t.novf >= 1 && t.novf <= BADRAM_OVF_MAX);
	assert_true(t.ovf_pages >= 1);
	assert_int_equal(badram_table_add(&t, pages[4999] << 12), BADRAM_ADD_KNOWN);
}

// The lowest pages, sorted, whatever the hash order; the rest left out.
static void test_pages(void **state)
{
	struct badram_table t;
	uint64_t out[8], x = 99;
	static uint64_t want[700];
	size_t nwant = 0;
	(void)state;

	badram_table_init(&t, slots, 1024);
	assert_int_equal(badram_table_pages(&t, out, 8), 0);
	badram_table_add(&t, 0x7000010);
	badram_table_add(&t, 0x5a5a5a8);
	badram_table_add(&t, 0x5a5aff8);	// the same page
	badram_table_add(&t, 0x0);
	assert_int_equal(badram_table_pages(&t, out, 8), 3);
	assert_int_equal(out[0], 0x0);
	assert_int_equal(out[1], 0x5a5a000);
	assert_int_equal(out[2], 0x7000000);
	assert_int_equal(badram_table_pages(&t, out, 0), 0);

	// 700 random pages: the 8 lowest, in order.
	badram_table_init(&t, slots, 1024);
	for (int i = 0; i < 700; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		uint64_t page = (x >> 20) & 0xffffffff000ull;
		if (!badram_table_has(&t, page))
			want[nwant++] = page;
		badram_table_add(&t, page);
	}
	for (size_t i = 1; i < nwant; i++)	// insertion sort of what was added
		for (size_t k = i; k > 0 && want[k - 1] > want[k]; k--) {
			uint64_t v = want[k];
			want[k] = want[k - 1];
			want[k - 1] = v;
		}
	assert_int_equal(badram_table_pages(&t, out, 8), 8);
	for (int i = 0; i < 8; i++)
		if (out[i] != want[i])
			fail_msg("page %d: got %#llx want %#llx", i, (unsigned long long)out[i],
				 (unsigned long long)want[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add),
		cmocka_unit_test(test_overflow_covers),
		cmocka_unit_test(test_pages),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
