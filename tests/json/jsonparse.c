// SPDX-License-Identifier: GPL-2.0-or-later
// The strict JSON reader (see jsonparse.h): recursive descent over RFC 8259
// section 2's grammar, depth bounded, every allocation checked.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "jsonparse.h"

// No <string.h>: the unit tests compile this with lib/ first on the include
// path (lib/memstr.h no longer shadows it, but the reader keeps to itself).
static void jp_copy(void *d, const void *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		((unsigned char *)d)[i] = ((const unsigned char *)s)[i];
}

static bool jp_eq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

static size_t jp_len(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

#define DEPTH_MAX 64

struct reader {
	const unsigned char *s;
	size_t n, at;
	char *err;
	size_t errlen;
	bool failed;
	unsigned depth;
};

static bool jp_fail(struct reader *r, const char *why)
{
	if (!r->failed)
		snprintf(r->err, r->errlen, "%s at byte %zu", why, r->at);
	r->failed = true;
	return false;
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	if (!p) {
		perror("jsonparse");
		exit(2);
	}
	return p;
}

static void skip_ws(struct reader *r)
{
	while (r->at < r->n && (r->s[r->at] == ' ' || r->s[r->at] == '\t' ||
				r->s[r->at] == '\n' || r->s[r->at] == '\r'))
		r->at++;
}

static bool literal(struct reader *r, const char *word)
{
	size_t len = jp_len(word);
	for (size_t i = 0; i < len; i++)
		if (r->at + i >= r->n || r->s[r->at + i] != (unsigned char)word[i])
			return jp_fail(r, "bad literal");
	r->at += len;
	return true;
}

// A growing byte buffer for decoded strings.
struct buf {
	char *p;
	size_t n, cap;
};

static void buf_put(struct buf *b, const void *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p) {
			perror("jsonparse");
			exit(2);
		}
	}
	jp_copy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = '\0';
}

