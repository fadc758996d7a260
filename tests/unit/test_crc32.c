// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/crc32.c: the standard check values, and finding the one
// byte that changed in a page (every bit of a few bytes, at both ends and
// inside), and refusing when two bytes changed.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "crc32.h"
#include "memstr.h"

static const struct {
	const char *text;
	uint32_t crc;
} vectors[] = {
	{ "", 0x00000000 },
	{ "a", 0xe8b7be43 },
	{ "abc", 0x352441c2 },
	{ "123456789", 0xcbf43926 },
	{ "The quick brown fox jumps over the lazy dog", 0x414fa339 },
};

static void test_vectors(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++) {
		uint32_t got = crc32(vectors[i].text, str_len(vectors[i].text));
		if (got != vectors[i].crc)
			fail_msg("crc32(\"%s\") = 0x%08x, want 0x%08x", vectors[i].text, got,
				 vectors[i].crc);
	}
}

static uint8_t page[4096];

static void fill(void)
{
	uint32_t x = 12345;
	for (size_t i = 0; i < sizeof(page); i++) {
		x = x * 1103515245 + 12345;
		page[i] = (uint8_t)(x >> 16);
	}
}

static void test_find_byte(void **state)
{
	static const size_t offsets[] = { 0, 1, 7, 2047, 4000, 4095 };
	(void)state;
	fill();
	uint32_t want = crc32(page, sizeof(page));
	size_t at;
	uint8_t was;

	assert_false(crc32_find_byte(page, sizeof(page), want, &at, &was));
	for (size_t i = 0; i < sizeof(offsets) / sizeof(offsets[0]); i++)
		for (unsigned mask = 1; mask < 256; mask = mask * 3 + 1) {
			size_t k = offsets[i];
			uint8_t old = page[k];
			page[k] ^= (uint8_t)mask;
			if (!crc32_find_byte(page, sizeof(page), want, &at, &was))
				fail_msg("offset %zu mask 0x%x: not found", k, mask);
			if (at != k || was != old)
				fail_msg("offset %zu mask 0x%x: found offset %zu was 0x%02x, want 0x%02x",
					 k, mask, at, was, old);
			page[k] = old;
		}
}

static void test_two_bytes_not_one(void **state)
{
	(void)state;
	fill();
	uint32_t want = crc32(page, sizeof(page));
	size_t at;
	uint8_t was;

	page[100] ^= 1;
	page[3000] ^= 0x80;
	assert_false(crc32_find_byte(page, sizeof(page), want, &at, &was));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_find_byte),
		cmocka_unit_test(test_two_bytes_not_one),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
