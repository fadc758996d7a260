// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/fmt.c. Each conversion case is checked twice: against
// the literal string we expect, and against the host libc's snprintf with
// the same arguments, so flag/width/precision corner cases follow C99.
// Then truncation and NUL-termination of fmt_snprintf, the sink interface,
// a text built in pieces, and fmt_size's units and truncating decimals.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>

#include "fmt.h"
#include "memstr.h"

// Format with both fmt_snprintf and libc snprintf; both must equal want.
// -Wformat checks every call against both attributes.
#define CHECK(want, ...) check_one(__LINE__, want, \
	fmt_snprintf(got, sizeof(got), __VA_ARGS__), got, \
	snprintf(ref, sizeof(ref), __VA_ARGS__), ref)

// Same, for directives where our documented output differs from glibc's.
#define CHECK_OWN(want, ...) check_one(__LINE__, want, \
	fmt_snprintf(got, sizeof(got), __VA_ARGS__), got, -1, NULL)

static void check_one(int line, const char *want, int got_n, const char *got,
		      int ref_n, const char *ref)
{
	int want_n = (int)str_len(want);

	if (!str_eq(got, want) || got_n != want_n)
		fail_msg("line %d: got \"%s\" (%d) want \"%s\" (%d)", line, got,
			 got_n, want, want_n);
	if (ref != NULL && (!str_eq(ref, want) || ref_n != want_n))
		fail_msg("line %d: libc gives \"%s\" (%d), test expects \"%s\"",
			 line, ref, ref_n, want);
}

static void test_integers(void **state)
{
	(void)state;
	char got[128], ref[128];

	CHECK("0", "%d", 0);
	CHECK("-1", "%i", -1);
	CHECK("2147483647", "%d", INT32_MAX);
	CHECK("-2147483648", "%d", INT32_MIN);
	CHECK("4294967295", "%u", UINT32_MAX);
	CHECK("-9223372036854775808", "%lld", (long long)INT64_MIN);
	CHECK("9223372036854775807", "%ld", (long)INT64_MAX);
	CHECK("18446744073709551615", "%llu", (unsigned long long)UINT64_MAX);
	CHECK("ffffffffffffffff", "%lx", (unsigned long)UINT64_MAX);
	CHECK("DEADBEEF", "%X", 0xdeadbeefu);
	CHECK("deadbeef", "%x", 0xdeadbeefu);
	CHECK("-128", "%hhd", (signed char)-128);
	CHECK("255", "%hhu", (unsigned char)255);
	CHECK("ff", "%hhx", 0x1ff);             // truncated to unsigned char
	CHECK("-1", "%hd", 0xffff);             // truncated to short
	CHECK("65535", "%hu", 0x1ffff);
	CHECK("18446744073709551615", "%zu", (size_t)-1);
	CHECK("-5", "%zd", (ptrdiff_t)-5);
	CHECK("-7", "%td", (ptrdiff_t)-7);
	CHECK("-9223372036854775808", "%jd", (intmax_t)INT64_MIN);
	CHECK("18446744073709551615", "%ju", (uintmax_t)UINT64_MAX);
	CHECK("abc", "%tx", (ptrdiff_t)0xabc);
}

static void test_flags_width_precision(void **state)
{
	(void)state;
	char got[128], ref[128];

	CHECK("   42", "%5d", 42);
	CHECK("42   |", "%-5d|", 42);
	CHECK("00042", "%05d", 42);
	CHECK("-0042", "%05d", -42);
	CHECK("  -42", "%5d", -42);
	CHECK("+42", "%+d", 42);
	CHECK(" 42", "% d", 42);
	CHECK("+0", "%+d", 0);
	CHECK("-42", "%+d", -42);
	CHECK("+0042", "%+05d", 42);
	CHECK("42", "%0d", 42);                 // width 0
	CHECK("42", "%1d", 42);                 // width smaller than value
	CHECK("00042", "%.5d", 42);
	CHECK("  00042", "%7.5d", 42);
	CHECK("-00042", "%.5d", -42);
	// gcc warns that these flags are ignored; the behaviour must still
	// match C99.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
	CHECK("  042", "%05.3d", 42);           // precision disables '0'
	CHECK("abcd    |", "%-08x|", 0xabcdu);   // '-' overrides '0'
#pragma GCC diagnostic pop
	CHECK("", "%.0d", 0);
	CHECK("     ", "%5.0d", 0);
	CHECK("", "%.0x", 0u);
	CHECK("0", "%.1d", 0);
	CHECK("0x1f", "%#x", 0x1fu);
	CHECK("0X1F", "%#X", 0x1fu);
	CHECK("0", "%#x", 0u);
	CHECK("0x0001f", "%#.5x", 0x1fu);
	CHECK("0x00001f", "%#08x", 0x1fu);
	CHECK("0000abcd", "%08x", 0xabcdu);
	CHECK("   42", "%*d", 5, 42);
	CHECK("42   |", "%*d|", -5, 42);         // negative * width: left
	CHECK("00042", "%.*d", 5, 42);
	CHECK("42", "%.*d", -1, 42);            // negative * precision: none
	CHECK("  007", "%*.*d", 5, 3, 7);
	CHECK("-9223372036854775808", "%5lld", (long long)INT64_MIN);
	CHECK("-000000000009223372036854775808", "%.30lld",
	      (long long)INT64_MIN);
	CHECK("0000000000000000000018446744073709551615", "%040llu",
	      (unsigned long long)UINT64_MAX);
}

