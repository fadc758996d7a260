// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/record: round trips of a passing run, a failing one,
// one whose pages do not all fit and one with more RAM ranges than kept;
// every byte of a record flipped and every length cut short; a table of
// broken records, each with its error and offset, spliced by hand from a
// small one whose layout is written out here (so the byte format itself
// is checked, not only that encoder and decoder agree); LEB128 at its
// byte boundaries; which machines a record names; its table, fold, result
// line and date.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "crc32.h"
#include "record/record.h"
#include "record/wire.h"
#include "memstr.h"

#define PG 0x1000ull

static struct record rec, back;
static uint8_t buf[RECORD_MAX_BYTES + 64], buf2[RECORD_MAX_BYTES + 64];
static uint64_t pages[RECORD_PAGES_MAX + 16];
static uint64_t slots[RECORD_FOLD_SLOTS];
static uint8_t scratch[BADRAM_FOLD_SCRATCH_BYTES(RECORD_FOLD_SLOTS)];
static struct badram_result fold, refold;

// A record as a QEMU run of `make run` writes it.
static void qemu_pass(struct record *r)
{
	static const struct range ram[] = { { 0, 0x9f000 }, { 0x100000, 0xffe0000 } };

	mem_set(r, 0, sizeof(*r));
	r->result = RESULT_PASS;
	r->passes = 1;
	r->tested_bytes = 258998272;
	r->usable_bytes = 267780096;
	r->elapsed_ms = 395123;
	mem_copy(r->version, "0.2-g1a2b3c4", 13);
	r->seed = 0x9c3f2a17d5e80b41ull;
	r->date = (struct record_date){ 2026, 12, 2, 0, 11, 57 };
	mem_copy(r->manufacturer, "QEMU", 5);
	mem_copy(r->product, "Standard PC (i440FX + PIIX, 1996)", 34);
	r->budget = badram_budget_default();
	record_set_ram(r, ram, 2);
	record_set_pages(r, NULL, 0, false, NULL);
}

static size_t encode(const struct record *r)
{
	size_t n = record_encode(r, buf, sizeof(buf));

	assert_int_not_equal(n, 0);
	assert_int_equal(n, record_size(r));
	return n;
}

// r encodes, decodes to the same record and encodes again to the same bytes.
static size_t roundtrip(const struct record *r)
{
	size_t n = encode(r), at = 0;

	assert_int_equal(record_decode(&back, buf, n, &at), RECORD_OK);
	assert_int_equal(record_encode(&back, buf2, sizeof(buf2)), n);
	assert_memory_equal(buf, buf2, n);
	assert_int_equal(back.result, r->result);
	assert_int_equal(back.errors, r->errors);
	assert_int_equal(back.seed, r->seed);
	assert_string_equal(back.version, r->version);
	assert_string_equal(back.product, r->product);
	assert_int_equal(back.nram, r->nram);
	assert_int_equal(back.nranges, r->nranges);
	assert_memory_equal(back.range, r->range, r->nranges * sizeof(r->range[0]));
	assert_int_equal(back.npairs, r->npairs);
	assert_int_equal(back.pages_cut, r->pages_cut);
	assert_int_equal(back.failing_pages, r->failing_pages);
	return n;
}

static void test_pass(void **state)
{
	(void)state;
	qemu_pass(&rec);
	// 96 fixed, 4 + 12 + 4 + 33 of strings, RAM 2 + 3 + 4, no ranges, no pairs, CRC.
	assert_int_equal(roundtrip(&rec), 165);
	assert_memory_equal(buf, "RSFT\x01\x00\x00\x00\xa5\x00\x00\x00", 12);
	assert_int_equal(back.date.year, 2026);
	assert_int_equal(back.date.second, 57);
	assert_int_equal(back.ram[1].end, 0xffe0000);
}

// A fold of pages[0..n) against rec's RAM and budget, into fold.
static void fold_pages(size_t n)
{
	struct badram_table t;

	badram_table_init(&t, slots, RECORD_FOLD_SLOTS);
	for (size_t i = 0; i < n; i++)
		badram_table_add(&t, pages[i]);
	badram_fold(&t, rec.ram, rec.nram, rec.budget, scratch, sizeof(scratch), &fold);
}

