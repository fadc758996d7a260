// SPDX-License-Identifier: GPL-2.0-or-later
// The strict number parsers declared in parse.h. Overflow is checked before
// each multiply-add so a long string of digits is rejected, never wrapped.
#include "parse.h"

int parse_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool parse_u64(const char *s, size_t len, uint64_t *out)
{
	unsigned base = 10;
	uint64_t v = 0;
	size_t i = 0;

	if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == len)
		return false;
	for (; i < len; i++) {
		int d = parse_digit(s[i]);

		if (d < 0 || (unsigned)d >= base)
			return false;
		if (v > (UINT64_MAX - (unsigned)d) / base)
			return false;
		v = v * base + (unsigned)d;
	}
	*out = v;
	return true;
}

bool parse_size(const char *s, size_t len, uint64_t *out)
{
	unsigned shift = 0;
	size_t num_len = len;
	uint64_t v;

	// Peel an optional "iB", then the unit letter before it.
	if (num_len >= 3 && s[num_len - 2] == 'i' && s[num_len - 1] == 'B')
		num_len -= 2;
	if (num_len >= 1) {
		switch (s[num_len - 1]) {
		case 'K': case 'k': shift = 10; break;
		case 'M': case 'm': shift = 20; break;
		case 'G': case 'g': shift = 30; break;
		case 'T': case 't': shift = 40; break;
		default: break;
		}
	}
	if (shift != 0)
		num_len--;
	else if (num_len != len)
		return false;   // "iB" without a unit letter
	if (!parse_u64(s, num_len, &v))
		return false;
	if (shift != 0 && v > (UINT64_MAX >> shift))
		return false;
	*out = v << shift;
	return true;
}
