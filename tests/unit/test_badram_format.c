// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/badram/format.c: the exact text of every line for
// hand-made results (pairs, memmap units, each verdict of the summary), and
// snprintf semantics when the buffer is short.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "badram/badram.h"
#include "memstr.h"

static struct badram_result sample(void)
{
	struct badram_result r;

	mem_set(&r, 0, sizeof(r));
	r.npairs = 2;
	r.pair[0].addr = 0x1234000;
	r.pair[0].mask = 0x7ffffffffffff000;
	r.pair[1].addr = 0x0;
	r.pair[1].mask = 0x7fffffffc0000000;
	r.nmemmap = 3;
	r.memmap[0].start = 0x1234000;
	r.memmap[0].end = 0x1235000;
	r.memmap[1].start = 0x40000000;
	r.memmap[1].end = 0x40200000;
	r.memmap[2].start = 0x100000000;
	r.memmap[2].end = 0x140000000;
	r.failing_pages = 3;
	r.ram_pages = 1u << 20;
	r.excluded_pages = 3;
	r.holes = 2;
	r.pairs_budget = 20;
	r.holes_budget = 48;
	r.grub_safe = true;
	return r;
}

typedef int format_fn(char *buf, size_t len, const struct badram_result *r);

struct line_case {
	const char *name;
	format_fn *fn;
	void (*tweak)(struct badram_result *r);
	const char *want;
};

static void none(struct badram_result *r)
{
	(void)r;
}

static void pair_limited(struct badram_result *r)
{
	r->excluded_pages = 515;
	r->sacrificed_pages = 512;
	r->limit = BADRAM_LIMIT_PAIRS;
}

static void hole_limited(struct badram_result *r)
{
	r->failing_pages = 2048;
	r->excluded_pages = 65536;
	r->sacrificed_pages = 63488;
	r->exact_holes = 2048;
	r->holes = 3;
	r->limit = BADRAM_LIMIT_HOLES;
}

static void overflowed(struct badram_result *r)
{
	pair_limited(r);
	r->overflow = true;
	r->failing_pages = 20000;
}

static void bios_unsafe(struct badram_result *r)
{
	r->grub_safe = false;
}

static void kaslr_capped(struct badram_result *r)
{
	r->memmap_kaslr = true;
	r->memmap_sacrificed = 5833;
}

static const struct line_case line_cases[] = {
	{ "badram", badram_format_badram, none,
	  "badram=0x1234000,0x7ffffffffffff000,0x0,0x7fffffffc0000000" },
	{ "grub", badram_format_grub, none,
	  "GRUB_BADRAM=\"0x1234000,0x7ffffffffffff000,0x0,0x7fffffffc0000000\"" },
	{ "memmap", badram_format_memmap, none,
	  "memmap=4K$0x1234000,2M$0x40000000,1G$0x100000000" },
	{ "summary exact", badram_format_summary, none,
	  "fold: failing_pages=3 pairs=2 holes=2 excluded_pages=3 sacrificed_pages=0 (0 B): exact" },
	{ "summary pairs", badram_format_summary, pair_limited,
	  "fold: failing_pages=3 pairs=2 holes=2 excluded_pages=515 sacrificed_pages=512 "
	  "(2 MiB, 0.0% of RAM): limited by patterns=20" },
	{ "summary holes", badram_format_summary, hole_limited,
	  "fold: failing_pages=2048 pairs=2 holes=3 excluded_pages=65536 "
	  "sacrificed_pages=63488 (248 MiB, 6.0% of RAM): limited by holes=48 "
	  "(an exact cover needs 2048 holes); failures too many or too scattered "
	  "to exclude tightly: replace the module" },
	{ "summary not GRUB-safe", badram_format_summary, bios_unsafe,
	  "fold: failing_pages=3 pairs=2 holes=2 excluded_pages=3 sacrificed_pages=0 "
	  "(0 B): exact; GRUB 2.06 on BIOS may skip some pairs: use memmap= there" },
	{ "summary KASLR", badram_format_summary, kaslr_capped,
	  "fold: failing_pages=3 pairs=2 holes=2 excluded_pages=3 sacrificed_pages=0 "
	  "(0 B): exact; memmap= kept to 4 ranges so Linux's KASLR stays on "
	  "(reserves 22.7 MiB of good RAM)" },
	{ "summary overflow", badram_format_summary, overflowed,
	  "fold: failing_pages=20000 pairs=2 holes=2 excluded_pages=515 "
	  "sacrificed_pages=512 (2 MiB, 0.0% of RAM): limited by patterns=20; more "
	  "failing pages than the table holds, some covered coarsely; failures too "
	  "many or too scattered to exclude tightly: replace the module" },
};