static void test_fail(void **state)
{
	(void)state;
	static const uint64_t cells[] = { 0x1234000, 0x2000000, 0x2001000, 0x2003000 };

	qemu_pass(&rec);
	rec.result = RESULT_FAIL;
	rec.errors = 9;
	mem_copy(pages, cells, sizeof(cells));
	fold_pages(4);
	record_set_pages(&rec, pages, 4, false, &fold);
	assert_false(rec.pages_cut);
	assert_int_equal(rec.npairs, 0);
	assert_int_equal(rec.nranges, 3);
	assert_int_equal(rec.range[1].start, 0x2000000);
	assert_int_equal(rec.range[1].end, 0x2002000);
	assert_int_equal(rec.failing_pages, 4);
	assert_int_equal(record_listed_pages(&rec), 4);
	roundtrip(&rec);
}

// 3000 pages, every other one: 2 bytes a range, so not all fit.
static size_t scattered(size_t n)
{
	for (size_t i = 0; i < n; i++)
		pages[i] = 0x1000000 + 2 * PG * i;
	return n;
}

static void test_cut(void **state)
{
	(void)state;
	size_t n = scattered(3000), len;

	qemu_pass(&rec);
	rec.result = RESULT_FAIL;
	rec.errors = 3000;
	fold_pages(n);
	record_set_pages(&rec, pages, n, false, &fold);
	assert_true(rec.pages_cut);
	assert_int_equal(rec.failing_pages, 3000);
	assert_int_equal(rec.npairs, fold.npairs);
	assert_memory_equal(rec.pair, fold.pair, fold.npairs * sizeof(fold.pair[0]));
	assert_true(rec.nranges > 1000 && rec.nranges < 3000);
	len = roundtrip(&rec);
	assert_true(len <= RECORD_MAX_BYTES);
	// As many as fit: one more would not.
	assert_true(len + wire_range_bytes(rec.range[rec.nranges - 1].end, (struct range){
			pages[rec.nranges], pages[rec.nranges] + PG }) > RECORD_MAX_BYTES);
}

// An incomplete list (the table overflowed), or a fold that counts more
// pages than listed: cut, every range kept, the pairs.
static void test_cut_more(void **state)
{
	(void)state;
	size_t n = scattered(4);

	qemu_pass(&rec);
	rec.result = RESULT_FAIL;
	fold_pages(n);
	record_set_pages(&rec, pages, n, true, &fold);
	assert_true(rec.pages_cut);
	assert_int_equal(rec.nranges, 4);
	assert_int_equal(rec.npairs, fold.npairs);
	roundtrip(&rec);

	fold.failing_pages = 10;
	record_set_pages(&rec, pages, n, false, &fold);
	assert_true(rec.pages_cut);
	assert_int_equal(rec.failing_pages, 10);
	roundtrip(&rec);
}

// One range of more pages than a run lists: cut at RECORD_PAGES_MAX.
static void test_cut_pages_max(void **state)
{
	(void)state;
	size_t n = RECORD_PAGES_MAX + 10;

	for (size_t i = 0; i < n; i++)
		pages[i] = 0x10000000 + PG * i;
	qemu_pass(&rec);
	rec.result = RESULT_FAIL;
	fold = (struct badram_result){ .npairs = 1, .pair = { { 0x10000000, 0x7ffffffff0000000ull } },
				       .failing_pages = n };
	record_set_pages(&rec, pages, n, false, &fold);
	assert_true(rec.pages_cut);
	assert_int_equal(rec.nranges, 1);
	assert_int_equal(record_listed_pages(&rec), RECORD_PAGES_MAX);
	roundtrip(&rec);
}

