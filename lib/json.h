// SPDX-License-Identifier: GPL-2.0-or-later
// A JSON writer (RFC 8259) into a caller's buffer, for one-line output such
// as the run's `json:` line and ramsift-fold --format json. No allocation,
// no floating point: numbers are unsigned integers or milliseconds written
// as seconds with three decimals. Every string is escaped so that the
// output is valid JSON, and valid UTF-8, whatever bytes it holds: '"', '\\'
// and the control characters (C0, DEL and the C1 range U+0080-U+009F, which
// some terminals obey) are escaped, well-formed UTF-8 is kept, and each byte
// of an ill-formed sequence becomes U+FFFD. The output has no whitespace
// and no newline.
// The writer counts what does not fit instead of writing it; json_end says
// whether the whole text fitted. The caller pairs every begin with an end
// and puts one json_key before each value inside an object (none inside an
// array); misuse is recorded and also makes json_end fail.
#ifndef RAMSIFT_LIB_JSON_H
#define RAMSIFT_LIB_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "range.h"

// Objects and arrays nested at most this deep.
#define JSON_DEPTH_MAX 16

struct json {
	char *buf;
	size_t size;		// bytes of buf
	size_t n;		// bytes the text needs so far (may pass size - 1)
	unsigned depth;
	uint32_t count[JSON_DEPTH_MAX + 1];	// members written at each depth
	bool object[JSON_DEPTH_MAX + 1];	// that container is an object
	bool key_done;		// a key was written and waits for its value
	bool misuse;		// unbalanced, too deep, a value without its key...
};

// Start writing into buf[0..size) (size >= 1).
void json_init(struct json *j, char *buf, size_t size);

void json_object_begin(struct json *j);
void json_object_end(struct json *j);
void json_array_begin(struct json *j);
void json_array_end(struct json *j);

// The member name of the next value in an object; NUL-terminated.
void json_key(struct json *j, const char *key);

// Values.
void json_string(struct json *j, const char *s);		// NUL-terminated
void json_string_n(struct json *j, const char *s, size_t n);	// n bytes, NULs too
void json_u64(struct json *j, uint64_t v);			// 1234
void json_hex(struct json *j, uint64_t v);			// "0x4d2" (a string:
								// JSON numbers lose
								// bits past 2^53)
void json_ms_as_s(struct json *j, uint64_t ms);			// 12.345
void json_bool(struct json *j, bool v);
void json_null(struct json *j);

// Members of an object: json_key(key), then the value. A NULL s is written
// as null; ranges as an array of {"start":hex,"end":hex} objects.
void json_member_u64(struct json *j, const char *key, uint64_t v);
void json_member_hex(struct json *j, const char *key, uint64_t v);
void json_member_bool(struct json *j, const char *key, bool v);
void json_member_string(struct json *j, const char *key, const char *s);
void json_member_ranges(struct json *j, const char *key, const struct range *r, size_t n);

// Finish: NUL-terminate and say whether the text is complete (every
// container closed, no misuse) and fitted in size - 1 bytes. When it did
// not fit, buf holds a cut (invalid) text; j->n is the length needed.
bool json_end(struct json *j);

#endif
