// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/reserve: the words of badpages.txt (a table of texts
// with the pairs, loader and error each must give) and the runs a pair
// matches, against a page-by-page scan for pairs and ranges drawn at random.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

#include "reserve/reserve.h"
#include "memstr.h"

#define PG 0x1000ull
#define PAGE_ONLY 0xfffffffffffff000ull

struct parse_case {
	const char *text;
	bool options;			// reserve_parse_options
	enum reserve_error err;
	size_t at;			// offset of the bad word
	size_t npairs;
	struct reserve_pair first;	// pair[0] when npairs > 0
	const char *loader;
};

static const struct parse_case parse_cases[] = {
	{ "", false, RESERVE_OK, 0, 0, { 0, 0 }, "" },
	{ "# only a comment badram=1\n", false, RESERVE_OK, 0, 0, { 0, 0 }, "" },
	{ "efi-reserve: badram=0x8000000,0xffffffffff000000", false, RESERVE_OK, 0, 1,
	  { 0x8000000, 0xffffffffff000000 }, "" },
	{ "badram=0x1000,0xfffffffffffff000,0x5000,0xfffffffffffff000\nloader=\\EFI\\debian\\grubx64.efi\r\n",
	  false, RESERVE_OK, 0, 2, { 0x1000, PAGE_ONLY }, "\\EFI\\debian\\grubx64.efi" },
	{ "badram=0x1000,0xffffffffffffffff", false, RESERVE_OK, 0, 1, { 0x1000, PAGE_ONLY }, "" },
	{ "pages=0x1234,0x5000 pages=8192", false, RESERVE_OK, 0, 3, { 0x1000, PAGE_ONLY }, "" },
	{ "loader=\\a.efi loader=\\b.efi", false, RESERVE_OK, 0, 0, { 0, 0 }, "\\b.efi" },
	{ "badram=0x1000", false, RESERVE_ODD_PAIRS, 0, 0, { 0, 0 }, "" },
	{ "badram=", false, RESERVE_BAD_NUMBER, 0, 0, { 0, 0 }, "" },
	{ "pages=0x1000,,0x2000", false, RESERVE_BAD_NUMBER, 0, 1, { 0x1000, PAGE_ONLY }, "" },
	{ "pages=0x1000 badram=0x1000,0xzz", false, RESERVE_BAD_NUMBER, 13, 1, { 0x1000, PAGE_ONLY }, "" },
	{ "badram=0xfffffffffffff000,0x1000", false, RESERVE_BAD_PAIR, 0, 0, { 0, 0 }, "" },
	{ "badram=0x0,0xfff", false, RESERVE_ALL_PAGES, 0, 0, { 0, 0 }, "" },
	{ "  grub.efi", false, RESERVE_UNKNOWN_WORD, 2, 0, { 0, 0 }, "" },
	{ "Badram=0x0,0x0", false, RESERVE_UNKNOWN_WORD, 0, 0, { 0, 0 }, "" },
	{ "loader=EFI\\x.efi", false, RESERVE_BAD_LOADER, 0, 0, { 0, 0 }, "" },
	{ "loader=", false, RESERVE_BAD_LOADER, 0, 0, { 0, 0 }, "" },
	// The shell passes the program's name first; GRUB's chainloader does not.
	{ "FS0:\\EFI\\ramsift\\ramsift-reserve.efi pages=0x3000", true, RESERVE_OK, 0, 1,
	  { 0x3000, PAGE_ONLY }, "" },
	{ "pages=0x3000 loader=\\x.efi", true, RESERVE_OK, 0, 1, { 0x3000, PAGE_ONLY }, "\\x.efi" },
	{ "name other", true, RESERVE_UNKNOWN_WORD, 5, 0, { 0, 0 }, "" },
};

static void test_parse(void **state)
{
	(void)state;
	static struct reserve_config c;

	for (size_t k = 0; k < sizeof(parse_cases) / sizeof(parse_cases[0]); k++) {
		const struct parse_case *pc = &parse_cases[k];
		size_t at = 0;
		enum reserve_error e;

		c = (struct reserve_config){ 0 };
		e = (pc->options ? reserve_parse_options : reserve_parse)(&c, pc->text, str_len(pc->text), &at);
		if (e != pc->err)
			fail_msg("\"%s\": error %d want %d (%s)", pc->text, e, pc->err, reserve_error_text(e));
		if (e != RESERVE_OK && at != pc->at)
			fail_msg("\"%s\": at %zu want %zu", pc->text, at, pc->at);
		if (c.npairs != pc->npairs)
			fail_msg("\"%s\": %zu pairs want %zu", pc->text, c.npairs, pc->npairs);
		if (c.npairs && (c.pair[0].addr != pc->first.addr || c.pair[0].mask != pc->first.mask))
			fail_msg("\"%s\": pair 0x%llx,0x%llx want 0x%llx,0x%llx", pc->text,
				 (unsigned long long)c.pair[0].addr, (unsigned long long)c.pair[0].mask,
				 (unsigned long long)pc->first.addr, (unsigned long long)pc->first.mask);
		if (!str_eq(c.loader, pc->loader))
			fail_msg("\"%s\": loader \"%s\" want \"%s\"", pc->text, c.loader, pc->loader);
	}
}