static void test_ram_approx(void **state)
{
	(void)state;
	static struct range ram[300];

	for (size_t i = 0; i < 300; i++)
		ram[i] = (struct range){ 0x200000 * i + 0x800, 0x200000 * i + 0x100000 };
	qemu_pass(&rec);
	record_set_ram(&rec, ram, 300);
	assert_true(rec.ram_approx);
	assert_int_equal(rec.nram, 1);
	assert_int_equal(rec.ram[0].start, PG);
	assert_int_equal(rec.ram[0].end, 0x200000 * 299 + 0x100000);
	roundtrip(&rec);

	// Touching ranges are one; the ends are cut to whole pages.
	for (size_t i = 0; i < 300; i++)
		ram[i] = (struct range){ 0x1000 * i, 0x1000 * (i + 1) };
	ram[299].end = 0x12cfff;
	record_set_ram(&rec, ram, 300);
	assert_false(rec.ram_approx);
	assert_int_equal(rec.nram, 1);
	assert_int_equal(rec.ram[0].end, 0x12c000);
	roundtrip(&rec);
}

// The largest RAM list (256 ranges 2^43 bytes apart), the longest strings
// and 64 pairs: the pairs still fit, with some ranges.
static void test_pairs_fit(void **state)
{
	(void)state;
	static struct range ram[RECORD_RAM_MAX];
	size_t n = scattered(100);

	qemu_pass(&rec);
	for (size_t i = 0; i < RECORD_RAM_MAX; i++)
		ram[i] = (struct range){ (uint64_t)i << 43, ((uint64_t)i << 43) + (1ull << 42) };
	record_set_ram(&rec, ram, RECORD_RAM_MAX);
	assert_false(rec.ram_approx);
	mem_set(rec.version, 'v', RECORD_VERSION_MAX);
	mem_set(rec.manufacturer, 'm', SMBIOS_STRING_MAX);
	mem_set(rec.product, 'p', SMBIOS_STRING_MAX);
	mem_set(rec.serial, 's', SMBIOS_STRING_MAX);
	rec.result = RESULT_FAIL;
	fold = (struct badram_result){ .npairs = BADRAM_MAX_PAIRS, .failing_pages = n };
	for (unsigned k = 0; k < BADRAM_MAX_PAIRS; k++)
		fold.pair[k] = (struct badram_pair){ 0x1000000 + k * 0x2000, 0x7ffffffffffff000ull };
	record_set_pages(&rec, pages, n, true, &fold);
	assert_int_equal(rec.nram, RECORD_RAM_MAX);
	assert_int_equal(rec.npairs, BADRAM_MAX_PAIRS);
	assert_true(rec.nranges > 50 && rec.nranges < n);
	assert_true(roundtrip(&rec) > RECORD_MAX_BYTES - 2);
}

// A small FAIL record whose every byte is known: no strings, no RAM, the
// page at 0x1000. Offsets: strings 96-99, RAM count 100, range count 102,
// the range (gap 1, length 1) 104-105, pair count 106, CRC 107.
static size_t small_fail(void)
{
	size_t n;

	mem_set(&rec, 0, sizeof(rec));
	rec.result = RESULT_FAIL;
	rec.errors = 1;
	rec.budget = badram_budget_default();
	pages[0] = PG;
	record_set_pages(&rec, pages, 1, false, NULL);
	n = encode(&rec);
	assert_int_equal(n, 111);
	assert_memory_equal(buf + 96, "\0\0\0\0\0\0\1\0\1\0\0", 11);
	return n;
}

static void reseal(uint8_t *b, size_t len)
{
	uint32_t crc;

	for (unsigned i = 0; i < 4; i++)
		b[8 + i] = (uint8_t)(len >> (8 * i));
	crc = crc32(b, len - 4);
	for (unsigned i = 0; i < 4; i++)
		b[len - 4 + i] = (uint8_t)(crc >> (8 * i));
}

struct broken {
	const char *name;
	size_t at;		// replace cut bytes at this offset of the small record
	size_t cut;
	const char *with;	// by these
	size_t nwith;
	enum record_error want;
	size_t want_at;
};

#define B(s) s, sizeof(s) - 1

