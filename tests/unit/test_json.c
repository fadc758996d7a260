// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/json.c: exact texts for the values, the members and
// the containers, every single byte's escape, UTF-8 kept or replaced, the
// cut when the buffer is small, misuse refused; then hostile strings
// (random bytes, every two-byte string) whose output the strict reader of
// tests/json/jsonparse.c must accept, decoding to what the rules say.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "memstr.h"	// lib's: -Ilib hides libc's
#include <cmocka.h>

#include "json.h"
// The reader is a test helper of its own, compiled in here.
#include "../json/jsonparse.h"
#include "../json/jsonparse.c"

static char out[4096];

#define EXPECT(want, j) do { \
	bool ok_ = json_end(j); \
	if (!ok_ || !str_eq(out, want)) \
		fail_msg("line %d: got %s \"%s\", want \"%s\"", __LINE__, ok_ ? "complete" : "incomplete", \
			 out, want); \
} while (0)

static void test_values(void **state)
{
	(void)state;
	struct json j;

	json_init(&j, out, sizeof(out));
	json_object_begin(&j);
	json_key(&j, "a");
	json_u64(&j, 0);
	json_key(&j, "b");
	json_u64(&j, UINT64_MAX);
	json_key(&j, "c");
	json_hex(&j, 0);
	json_key(&j, "d");
	json_hex(&j, 0xdeadbeefcafeull);
	json_key(&j, "e");
	json_ms_as_s(&j, 12345);
	json_key(&j, "f");
	json_ms_as_s(&j, 7);
	json_key(&j, "g");
	json_bool(&j, true);
	json_key(&j, "h");
	json_bool(&j, false);
	json_key(&j, "i");
	json_null(&j);
	json_key(&j, "j");
	json_string(&j, "x y");
	json_object_end(&j);
	EXPECT("{\"a\":0,\"b\":18446744073709551615,\"c\":\"0x0\",\"d\":\"0xdeadbeefcafe\","
	       "\"e\":12.345,\"f\":0.007,\"g\":true,\"h\":false,\"i\":null,\"j\":\"x y\"}", &j);
}

// Each member helper writes its key, then the value it names: a NULL
// string is null, ranges an array of start/end objects (empty when none).
static void test_members(void **state)
{
	(void)state;
	static const struct range r[] = { { 0x1000, 0x3000 }, { 1ull << 32, (1ull << 32) + 0x1000 } };
	struct json j;

	json_init(&j, out, sizeof(out));
	json_object_begin(&j);
	json_member_u64(&j, "n", 42);
	json_member_hex(&j, "h", 0xabc);
	json_member_bool(&j, "t", true);
	json_member_bool(&j, "f", false);
	json_member_string(&j, "s", "x\"y");
	json_member_string(&j, "none", NULL);
	json_member_ranges(&j, "r", r, 2);
	json_member_ranges(&j, "empty", r, 0);
	json_object_end(&j);
	EXPECT("{\"n\":42,\"h\":\"0xabc\",\"t\":true,\"f\":false,\"s\":\"x\\\"y\","
	       "\"none\":null,\"r\":[{\"start\":\"0x1000\",\"end\":\"0x3000\"},"
	       "{\"start\":\"0x100000000\",\"end\":\"0x100001000\"}],\"empty\":[]}", &j);
}

static void test_containers(void **state)
{
	(void)state;
	struct json j;

	json_init(&j, out, sizeof(out));
	json_array_begin(&j);
	json_array_end(&j);
	EXPECT("[]", &j);

	json_init(&j, out, sizeof(out));
	json_object_begin(&j);
	json_object_end(&j);
	EXPECT("{}", &j);

	json_init(&j, out, sizeof(out));
	json_object_begin(&j);
	json_key(&j, "list");
	json_array_begin(&j);
	json_u64(&j, 1);
	json_object_begin(&j);
	json_key(&j, "k");
	json_array_begin(&j);
	json_array_end(&j);
	json_object_end(&j);
	json_string(&j, "");
	json_array_end(&j);
	json_key(&j, "o");
	json_object_begin(&j);
	json_object_end(&j);
	json_object_end(&j);
	EXPECT("{\"list\":[1,{\"k\":[]},\"\"],\"o\":{}}", &j);

	// A bare top-level value is a JSON text too.
	json_init(&j, out, sizeof(out));
	json_u64(&j, 5);
	EXPECT("5", &j);
}