static void test_too_many(void **state)
{
	(void)state;
	static struct reserve_config c;
	static char text[8 + RESERVE_PAIRS_MAX * 8 + 16];
	size_t n = 0, at = 0;

	n += (size_t)snprintf(text, sizeof(text), "pages=");
	for (unsigned k = 0; k <= RESERVE_PAIRS_MAX; k++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s%u", k ? "," : "", k * 4096);
	c = (struct reserve_config){ 0 };
	assert_int_equal(reserve_parse(&c, text, n, &at), RESERVE_TOO_MANY);
	assert_int_equal(c.npairs, RESERVE_PAIRS_MAX);
}

// The runs as the page-by-page scan sees them, for comparison.
struct runs {
	uint64_t start[4096], end[4096];
	size_t n;
};

static void collect(void *ctx, uint64_t start, uint64_t end)
{
	struct runs *r = ctx;

	if (r->n == 4096)
		fail_msg("more than 4096 runs");
	r->start[r->n] = start;
	r->end[r->n++] = end;
}

static void scan(const struct reserve_pair *p, uint64_t lo, uint64_t hi, struct runs *r)
{
	r->n = 0;
	for (uint64_t a = lo; a < hi; a += PG) {
		if ((a & p->mask) != p->addr)
			continue;
		if (r->n && r->end[r->n - 1] == a)
			r->end[r->n - 1] += PG;
		else
			collect(r, a, a + PG);
	}
}

// Pairs whose free bits lie in the low 24 bits (so a 16 MiB window shows
// their pattern), drawn with a fixed seed, over random page-aligned windows.
static void test_runs_match_scan(void **state)
{
	(void)state;
	static struct runs got, want;

	srand(17);
	for (int k = 0; k < 3000; k++) {
		uint64_t free = ((uint64_t)rand() & 0xfff000) | (uint64_t)rand() % 2 * 0x1000;
		uint64_t mask = ~free & PAGE_ONLY;
		if (mask == 0)
			continue;
		struct reserve_pair p = { ((uint64_t)rand() << 12) & mask & 0xffffff, mask };
		uint64_t lo = ((uint64_t)rand() % 0x1000) * PG, hi = lo + ((uint64_t)rand() % 0x1000 + 1) * PG;
		uint64_t total, sum = 0;

		got.n = 0;
		total = reserve_runs(&p, lo, hi, collect, &got);
		scan(&p, lo, hi, &want);
		if (got.n != want.n)
			fail_msg("pair 0x%llx,0x%llx in 0x%llx-0x%llx: %zu runs want %zu",
				 (unsigned long long)p.addr, (unsigned long long)p.mask,
				 (unsigned long long)lo, (unsigned long long)hi, got.n, want.n);
		for (size_t i = 0; i < got.n; i++) {
			if (got.start[i] != want.start[i] || got.end[i] != want.end[i])
				fail_msg("pair 0x%llx,0x%llx run %zu: 0x%llx-0x%llx want 0x%llx-0x%llx",
					 (unsigned long long)p.addr, (unsigned long long)p.mask, i,
					 (unsigned long long)got.start[i], (unsigned long long)got.end[i],
					 (unsigned long long)want.start[i], (unsigned long long)want.end[i]);
			sum += got.end[i] - got.start[i];
		}
		assert_int_equal(total, sum);
	}
}

// At the top of the address space the run ends at hi, not at a wrapped 0.
static void test_runs_top(void **state)
{
	(void)state;
	static struct runs got;
	struct reserve_pair p = { 0xffffffffff000000ull, 0xffffffffff000000ull };

	got.n = 0;
	assert_int_equal(reserve_runs(&p, 0xfffffffff0000000ull, 0xfffffffffffff000ull, collect, &got),
			 0xfff000);
	assert_int_equal(got.n, 1);
	assert_int_equal(got.start[0], 0xffffffffff000000ull);
	assert_int_equal(got.end[0], 0xfffffffffffff000ull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_too_many),
		cmocka_unit_test(test_runs_match_scan),
		cmocka_unit_test(test_runs_top),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