static void test_strings_chars(void **state)
{
	(void)state;
	char got[128], ref[128];
	const char unterminated[3] = { 'a', 'b', 'c' };
	const char *volatile null_str = NULL;   // hidden from -Wformat-overflow

	CHECK("hello", "%s", "hello");
	CHECK("", "%s", "");
	CHECK("  hi", "%4s", "hi");
	CHECK("hi  |", "%-4s|", "hi");
	CHECK("he", "%.2s", "hello");
	CHECK("   he", "%5.2s", "hello");
	CHECK("hel", "%.*s", 3, "hello");
	CHECK("hello", "%.*s", -3, "hello");
	CHECK("ab", "%.2s", unterminated);      // must not read past prec
	CHECK("x", "%c", 'x');
	CHECK("   x", "%4c", 'x');
	CHECK("x   |", "%-4c|", 'x');
	CHECK("100%", "100%%");
	CHECK("a%b", "a%%b");
	CHECK("a 1 b 2 c", "a %d b %s c", 1, "2");
	CHECK("", "%s", "");
	CHECK_OWN("(null)", "%s", null_str);
	CHECK_OWN("(nu", "%.3s", null_str);
	CHECK_OWN("0x0", "%p", (void *)NULL);
	CHECK("0xdeadbeef", "%p", (void *)0xdeadbeefUL);
	CHECK("  0xabc", "%7p", (void *)0xabcUL);
	CHECK("0xffffffffffffffff", "%p", (void *)UINTPTR_MAX);
}

// Directives gcc would reject at compile time still must not crash at run
// time; build the format at run time so -Wformat does not see it.
static void test_malformed(void **state)
{
	(void)state;
	char got[64];
	static const struct {
		const char *fmt, *want;
	} cases[] = {
		{ "abc%", "abc%" },
		{ "%q", "%q" },
		{ "%5q!", "%5q!" },
		{ "%-", "%-" },
		{ "%l", "%l" },
		{ "%n", "%n" },
		{ "x%.", "x%." },
	};
	const char *volatile f;

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		f = cases[c].fmt;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"
		int n = fmt_snprintf(got, sizeof(got), f);
#pragma GCC diagnostic pop
		if (!str_eq(got, cases[c].want) || n != (int)str_len(cases[c].want))
			fail_msg("format \"%s\": got \"%s\" (%d) want \"%s\"",
				 cases[c].fmt, got, n, cases[c].want);
	}
}

static void test_snprintf_truncation(void **state)
{
	(void)state;
	char buf[8];

	mem_set(buf, 'Z', sizeof(buf));
	assert_int_equal(fmt_snprintf(buf, 4, "%s", "abcdef"), 6);
	assert_string_equal(buf, "abc");
	assert_int_equal(buf[4], 'Z');          // nothing written past size

	mem_set(buf, 'Z', sizeof(buf));
	assert_int_equal(fmt_snprintf(buf, 1, "%d", 12345), 5);
	assert_int_equal(buf[0], '\0');
	assert_int_equal(buf[1], 'Z');

	assert_int_equal(fmt_snprintf(NULL, 0, "%08x", 1u), 8);

	mem_set(buf, 'Z', sizeof(buf));
	assert_int_equal(fmt_snprintf(buf, sizeof(buf), "%s", "1234567"), 7);
	assert_string_equal(buf, "1234567");
	assert_int_equal(fmt_snprintf(buf, sizeof(buf), "%s", "12345678"), 8);
	assert_string_equal(buf, "1234567");

	// Padding far larger than the buffer: counted, not written.
	assert_int_equal(fmt_snprintf(buf, sizeof(buf), "%1000d", 1), 1000);
	assert_string_equal(buf, "       ");
}