static const struct broken broken[] = {
	{ "a valid one", 0, 0, B(""), RECORD_OK, 0 },
	{ "result 4", 12, 1, B("\x04"), RECORD_BAD_FIELD, 12 },
	{ "unknown flag", 6, 1, B("\x08"), RECORD_BAD_FIELD, 6 },
	{ "flags' high byte", 7, 1, B("\x01"), RECORD_BAD_FIELD, 6 },
	{ "a day without a year", 68, 1, B("\x01"), RECORD_BAD_FIELD, 68 },
	{ "year 10000", 65, 4, B("\x10\x27\x01\x01"), RECORD_BAD_FIELD, 65 },
	{ "month 13", 65, 4, B("\xea\x07\x0d\x01"), RECORD_BAD_FIELD, 67 },
	{ "29 February 2027", 65, 4, B("\xeb\x07\x02\x1d"), RECORD_BAD_FIELD, 68 },
	{ "31 April", 65, 4, B("\xea\x07\x04\x1f"), RECORD_BAD_FIELD, 68 },
	{ "hour 24", 65, 5, B("\xea\x07\x01\x01\x18"), RECORD_BAD_FIELD, 69 },
	{ "minute 60", 65, 6, B("\xea\x07\x01\x01\x00\x3c"), RECORD_BAD_FIELD, 70 },
	{ "second 60", 65, 7, B("\xea\x07\x01\x01\x00\x00\x3c"), RECORD_BAD_FIELD, 71 },
	{ "uuid_known 2", 72, 1, B("\x02"), RECORD_BAD_FIELD, 72 },
	{ "an unknown UUID's byte", 80, 1, B("\x01"), RECORD_BAD_FIELD, 80 },
	{ "0 pairs", 89, 1, B("\x00"), RECORD_BAD_FIELD, 89 },
	{ "65 pairs", 89, 1, B("\x41"), RECORD_BAD_FIELD, 89 },
	{ "0 holes", 90, 4, B("\x00\x00\x00\x00"), RECORD_BAD_FIELD, 90 },
	{ "100001 holes", 90, 4, B("\xa1\x86\x01\x00"), RECORD_BAD_FIELD, 90 },
	{ "memmap 63", 94, 2, B("\x3f\x00"), RECORD_BAD_FIELD, 94 },
	{ "memmap 2048", 94, 2, B("\x00\x08"), RECORD_BAD_FIELD, 94 },
	{ "a version of 48", 96, 1, B("\x30"), RECORD_BAD_FIELD, 96 },
	{ "a serial of 65", 99, 1, B("\x41"), RECORD_BAD_FIELD, 99 },
	{ "a NUL in a product", 98, 1, B("\x02x\x00"), RECORD_BAD_FIELD, 100 },
	{ "a string past the end", 96, 1, B("\x0c"), RECORD_SHORT, 107 },
	{ "257 RAM ranges", 100, 1, B("\x01\x01"), RECORD_BAD_FIELD, 100 },
	{ "2049 failing ranges", 102, 2, B("\x01\x08"), RECORD_BAD_FIELD, 102 },
	{ "a gap of 0x81 0x00", 104, 1, B("\x81\x00"), RECORD_BAD_FIELD, 105 },
	{ "2^63 pages", 104, 1, B("\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01"), RECORD_BAD_RANGE, 104 },
	{ "2^64 pages", 104, 1, B("\x80\x80\x80\x80\x80\x80\x80\x80\x80\x02"), RECORD_BAD_FIELD, 113 },
	{ "11 bytes", 104, 1, B("\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01"), RECORD_BAD_FIELD, 113 },
	{ "a varint past the end", 104, 3, B("\x80"), RECORD_SHORT, 105 },
	{ "ending past 2^52", 104, 2, B("\x80\x80\x80\x80\x80\x20\x00"), RECORD_BAD_RANGE, 104 },
	{ "ending at 2^52", 104, 2, B("\xff\xff\xff\xff\xff\x1f\x00"), RECORD_OK, 0 },
	{ "two touching", 102, 4, B("\x02\x00\x01\x00\x00\x00"), RECORD_BAD_RANGE, 106 },
	{ "two apart", 102, 4, B("\x02\x00\x01\x00\x01\x00"), RECORD_INCONSISTENT, 57 },
	{ "65 pairs given", 106, 1, B("\x41"), RECORD_BAD_FIELD, 106 },
	{ "a pair past the end", 106, 1, B("\x01"), RECORD_SHORT, 107 },
	{ "a trailing byte", 106, 1, B("\x00\x00"), RECORD_BAD_LENGTH, 107 },
	{ "a pair without the cut", 106, 1,
	  B("\x01\x00\x10\x00\x00\x00\x00\x00\x00\x00\xf0\xff\xff\xff\xff\xff\x7f"), RECORD_INCONSISTENT, 106 },
	{ "a pair's address outside its mask", 106, 1,
	  B("\x01\x00\x10\x00\x00\x00\x00\x00\x00\x00\xe0\xff\xff\xff\xff\xff\x7f"), RECORD_BAD_PAIR, 107 },
	{ "a mask's low bits", 106, 1,
	  B("\x01\x00\x10\x00\x00\x00\x00\x00\x00\x01\xf0\xff\xff\xff\xff\xff\x7f"), RECORD_BAD_PAIR, 107 },
	{ "a mask's bit 63", 106, 1,
	  B("\x01\x00\x10\x00\x00\x00\x00\x00\x00\x00\xf0\xff\xff\xff\xff\xff\xff"), RECORD_BAD_PAIR, 107 },
	{ "a mask not fixing bit 52", 106, 1,
	  B("\x01\x00\x10\x00\x00\x00\x00\x00\x00\x00\xf0\xff\xff\xff\xff\xef\x7f"), RECORD_BAD_PAIR, 107 },
	{ "cut without pairs", 6, 1, B("\x01"), RECORD_INCONSISTENT, 106 },
	{ "PASS with errors", 12, 1, B("\x00"), RECORD_INCONSISTENT, 17 },
	{ "FAIL with nothing", 102, 4, B("\x00\x00"), RECORD_INCONSISTENT, 102 },
	{ "fewer failing pages than listed", 57, 1, B("\x00"), RECORD_INCONSISTENT, 57 },
	{ "more failing pages, not cut", 57, 1, B("\x02"), RECORD_INCONSISTENT, 57 },
	{ "RAM approximate, not one range", 6, 1, B("\x02"), RECORD_INCONSISTENT, 100 },
};