static void test_lines(void **state)
{
	char buf[BADRAM_LINE_MAX];
	(void)state;
	for (size_t i = 0; i < sizeof(line_cases) / sizeof(line_cases[0]); i++) {
		const struct line_case *c = &line_cases[i];
		struct badram_result r = sample();
		c->tweak(&r);
		int n = c->fn(buf, sizeof(buf), &r);
		if (!str_eq(buf, c->want) || n != (int)str_len(c->want))
			fail_msg("%s:\n got  \"%s\" (%d)\n want \"%s\"", c->name, buf, n, c->want);
	}
}

static void test_short_buffer(void **state)
{
	struct badram_result r = sample();
	char buf[12];
	(void)state;
	int n = badram_format_badram(buf, sizeof(buf), &r);
	assert_int_equal(n, (int)str_len(line_cases[0].want));
	assert_string_equal(buf, "badram=0x12");
	assert_int_equal(badram_format_grub(NULL, 0, &r), (int)str_len(line_cases[1].want));
}

// Windows' list and Linux's offline lines, checked by hand: PFN = address
// >> 12 in lowercase hex; the list stops before cmd.exe's 8191 characters.
static void test_sinks(void **state)
{
	static const uint64_t pages[] = { 0x1234000, 0x5a5a000, 0x7000000, 0x123456789000 };
	static uint64_t many[1000];
	static char buf[9000];
	size_t listed;
	(void)state;

	assert_int_equal(badram_format_windows(buf, sizeof(buf), pages, 4, &listed), 71);
	assert_string_equal(buf, "bcdedit /set {badmemory} badmemorylist 0x1234 0x5a5a 0x7000 "
			    "0x123456789");
	assert_int_equal(listed, 4);
	badram_format_windows(buf, sizeof(buf), pages, 0, &listed);
	assert_string_equal(buf, "bcdedit /set {badmemory} badmemorylist");
	assert_int_equal(listed, 0);
	// 1000 pages from 4 GiB: " 0x100000" is 9 characters; 38 + 905 * 9 =
	// 8183 fit, one more would make 8192.
	for (int i = 0; i < 1000; i++)
		many[i] = 0x100000000ull + (uint64_t)i * 4096;
	assert_int_equal(badram_format_windows(buf, sizeof(buf), many, 1000, &listed), 8183);
	assert_int_equal(listed, 905);
	assert_int_equal(str_len(buf), 8183);
	assert_true(str_starts_with(buf + 8183 - 9, " 0x100388"));
	// Cut by a short buffer: the length needed, the text terminated.
	assert_int_equal(badram_format_windows(buf, 16, pages, 4, &listed), 71);
	assert_string_equal(buf, "bcdedit /set {b");

	assert_int_equal(badram_format_offline(buf, sizeof(buf), 0x5a5a000), 61);
	assert_string_equal(buf, "echo 0x5a5a000 > /sys/devices/system/memory/hard_offline_page");
	badram_format_offline(buf, sizeof(buf), 0);
	assert_string_equal(buf, "echo 0x0 > /sys/devices/system/memory/hard_offline_page");
	assert_string_equal(BADRAM_WINDOWS_ACCESS, "bcdedit /set {badmemory} badmemoryaccess no");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_short_buffer),
		cmocka_unit_test(test_sinks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
