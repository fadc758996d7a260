// SPDX-License-Identifier: GPL-2.0-or-later
// A strict JSON reader for the tests (host only, libc): RFC 8259 with no
// extension, plus what ramsift's output promises beyond it: well-formed
// UTF-8 everywhere, no lone surrogate in a \u escape, no member name twice
// in one object. Written apart from lib/json.c on purpose, from the RFC, so
// the two do not share a misreading. Used by tests/unit/test_json.c and by
// the end-to-end JSON check (tests/json/jsoncheck.c).
#ifndef RAMSIFT_TESTS_JSONPARSE_H
#define RAMSIFT_TESTS_JSONPARSE_H

#include <stdbool.h>
#include <stddef.h>

enum jv_type { JV_NULL, JV_BOOL, JV_NUMBER, JV_STRING, JV_ARRAY, JV_OBJECT };

struct jv {
	enum jv_type type;
	bool b;			// JV_BOOL
	char *text;		// JV_NUMBER: the literal; JV_STRING: the decoded
	size_t len;		// UTF-8 (NUL-terminated, may hold NULs; len bytes)
	struct jv *item;	// JV_ARRAY, JV_OBJECT: n values, in order
	char **key;		// JV_OBJECT: their names, decoded, NUL-terminated
	size_t n;
};

// Parse the whole of s[0..n). NULL when it is not one valid JSON text, with
// why (and the byte offset) in err[0..errlen).
struct jv *jv_parse(const char *s, size_t n, char *err, size_t errlen);

void jv_free(struct jv *v);

// The length of the well-formed UTF-8 sequence (RFC 3629) that s[0..n)
// starts with, 1 to 4; 0 when it starts with none (n 0 included).
size_t jp_utf8_len(const unsigned char *s, size_t n);

// The member named key of an object; NULL when v is no object or has none.
const struct jv *jv_get(const struct jv *v, const char *key);

// A member by a path of names separated by '.', e.g. "fold.limit".
const struct jv *jv_path(const struct jv *v, const char *path);

#endif