static void splice(uint8_t *out, size_t *len, const struct broken *c, size_t base_len)
{
	mem_copy(out, buf, c->at);
	mem_copy(out + c->at, c->with, c->nwith);
	mem_copy(out + c->at + c->nwith, buf + c->at + c->cut, base_len - c->at - c->cut);
	*len = base_len - c->cut + c->nwith;
}

static void test_broken(void **state)
{
	(void)state;
	size_t base_len = small_fail();

	for (size_t i = 0; i < sizeof(broken) / sizeof(broken[0]); i++) {
		const struct broken *c = &broken[i];
		size_t len, at = 0;

		splice(buf2, &len, c, base_len);
		reseal(buf2, len);
		enum record_error e = record_decode(&back, buf2, len, &at);
		if (e != c->want || (e != RECORD_OK && at != c->want_at))
			fail_msg("%s: %s at %zu, want %s at %zu", c->name, record_error_text(e), at,
				 record_error_text(c->want), c->want_at);
		if (e == RECORD_OK) {
			assert_int_equal(record_encode(&back, buf, sizeof(buf)), len);
			assert_memory_equal(buf, buf2, len);
			small_fail();
		}
	}
}

// Every byte of a record flipped is caught by the frame: the magic, the
// format, the length, else the CRC.
static void test_flip_every_byte(void **state)
{
	(void)state;
	size_t n = scattered(20), len;

	qemu_pass(&rec);
	rec.result = RESULT_FAIL;
	record_set_pages(&rec, pages, n, false, NULL);
	len = encode(&rec);
	for (size_t i = 0; i < len; i++) {
		size_t at = 0;
		enum record_error want = i < 4 ? RECORD_BAD_MAGIC : i < 6 ? RECORD_BAD_FORMAT :
					 i >= 8 && i < 12 ? RECORD_BAD_LENGTH : RECORD_BAD_CRC;
		size_t want_at = i < 4 ? i : i < 6 ? 4 : i >= 8 && i < 12 ? 8 : len - 4;

		mem_copy(buf2, buf, len);
		buf2[i] ^= 1u << (i % 8);
		enum record_error e = record_decode(&back, buf2, len, &at);
		if (e != want || at != want_at)
			fail_msg("byte %zu: %s at %zu, want %s at %zu", i, record_error_text(e), at,
				 record_error_text(want), want_at);
	}
}