struct collect {
	char buf[256];
	size_t len;
	int calls;
};

static void collect_sink(void *ctx, const char *s, size_t n)
{
	struct collect *c = ctx;

	if (n == 0)
		fail_msg("sink called with n == 0");
	mem_copy(c->buf + c->len, s, n);
	c->len += n;
	c->calls++;
}

static void test_sink(void **state)
{
	(void)state;
	struct collect c = { .len = 0 };

	int n = fmt_format(collect_sink, &c, "id=%u name=%-6s|%c", 7u, "cpu", 0);

	assert_int_equal(n, 18);
	assert_int_equal(c.len, 18);
	assert_memory_equal(c.buf, "id=7 name=cpu   |\0", 18);  // %c of NUL
	assert_true(c.calls <= 8);             // literal runs are batched
}

// A text of three pieces, "ab", "cde" and "f%d" of 7, in buffers of every
// size from 0 to one past its length: each keeps the longest prefix that
// fits, NUL-terminated, writes nothing past its size, and counts all 7
// bytes (a piece cut short must not leave room for a later one).
static void test_text(void **state)
{
	(void)state;
	static const char whole[] = "abcdef7";

	for (size_t size = 0; size <= sizeof(whole); size++) {
		char buf[sizeof(whole) + 1];

		mem_set(buf, 'Z', sizeof(buf));
		struct fmt_text t = fmt_text_start(size ? buf : NULL, size);
		fmt_text_put(&t, "ab");
		fmt_text_put(&t, "%s", "cde");
		fmt_text_put(&t, "f%d", 7);

		size_t kept = size == 0 ? 0 : size - 1 < 7 ? size - 1 : 7;
		if (t.used != 7)
			fail_msg("size %zu: used %zu, want 7", size, t.used);
		if (size > 0 && (str_len(buf) != kept || mem_cmp(buf, whole, kept) != 0))
			fail_msg("size %zu: got \"%s\", want the first %zu bytes of \"%s\"",
				 size, buf, kept, whole);
		if (buf[size] != 'Z')
			fail_msg("size %zu: wrote past the buffer", size);
	}
}

static const struct {
	uint64_t bytes;
	const char *want;
} size_cases[] = {
	{ 0, "0 B" },
	{ 1, "1 B" },
	{ 512, "512 B" },
	{ 1023, "1023 B" },
	{ 1024, "1 KiB" },
	{ 1025, "1.0 KiB" },
	{ 1536, "1.5 KiB" },
	{ 2047, "1.9 KiB" },                    // truncated, never rounded up
	{ 4096, "4 KiB" },
	{ 256ull << 20, "256 MiB" },
	{ (1ull << 30) + (1ull << 29), "1.5 GiB" },
	{ 5ull << 30, "5 GiB" },
	{ (1ull << 30) + 1, "1.0 GiB" },
	{ (1ull << 40) - 1, "1023.9 GiB" },
	{ 1ull << 40, "1 TiB" },
	{ 1023ull << 50, "1023 PiB" },
	{ (1ull << 60) - 1, "1023.9 PiB" },
	{ 1ull << 60, "1 EiB" },
	{ UINT64_MAX, "15.9 EiB" },
	{ 1ull << 52, "4 PiB" },
};

static void test_fmt_size(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(size_cases) / sizeof(size_cases[0]); c++) {
		char buf[FMT_SIZE_LEN];
		const char *r = fmt_size(buf, size_cases[c].bytes);

		if (r != buf || !str_eq(buf, size_cases[c].want))
			fail_msg("fmt_size(%llu): got \"%s\" want \"%s\"",
				 (unsigned long long)size_cases[c].bytes, buf,
				 size_cases[c].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_flags_width_precision),
		cmocka_unit_test(test_strings_chars),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_snprintf_truncation),
		cmocka_unit_test(test_sink),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_fmt_size),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