// The escape of each single byte, as json_string_n writes it.
static const char *byte_escape(unsigned c, char *buf)
{
	static const char *named[] = { ['\n'] = "\\n", ['\t'] = "\\t", ['\r'] = "\\r" };
	if (c < sizeof(named) / sizeof(named[0]) && named[c])
		return named[c];
	if (c == '"')
		return "\\\"";
	if (c == '\\')
		return "\\\\";
	if (c < 0x20 || c == 0x7f) {
		sprintf(buf, "\\u%04x", c);
		return buf;
	}
	if (c >= 0x80)
		return "\\ufffd";	// alone, no byte >= 0x80 is UTF-8
	buf[0] = (char)c;
	buf[1] = '\0';
	return buf;
}

static void test_every_byte(void **state)
{
	(void)state;
	struct json j;
	char want[32], e[8];

	for (unsigned c = 0; c < 256; c++) {
		char s = (char)c;
		json_init(&j, out, sizeof(out));
		json_string_n(&j, &s, 1);
		snprintf(want, sizeof(want), "\"%s\"", byte_escape(c, e));
		if (!json_end(&j) || !str_eq(out, want))
			fail_msg("byte 0x%02x: got %s, want %s", c, out, want);
	}
}

static const struct {
	const char *in;
	const char *want;	// the JSON text
} utf8_cases[] = {
	{ "caf\xc3\xa9", "\"caf\xc3\xa9\"" },			// U+00E9 kept
	{ "\xe2\x82\xac", "\"\xe2\x82\xac\"" },			// U+20AC
	{ "\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"" },		// U+1F600
	{ "\xef\xbf\xbf", "\"\xef\xbf\xbf\"" },			// U+FFFF is well-formed
	{ "\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"" },		// U+10FFFF
	{ "\xc2\x80", "\"\\u0080\"" },				// C1 controls escaped
	{ "\xc2\x9b[2J", "\"\\u009b[2J\"" },			// 8-bit CSI
	{ "\xc2\x9f\xc2\xa0", "\"\\u009f\xc2\xa0\"" },
	{ "\xc0\x80", "\"\\ufffd\\ufffd\"" },			// overlong NUL
	{ "\xc1\xbf", "\"\\ufffd\\ufffd\"" },			// overlong
	{ "\xe0\x9f\xbf", "\"\\ufffd\\ufffd\\ufffd\"" },		// overlong 3-byte
	{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },		// a surrogate
	{ "\xf0\x8f\xbf\xbf", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },	// overlong 4-byte
	{ "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },	// past U+10FFFF
	{ "\xf5\x80\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },
	{ "\xe2\x82", "\"\\ufffd\\ufffd\"" },			// cut at the end
	{ "\xe2\x82x", "\"\\ufffd\\ufffdx\"" },			// cut in the middle
	{ "\x80\xbf", "\"\\ufffd\\ufffd\"" },			// lone continuations
	{ "a\"b\\c/d", "\"a\\\"b\\\\c/d\"" },
	{ "\x1b[31mred", "\"\\u001b[31mred\"" },
};

static void test_utf8(void **state)
{
	(void)state;
	struct json j;

	for (size_t i = 0; i < sizeof(utf8_cases) / sizeof(utf8_cases[0]); i++) {
		json_init(&j, out, sizeof(out));
		json_string(&j, utf8_cases[i].in);
		if (!json_end(&j) || !str_eq(out, utf8_cases[i].want))
			fail_msg("case %zu: got %s, want %s", i, out, utf8_cases[i].want);
	}
}

static void test_cut(void **state)
{
	(void)state;
	char small[8];
	struct json j;

	json_init(&j, small, sizeof(small));
	json_array_begin(&j);
	json_string(&j, "0123456789");
	json_array_end(&j);
	assert_false(json_end(&j));
	assert_int_equal(j.n, 14);		// ["0123456789"]
	assert_string_equal(small, "[\"01234");	// cut and terminated

	// Exactly fitting: size - 1 bytes and the NUL.
	char fit[15];
	json_init(&j, fit, sizeof(fit));
	json_array_begin(&j);
	json_string(&j, "0123456789");
	json_array_end(&j);
	assert_true(json_end(&j));
	assert_string_equal(fit, "[\"0123456789\"]");
}

static void test_misuse(void **state)
{
	(void)state;
	struct json j;

	json_init(&j, out, sizeof(out));	// a value in an object, no key
	json_object_begin(&j);
	json_u64(&j, 1);
	json_object_end(&j);
	assert_false(json_end(&j));

	json_init(&j, out, sizeof(out));	// a key in an array
	json_array_begin(&j);
	json_key(&j, "k");
	json_u64(&j, 1);
	json_array_end(&j);
	assert_false(json_end(&j));

	json_init(&j, out, sizeof(out));	// a key without its value
	json_object_begin(&j);
	json_key(&j, "k");
	json_object_end(&j);
	assert_false(json_end(&j));

	json_init(&j, out, sizeof(out));	// not closed
	json_array_begin(&j);
	assert_false(json_end(&j));

	json_init(&j, out, sizeof(out));	// the wrong close
	json_array_begin(&j);
	json_object_end(&j);
	assert_false(json_end(&j));

	json_init(&j, out, sizeof(out));	// two texts
	json_u64(&j, 1);
	json_u64(&j, 2);
	assert_false(json_end(&j));

	json_init(&j, out, sizeof(out));	// nothing
	assert_false(json_end(&j));

	json_init(&j, out, sizeof(out));	// too deep
	for (int i = 0; i <= JSON_DEPTH_MAX; i++)
		json_array_begin(&j);
	for (int i = 0; i <= JSON_DEPTH_MAX; i++)
		json_array_end(&j);
	assert_false(json_end(&j));

	json_init(&j, out, sizeof(out));	// as deep as allowed
	for (int i = 0; i < JSON_DEPTH_MAX; i++)
		json_array_begin(&j);
	for (int i = 0; i < JSON_DEPTH_MAX; i++)
		json_array_end(&j);
	assert_true(json_end(&j));
}

// What a string of n bytes must decode to: its well-formed UTF-8 (the
// reader's RFC 3629 table) kept, each byte of an ill-formed sequence
// U+FFFD (the controls are escaped, and escapes decode back to the byte or
// code point).
static size_t expected_decoding(const unsigned char *s, size_t n, unsigned char *d)
{
	size_t k = 0;
	for (size_t i = 0; i < n;) {
		size_t len = jp_utf8_len(s + i, n - i);
		if (len == 0) {
			mem_copy(d + k, "\xef\xbf\xbd", 3);
			k += 3;
			i++;
			continue;
		}
		mem_copy(d + k, s + i, len);
		k += len;
		i += len;
	}
	return k;
}

// Sequences at UTF-8's edges, with whether RFC 3629 calls them well-formed:
// the writer, the reader and the reader's table must all say the same.
static const struct {
	const char *what;
	const char *bytes;
	bool well_formed;
} utf8_edges[] = {
	{ "U+007F", "\x7f", true },
	{ "U+0080", "\xc2\x80", true },
	{ "U+07FF", "\xdf\xbf", true },
	{ "U+0800", "\xe0\xa0\x80", true },
	{ "U+D7FF", "\xed\x9f\xbf", true },
	{ "U+E000", "\xee\x80\x80", true },
	{ "U+FFFF", "\xef\xbf\xbf", true },
	{ "U+10000", "\xf0\x90\x80\x80", true },
	{ "U+10FFFF", "\xf4\x8f\xbf\xbf", true },
	{ "overlong NUL", "\xc0\x80", false },
	{ "overlong U+007F", "\xc1\xbf", false },
	{ "overlong U+07FF", "\xe0\x9f\xbf", false },
	{ "overlong U+FFFF", "\xf0\x8f\xbf\xbf", false },
	{ "overlong 5 bytes", "\xf8\x88\x80\x80\x80", false },
	{ "surrogate U+D800", "\xed\xa0\x80", false },
	{ "surrogate U+DBFF", "\xed\xaf\xbf", false },
	{ "surrogate U+DC00", "\xed\xb0\x80", false },
	{ "surrogate U+DFFF", "\xed\xbf\xbf", false },
	{ "U+110000", "\xf4\x90\x80\x80", false },
	{ "U+140000", "\xf5\x80\x80\x80", false },
	{ "U+1FFFFF", "\xf7\xbf\xbf\xbf", false },
	{ "6 bytes", "\xfc\x84\x80\x80\x80\x80", false },
	{ "0xfe", "\xfe", false },
	{ "0xff", "\xff", false },
	{ "a lone continuation", "\x80", false },
	{ "truncated 2", "\xc3", false },
	{ "truncated 3 of 1", "\xe2", false },
	{ "truncated 3 of 2", "\xe2\x82", false },
	{ "truncated 4 of 3", "\xf0\x9f\x98", false },
	{ "truncated before ASCII", "\xe2\x82" "A", false },
	{ "a continuation missing", "\xe2\x41\xac", false },
};

static void test_utf8_agree(void **state)
{
	(void)state;
	char text[64], err[128];
	struct json j;

	for (size_t i = 0; i < sizeof(utf8_edges) / sizeof(utf8_edges[0]); i++) {
		const char *b = utf8_edges[i].bytes;
		size_t n = str_len(b);
		bool want = utf8_edges[i].well_formed;

		bool table = jp_utf8_len((const unsigned char *)b, n) == n;
		json_init(&j, out, sizeof(out));
		json_string_n(&j, b, n);
		bool writer = json_end(&j) && !strstr(out, "\\ufffd");
		snprintf(text, sizeof(text), "\"%s\"", b);
		struct jv *v = jv_parse(text, str_len(text), err, sizeof(err));
		bool reader = v != NULL;
		jv_free(v);
		if (table != want || writer != want || reader != want)
			fail_msg("%s: well-formed to the RFC 3629 table %d, the writer %d, the "
				 "reader %d; want %d", utf8_edges[i].what, table, writer, reader, want);
	}
}

static void check_hostile(const unsigned char *s, size_t n)
{
	static char text[8 * 1024 + 64];
	unsigned char want[4 * 1024];
	struct json j;
	char err[128];

	json_init(&j, text, sizeof(text));
	json_object_begin(&j);
	json_key(&j, (const char *)"cmdline");
	json_string_n(&j, (const char *)s, n);
	json_object_end(&j);
	assert_true(json_end(&j));
	struct jv *v = jv_parse(text, str_len(text), err, sizeof(err));
	if (!v)
		fail_msg("the writer's output is not valid JSON (%s): %s", err, text);
	const struct jv *c = jv_get(v, "cmdline");
	size_t wn = expected_decoding(s, n, want);
	if (!c || c->type != JV_STRING || c->len != wn || mem_cmp(c->text, want, wn) != 0)
		fail_msg("decoded string differs from the input's rules: %s", text);
	// Nothing the output holds is a raw control byte or a C1 control.
	for (size_t i = 0; text[i]; i++) {
		unsigned char b = (unsigned char)text[i];
		if (b < 0x20 || b == 0x7f || (b == 0xc2 && (unsigned char)text[i + 1] < 0xa0))
			fail_msg("raw control byte 0x%02x at %zu in %s", b, i, text);
	}
	jv_free(v);
}

static void test_hostile(void **state)
{
	(void)state;
	unsigned char s[1024];
	uint64_t x = 0x9e3779b97f4a7c15ull;

	for (unsigned a = 0; a < 256; a++)
		for (unsigned b = 0; b < 256; b++) {
			s[0] = (unsigned char)a;
			s[1] = (unsigned char)b;
			check_hostile(s, 2);
		}
	for (int round = 0; round < 3000; round++) {
		size_t n = (size_t)(round % 97) * 10 + 1;
		for (size_t i = 0; i < n; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			// Half the rounds from bytes near UTF-8's edges.
			s[i] = round & 1 ? (unsigned char)x : (unsigned char)(0x7c + x % 0x90);
		}
		check_hostile(s, n);
	}
}

// The reader rejects what is not JSON (so it can tell the writer wrong).
static void test_reader_rejects(void **state)
{
	(void)state;
	static const char *bad[] = {
		"", "{", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "01", "1.", "-", "1e", ".5", "+1",
		"\"\x01\"", "\"\\x\"", "\"\\ud800\"", "\"\\udc00\"", "\"\xc0\x80\"", "[1] 2",
		"{\"a\":1,\"a\":2}", "nul", "tru", "[\"a\"", "\"\xed\xa0\x80\"", "{1:2}",
	};
	static const char *good[] = {
		"0", "-0.5e+3", "\"\\ud83d\\ude00\"", " [ 1 , { } ] ", "{\"a\":{\"a\":1}}", "\"\\/\"",
	};
	char err[128];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct jv *v = jv_parse(bad[i], str_len(bad[i]), err, sizeof(err));
		if (v)
			fail_msg("accepted %s", bad[i]);
	}
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct jv *v = jv_parse(good[i], str_len(good[i]), err, sizeof(err));
		if (!v)
			fail_msg("rejected %s: %s", good[i], err);
		jv_free(v);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_members),
		cmocka_unit_test(test_containers),
		cmocka_unit_test(test_every_byte),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_utf8_agree),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_misuse),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_reader_rejects),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