// Cut short at every length, it is refused, and nothing past the cut is read.
static void test_truncate(void **state)
{
	(void)state;
	size_t len;

	qemu_pass(&rec);
	len = encode(&rec);
	for (size_t n = 0; n < len; n++) {
		uint8_t *exact = malloc(n ? n : 1);	// ASan sees a read past it
		size_t at = 0;
		enum record_error want = n < 12 ? RECORD_SHORT : RECORD_BAD_LENGTH;

		mem_copy(exact, buf, n);
		enum record_error e = record_decode(&back, exact, n, &at);
		if (e != want || at != (n < 12 ? n : 8))
			fail_msg("%zu bytes: %s at %zu", n, record_error_text(e), at);
		free(exact);
	}
}

static void test_frame(void **state)
{
	(void)state;
	size_t at = 0, len;

	assert_int_equal(record_decode(&back, buf, RECORD_MAX_BYTES + 1, &at), RECORD_TOO_LONG);
	assert_int_equal(at, RECORD_MAX_BYTES);
	len = small_fail();
	// A length of its bytes, yet fewer than a record holds.
	reseal(buf, RECORD_MIN_BYTES - 1);
	assert_int_equal(record_decode(&back, buf, RECORD_MIN_BYTES - 1, &at), RECORD_SHORT);
	assert_int_equal(at, RECORD_MIN_BYTES - 1);
	(void)len;
}

