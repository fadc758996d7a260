// SPDX-License-Identifier: GPL-2.0-or-later
// The JSON writer (see json.h). Escapes follow RFC 8259 section 7; UTF-8
// well-formedness follows the Unicode Standard's table 3-7 (no overlong
// forms, no surrogates, nothing past U+10FFFF).
#include "json.h"

static void put(struct json *j, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++, j->n++)
		if (j->n + 1 < j->size)
			j->buf[j->n] = s[i];
}

static void put_c(struct json *j, char c)
{
	put(j, &c, 1);
}

// Before any value: the comma between members, and the rules of use.
static void value_begin(struct json *j)
{
	if (j->key_done) {
		j->key_done = false;
		return;
	}
	if (j->depth > 0 && j->object[j->depth]) {
		j->misuse = true;	// a value in an object without its key
		return;
	}
	if (j->depth == 0 && j->count[0] > 0)
		j->misuse = true;	// a second top-level value
	if (j->count[j->depth]++ > 0)
		put_c(j, ',');
}

static void container_open(struct json *j, char c, bool object)
{
	value_begin(j);
	put_c(j, c);
	if (j->depth == JSON_DEPTH_MAX) {
		j->misuse = true;
		return;
	}
	j->depth++;
	j->count[j->depth] = 0;
	j->object[j->depth] = object;
}

static void container_close(struct json *j, char c, bool object)
{
	if (j->depth == 0 || j->object[j->depth] != object || j->key_done) {
		j->misuse = true;
		return;
	}
	put_c(j, c);
	j->depth--;
}

void json_init(struct json *j, char *buf, size_t size)
{
	*j = (struct json){ .buf = buf, .size = size };
	if (size)
		buf[0] = '\0';
}

void json_object_begin(struct json *j)
{
	container_open(j, '{', true);
}

void json_object_end(struct json *j)
{
	container_close(j, '}', true);
}

void json_array_begin(struct json *j)
{
	container_open(j, '[', false);
}

void json_array_end(struct json *j)
{
	container_close(j, ']', false);
}

// The length of the well-formed UTF-8 sequence at s[0..n) starting with a
// byte >= 0x80, or 0 when it is ill-formed.
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t len;

	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;	// no surrogates
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;	// nothing past U+10FFFF
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

static void put_u_escape(struct json *j, unsigned v)
{
	static const char hex[] = "0123456789abcdef";
	char e[6] = { '\\', 'u', hex[v >> 12 & 15], hex[v >> 8 & 15], hex[v >> 4 & 15], hex[v & 15] };

	put(j, e, sizeof(e));
}

static void put_string(struct json *j, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;

	put_c(j, '"');
	for (size_t i = 0; i < n;) {
		unsigned char c = s[i];
		if (c == '"' || c == '\\') {
			char e[2] = { '\\', (char)c };
			put(j, e, 2);
		} else if (c == '\n') {
			put(j, "\\n", 2);
		} else if (c == '\t') {
			put(j, "\\t", 2);
		} else if (c == '\r') {
			put(j, "\\r", 2);
		} else if (c < 0x20 || c == 0x7f) {
			put_u_escape(j, c);
		} else if (c < 0x80) {
			put_c(j, (char)c);
		} else {
			size_t len = utf8_len(s + i, n - i);
			if (len == 0) {
				put_u_escape(j, 0xfffd);
				i++;
				continue;
			}
			if (len == 2 && c == 0xc2 && s[i + 1] <= 0x9f)
				put_u_escape(j, s[i + 1]);	// a C1 control character
			else
				put(j, (const char *)s + i, len);
			i += len;
			continue;
		}
		i++;
	}
	put_c(j, '"');
}

void json_key(struct json *j, const char *key)
{
	size_t n = 0;

	if (j->depth == 0 || !j->object[j->depth] || j->key_done) {
		j->misuse = true;
		return;
	}
	if (j->count[j->depth]++ > 0)
		put_c(j, ',');
	while (key[n])
		n++;
	put_string(j, key, n);
	put_c(j, ':');
	j->key_done = true;
}

void json_string_n(struct json *j, const char *s, size_t n)
{
	value_begin(j);
	put_string(j, s, n);
}

void json_string(struct json *j, const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	json_string_n(j, s, n);
}

// The decimal digits of v, at least min_digits of them.
static void put_decimal(struct json *j, uint64_t v, int min_digits)
{
	char d[20];
	int n = 0;

	do {
		d[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v || n < min_digits);
	while (n)
		put_c(j, d[--n]);
}

void json_u64(struct json *j, uint64_t v)
{
	value_begin(j);
	put_decimal(j, v, 1);
}

void json_hex(struct json *j, uint64_t v)
{
	static const char hex[] = "0123456789abcdef";
	char d[16];
	int n = 0;

	value_begin(j);
	do {
		d[n++] = hex[v & 15];
		v >>= 4;
	} while (v);
	put(j, "\"0x", 3);
	while (n)
		put_c(j, d[--n]);
	put_c(j, '"');
}

void json_ms_as_s(struct json *j, uint64_t ms)
{
	value_begin(j);
	put_decimal(j, ms / 1000, 1);
	put_c(j, '.');
	put_decimal(j, ms % 1000, 3);
}

void json_bool(struct json *j, bool v)
{
	value_begin(j);
	if (v)
		put(j, "true", 4);
	else
		put(j, "false", 5);
}

void json_null(struct json *j)
{
	value_begin(j);
	put(j, "null", 4);
}

void json_member_u64(struct json *j, const char *key, uint64_t v)
{
	json_key(j, key);
	json_u64(j, v);
}

void json_member_hex(struct json *j, const char *key, uint64_t v)
{
	json_key(j, key);
	json_hex(j, v);
}

void json_member_bool(struct json *j, const char *key, bool v)
{
	json_key(j, key);
	json_bool(j, v);
}

void json_member_string(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	if (s)
		json_string(j, s);
	else
		json_null(j);
}

void json_member_ranges(struct json *j, const char *key, const struct range *r, size_t n)
{
	json_key(j, key);
	json_array_begin(j);
	for (size_t i = 0; i < n; i++) {
		json_object_begin(j);
		json_member_hex(j, "start", r[i].start);
		json_member_hex(j, "end", r[i].end);
		json_object_end(j);
	}
	json_array_end(j);
}

bool json_end(struct json *j)
{
	bool fits = j->n < j->size;

	if (j->size)
		j->buf[fits ? j->n : j->size - 1] = '\0';
	return fits && !j->misuse && j->depth == 0 && !j->key_done && j->count[0] == 1;
}