static void put_utf8(struct buf *b, uint32_t cp)
{
	unsigned char u[4];
	size_t n;
	if (cp < 0x80) {
		u[0] = (unsigned char)cp;
		n = 1;
	} else if (cp < 0x800) {
		u[0] = (unsigned char)(0xc0 | cp >> 6);
		u[1] = (unsigned char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		u[0] = (unsigned char)(0xe0 | cp >> 12);
		u[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		u[2] = (unsigned char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		u[0] = (unsigned char)(0xf0 | cp >> 18);
		u[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
		u[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		u[3] = (unsigned char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	buf_put(b, u, n);
}

static bool hex4(struct reader *r, uint32_t *v)
{
	*v = 0;
	if (r->n - r->at < 4)
		return jp_fail(r, "short \\u escape");
	for (int i = 0; i < 4; i++) {
		unsigned char c = r->s[r->at++];
		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			*v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			*v |= c - 'A' + 10;
		else
			return jp_fail(r, "bad hex digit in \\u escape");
	}
	return true;
}

// RFC 3629, section 4: the well-formed UTF-8 sequences, one row per
// alternative of its syntax, each byte's range in lo..hi. A table, not the
// writer's branches on the lead byte, so that the two do not share a
// misreading.
static const struct {
	size_t len;
	unsigned char lo[4], hi[4];
} utf8_forms[] = {
	{ 1, { 0x00 }, { 0x7f } },				// UTF8-1
	{ 2, { 0xc2, 0x80 }, { 0xdf, 0xbf } },			// UTF8-2
	{ 3, { 0xe0, 0xa0, 0x80 }, { 0xe0, 0xbf, 0xbf } },	// UTF8-3
	{ 3, { 0xe1, 0x80, 0x80 }, { 0xec, 0xbf, 0xbf } },
	{ 3, { 0xed, 0x80, 0x80 }, { 0xed, 0x9f, 0xbf } },
	{ 3, { 0xee, 0x80, 0x80 }, { 0xef, 0xbf, 0xbf } },
	{ 4, { 0xf0, 0x90, 0x80, 0x80 }, { 0xf0, 0xbf, 0xbf, 0xbf } },	// UTF8-4
	{ 4, { 0xf1, 0x80, 0x80, 0x80 }, { 0xf3, 0xbf, 0xbf, 0xbf } },
	{ 4, { 0xf4, 0x80, 0x80, 0x80 }, { 0xf4, 0x8f, 0xbf, 0xbf } },
};

size_t jp_utf8_len(const unsigned char *s, size_t n)
{
	for (size_t f = 0; f < sizeof(utf8_forms) / sizeof(utf8_forms[0]); f++) {
		size_t len = utf8_forms[f].len, i = 0;
		while (i < len && i < n && s[i] >= utf8_forms[f].lo[i] && s[i] <= utf8_forms[f].hi[i])
			i++;
		if (i == len)
			return len;
	}
	return 0;
}

static bool jp_string(struct reader *r, struct buf *out)
{
	if (r->at >= r->n || r->s[r->at] != '"')
		return jp_fail(r, "want a string");
	r->at++;
	for (;;) {
		if (r->at >= r->n)
			return jp_fail(r, "unterminated string");
		unsigned char c = r->s[r->at];
		if (c == '"') {
			r->at++;
			if (!out->p)
				buf_put(out, "", 0);
			return true;
		}
		if (c < 0x20)
			return jp_fail(r, "raw control character in a string");
		if (c != '\\') {
			size_t len = jp_utf8_len(r->s + r->at, r->n - r->at);
			if (len == 0)
				return jp_fail(r, "ill-formed UTF-8 in a string");
			buf_put(out, r->s + r->at, len);
			r->at += len;
			continue;
		}
		r->at++;
		if (r->at >= r->n)
			return jp_fail(r, "unterminated escape");
		c = r->s[r->at++];
		static const char names[] = "\"\\/bfnrt", map[] = "\"\\/\b\f\n\r\t";
		size_t k = 0;
		while (names[k] && names[k] != (char)c)
			k++;
		if (names[k]) {
			buf_put(out, &map[k], 1);
			continue;
		}
		if (c != 'u')
			return jp_fail(r, "bad escape");
		uint32_t cp, lo;
		if (!hex4(r, &cp))
			return false;
		if (cp >= 0xdc00 && cp <= 0xdfff)
			return jp_fail(r, "lone low surrogate");
		if (cp >= 0xd800 && cp <= 0xdbff) {
			if (r->n - r->at < 2 || r->s[r->at] != '\\' || r->s[r->at + 1] != 'u')
				return jp_fail(r, "lone high surrogate");
			r->at += 2;
			if (!hex4(r, &lo))
				return false;
			if (lo < 0xdc00 || lo > 0xdfff)
				return jp_fail(r, "high surrogate without a low one");
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
		}
		put_utf8(out, cp);
	}
}

static bool number(struct reader *r, struct jv *v)
{
	size_t start = r->at;
	const unsigned char *s = r->s;

	if (r->at < r->n && s[r->at] == '-')
		r->at++;
	if (r->at >= r->n || s[r->at] < '0' || s[r->at] > '9')
		return jp_fail(r, "bad number");
	if (s[r->at] == '0')
		r->at++;	// no leading zeros
	else
		while (r->at < r->n && s[r->at] >= '0' && s[r->at] <= '9')
			r->at++;
	if (r->at < r->n && s[r->at] == '.') {
		r->at++;
		if (r->at >= r->n || s[r->at] < '0' || s[r->at] > '9')
			return jp_fail(r, "bad fraction");
		while (r->at < r->n && s[r->at] >= '0' && s[r->at] <= '9')
			r->at++;
	}
	if (r->at < r->n && (s[r->at] == 'e' || s[r->at] == 'E')) {
		r->at++;
		if (r->at < r->n && (s[r->at] == '+' || s[r->at] == '-'))
			r->at++;
		if (r->at >= r->n || s[r->at] < '0' || s[r->at] > '9')
			return jp_fail(r, "bad exponent");
		while (r->at < r->n && s[r->at] >= '0' && s[r->at] <= '9')
			r->at++;
	}
	v->type = JV_NUMBER;
	v->len = r->at - start;
	v->text = xcalloc(v->len + 1, 1);
	jp_copy(v->text, s + start, v->len);
	return true;
}

static bool value(struct reader *r, struct jv *v);

static bool container(struct reader *r, struct jv *v, bool object)
{
	size_t cap = 0;
	char close = object ? '}' : ']';

	v->type = object ? JV_OBJECT : JV_ARRAY;
	r->at++;
	if (++r->depth > DEPTH_MAX)
		return jp_fail(r, "nested too deep");
	skip_ws(r);
	if (r->at < r->n && r->s[r->at] == close) {
		r->at++;
		r->depth--;
		return true;
	}
	for (;;) {
		if (v->n == cap) {
			cap = cap ? 2 * cap : 8;
			v->item = realloc(v->item, cap * sizeof(*v->item));
			if (object)
				v->key = realloc(v->key, cap * sizeof(*v->key));
			if (!v->item || (object && !v->key)) {
				perror("jsonparse");
				exit(2);
			}
		}
		v->item[v->n] = (struct jv){ 0 };
		skip_ws(r);
		if (object) {
			struct buf k = { 0 };
			v->key[v->n] = NULL;
			if (!jp_string(r, &k)) {
				free(k.p);
				return false;
			}
			for (size_t i = 0; i < v->n; i++)
				if (jp_eq(v->key[i], k.p)) {
					free(k.p);
					return jp_fail(r, "a member name repeated in one object");
				}
			v->key[v->n++] = k.p;
			skip_ws(r);
			if (r->at >= r->n || r->s[r->at] != ':')
				return jp_fail(r, "want ':'");
			r->at++;
		} else {
			v->n++;
		}
		if (!value(r, &v->item[v->n - 1]))
			return false;
		skip_ws(r);
		if (r->at < r->n && r->s[r->at] == ',') {
			r->at++;
			continue;
		}
		if (r->at < r->n && r->s[r->at] == close) {
			r->at++;
			r->depth--;
			return true;
		}
		return jp_fail(r, object ? "want ',' or '}'" : "want ',' or ']'");
	}
}

static bool value(struct reader *r, struct jv *v)
{
	skip_ws(r);
	if (r->at >= r->n)
		return jp_fail(r, "want a value");
	switch (r->s[r->at]) {
	case '{':
		return container(r, v, true);
	case '[':
		return container(r, v, false);
	case '"': {
		struct buf b = { 0 };
		v->type = JV_STRING;
		if (!jp_string(r, &b)) {
			free(b.p);
			return false;
		}
		v->text = b.p;
		v->len = b.n;
		return true;
	}
	case 't':
		v->type = JV_BOOL;
		v->b = true;
		return literal(r, "true");
	case 'f':
		v->type = JV_BOOL;
		return literal(r, "false");
	case 'n':
		v->type = JV_NULL;
		return literal(r, "null");
	default:
		return number(r, v);
	}
}

static void free_inner(struct jv *v)
{
	for (size_t i = 0; i < v->n; i++) {
		free_inner(&v->item[i]);
		if (v->key)
			free(v->key[i]);
	}
	free(v->item);
	free(v->key);
	free(v->text);
}

void jv_free(struct jv *v)
{
	if (v) {
		free_inner(v);
		free(v);
	}
}

struct jv *jv_parse(const char *s, size_t n, char *err, size_t errlen)
{
	struct reader r = { (const unsigned char *)s, n, 0, err, errlen, false, 0 };
	struct jv *v = xcalloc(1, sizeof(*v));

	if (errlen)
		err[0] = '\0';
	if (value(&r, v)) {
		skip_ws(&r);
		if (r.at == r.n)
			return v;
		jp_fail(&r, "text after the value");
	}
	jv_free(v);
	return NULL;
}

const struct jv *jv_get(const struct jv *v, const char *key)
{
	if (!v || v->type != JV_OBJECT)
		return NULL;
	for (size_t i = 0; i < v->n; i++)
		if (jp_eq(v->key[i], key))
			return &v->item[i];
	return NULL;
}

const struct jv *jv_path(const struct jv *v, const char *path)
{
	char name[128];

	while (v && *path) {
		size_t len = 0;
		while (path[len] && path[len] != '.')
			len++;
		if (len >= sizeof(name))
			return NULL;
		jp_copy(name, path, len);
		name[len] = '\0';
		v = jv_get(v, name);
		path += len + (path[len] == '.');
	}
	return v;
}