// Gaps and lengths at LEB128's byte boundaries: sizes exact, values back.
static void test_varint(void **state)
{
	(void)state;
	static const struct {
		uint64_t pages;
		size_t bytes;
	} cases[] = {
		{ 1, 1 }, { 127, 1 }, { 128, 2 }, { 16383, 2 }, { 16384, 3 },
		{ (1ull << 35) - 1, 5 }, { 1ull << 35, 6 }, { (1ull << 40) - 2, 6 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t start = cases[i].pages * PG;
		struct range r = { start, start + PG };
		size_t len;

		assert_int_equal(wire_range_bytes(0, r), cases[i].bytes + 1);
		small_fail();
		rec.range[0] = r;
		len = roundtrip(&rec);
		assert_int_equal(len, 111 + cases[i].bytes - 1);
		assert_int_equal(back.range[0].start, start);
		// The same number as a length.
		rec.range[0] = (struct range){ PG, PG + cases[i].pages * PG };
		rec.failing_pages = cases[i].pages;
		if (cases[i].pages <= RECORD_PAGES_MAX)
			roundtrip(&rec);
		else
			assert_int_equal(record_encode(&rec, buf, sizeof(buf)), 0);
	}
}

// What the encoder refuses, and what it writes in its one form.
static void test_encode_rules(void **state)
{
	(void)state;
	size_t at = 0;

	small_fail();
	assert_int_equal(record_encode(&rec, buf, 110), 0);
	rec.range[0].end += 1;
	assert_int_equal(record_encode(&rec, buf, sizeof(buf)), 0);
	small_fail();
	rec.budget.holes = 0;
	assert_int_equal(record_encode(&rec, buf, sizeof(buf)), 0);
	small_fail();
	rec.pages_cut = true;
	assert_int_equal(record_encode(&rec, buf, sizeof(buf)), 0);
	small_fail();
	rec.result = RESULT_PASS;
	assert_int_equal(record_encode(&rec, buf, sizeof(buf)), 0);

	small_fail();
	rec.uuid_known = false;
	mem_set(rec.uuid, 0xff, sizeof(rec.uuid));		// SMBIOS's "not present"
	rec.date = (struct record_date){ 2027, 2, 29, 1, 2, 3 };	// no such day
	mem_set(rec.version, 'v', sizeof(rec.version));		// no NUL
	assert_int_equal(record_encode(&rec, buf, sizeof(buf)), 111 + RECORD_VERSION_MAX);
	assert_int_equal(record_decode(&back, buf, 111 + RECORD_VERSION_MAX, &at), RECORD_OK);
	assert_int_equal(back.uuid[0], 0);
	assert_int_equal(back.date.year, 0);
	assert_int_equal(str_len(back.version), RECORD_VERSION_MAX);
}

struct machine_case {
	const char *name;
	const char *manufacturer, *product, *serial;
	bool uuid_known;
	uint8_t uuid0;
	enum smbios_status status;
	bool same;
};

static void test_same_machine(void **state)
{
	(void)state;
	static const struct machine_case cases[] = {
		{ "the same", "QEMU", "Standard PC", "S1", true, 0x12, SMBIOS_FOUND, true },
		{ "another serial", "QEMU", "Standard PC", "S2", true, 0x12, SMBIOS_FOUND, false },
		{ "another product", "QEMU", "Standard PC ", "S1", true, 0x12, SMBIOS_FOUND, false },
		{ "another maker", "qemu", "Standard PC", "S1", true, 0x12, SMBIOS_FOUND, false },
		{ "another UUID", "QEMU", "Standard PC", "S1", true, 0x13, SMBIOS_FOUND, false },
		{ "no UUID", "QEMU", "Standard PC", "S1", false, 0, SMBIOS_FOUND, false },
		{ "no SMBIOS", "QEMU", "Standard PC", "S1", true, 0x12, SMBIOS_NO_ENTRY, false },
		{ "no table", "QEMU", "Standard PC", "S1", true, 0x12, SMBIOS_NO_TABLE, false },
	};
	static struct smbios_info s;

	small_fail();
	mem_copy(rec.manufacturer, "QEMU", 5);
	mem_copy(rec.product, "Standard PC", 12);
	mem_copy(rec.serial, "S1", 3);
	rec.uuid_known = true;
	rec.uuid[0] = 0x12;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct machine_case *c = &cases[i];

		mem_set(&s, 0, sizeof(s));
		s.status = c->status;
		s.system = true;
		mem_copy(s.manufacturer, c->manufacturer, str_len(c->manufacturer) + 1);
		mem_copy(s.product, c->product, str_len(c->product) + 1);
		mem_copy(s.serial, c->serial, str_len(c->serial) + 1);
		s.uuid_known = c->uuid_known;
		s.uuid[0] = c->uuid0;
		if (record_same_machine(&rec, &s) != c->same)
			fail_msg("%s: same_machine %d, want %d", c->name, !c->same, c->same);
	}
	// A record naming nothing is no machine's, not even one naming nothing.
	small_fail();
	mem_set(&s, 0, sizeof(s));
	s.status = SMBIOS_FOUND;
	assert_false(record_same_machine(&rec, &s));
	rec.uuid_known = true;
	assert_false(record_same_machine(&rec, &s));
	s.uuid_known = true;
	assert_true(record_same_machine(&rec, &s));
}

static void test_table(void **state)
{
	(void)state;
	static uint64_t small[16];
	struct badram_table t;
	size_t n = scattered(20);

	qemu_pass(&rec);
	rec.result = RESULT_FAIL;
	record_set_pages(&rec, pages, n, false, NULL);
	badram_table_init(&t, slots, 64);
	assert_true(record_table(&rec, &t));
	assert_int_equal(t.n, 20);
	for (size_t i = 0; i < n; i++) {
		assert_true(badram_table_has(&t, pages[i]));
		assert_false(badram_table_has(&t, pages[i] + PG));
	}
	badram_table_init(&t, small, 16);
	assert_false(record_table(&rec, &t));
	for (size_t i = 0; i < n; i++)
		assert_true(badram_table_has(&t, pages[i]));
}

static void test_fold(void **state)
{
	(void)state;
	size_t n = scattered(40);

	qemu_pass(&rec);
	rec.result = RESULT_FAIL;
	fold_pages(n);
	record_set_pages(&rec, pages, n, false, &fold);
	assert_true(record_fold(&rec, slots, RECORD_FOLD_SLOTS, scratch, sizeof(scratch), &refold));
	assert_int_equal(refold.npairs, fold.npairs);
	assert_memory_equal(refold.pair, fold.pair, fold.npairs * sizeof(fold.pair[0]));
	assert_int_equal(refold.nmemmap, fold.nmemmap);
	assert_memory_equal(refold.memmap, fold.memmap, fold.nmemmap * sizeof(fold.memmap[0]));
	assert_int_equal(refold.failing_pages, 40);
	// Too few slots: the memmap ranges are not the run's.
	assert_false(record_fold(&rec, slots, 16, scratch, sizeof(scratch), &refold));

	n = scattered(3000);
	fold_pages(n);
	record_set_pages(&rec, pages, n, false, &fold);
	assert_true(rec.pages_cut);
	assert_false(record_fold(&rec, slots, RECORD_FOLD_SLOTS, scratch, sizeof(scratch), &refold));
	assert_int_equal(refold.npairs, fold.npairs);
	assert_memory_equal(refold.pair, fold.pair, fold.npairs * sizeof(fold.pair[0]));
	assert_int_equal(refold.failing_pages, 3000);
}

static void test_result_line(void **state)
{
	(void)state;
	static struct run_status s;
	char want[256], got[256];
	int n;

	qemu_pass(&rec);
	rec.result = RESULT_STOPPED;
	rec.errors = 0;
	s.passes_done = rec.passes;
	s.errors = rec.errors;
	s.tested_bytes = rec.tested_bytes;
	s.usable_bytes = rec.usable_bytes;
	n = status_line_result(want, sizeof(want), &s, rec.result, rec.elapsed_ms, rec.version);
	assert_int_equal(record_result_line(got, sizeof(got), &rec), n);
	assert_string_equal(got, want);
	assert_string_equal(got, "ramsift: result=STOPPED passes=1 errors=0 tested_bytes=258998272 "
				 "usable_bytes=267780096 elapsed_s=395.123 version=0.2-g1a2b3c4");
}

static void test_date_text(void **state)
{
	(void)state;
	static const struct {
		struct record_date d;
		const char *text;
	} cases[] = {
		{ { 2026, 12, 2, 0, 11, 57 }, "2026-12-02 00:11:57 UTC" },
		{ { 2000, 2, 29, 23, 59, 59 }, "2000-02-29 23:59:59 UTC" },
		{ { 1900, 2, 29, 0, 0, 0 }, "an unknown date" },
		{ { 2028, 2, 29, 0, 0, 0 }, "2028-02-29 00:00:00 UTC" },
		{ { 9999, 12, 31, 0, 0, 0 }, "9999-12-31 00:00:00 UTC" },
		{ { 2026, 6, 31, 0, 0, 0 }, "an unknown date" },
		{ { 2026, 1, 1, 0, 0, 60 }, "an unknown date" },
		{ { 0, 0, 0, 0, 0, 0 }, "an unknown date" },
	};
	char text[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int n = record_date_text(text, sizeof(text), &cases[i].d);
		assert_string_equal(text, cases[i].text);
		assert_int_equal(n, (int)str_len(cases[i].text));
	}
	assert_int_equal(record_date_text(text, 5, &cases[0].d), 23);
	assert_string_equal(text, "2026");
}

static void test_error_text(void **state)
{
	(void)state;
	for (enum record_error e = RECORD_OK; e <= RECORD_INCONSISTENT; e++)
		for (enum record_error f = RECORD_OK; f < e; f++)
			assert_string_not_equal(record_error_text(e), record_error_text(f));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pass),
		cmocka_unit_test(test_fail),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_cut_more),
		cmocka_unit_test(test_cut_pages_max),
		cmocka_unit_test(test_ram_approx),
		cmocka_unit_test(test_pairs_fit),
		cmocka_unit_test(test_broken),
		cmocka_unit_test(test_flip_every_byte),
		cmocka_unit_test(test_truncate),
		cmocka_unit_test(test_frame),
		cmocka_unit_test(test_varint),
		cmocka_unit_test(test_encode_rules),
		cmocka_unit_test(test_same_machine),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_result_line),
		cmocka_unit_test(test_date_text),
		cmocka_unit_test(test_error_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
