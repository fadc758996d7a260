// SPDX-License-Identifier: GPL-2.0-or-later
// The escaping of outside text for the log, declared in escape.h.
#include "escape.h"

size_t escape_text(char *buf, size_t cap, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0, i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		char e[ESCAPE_MAX_PER_BYTE];
		size_t k = 0;

		if (c == '\\' || c == '\n' || c == '\r' || c == '\t') {
			e[k++] = '\\';
			e[k++] = c == '\\' ? '\\' : c == '\n' ? 'n' : c == '\r' ? 'r' : 't';
		} else if (c < 0x20 || c > 0x7e) {
			e[k++] = '\\';
			e[k++] = 'x';
			e[k++] = hex[c >> 4];
			e[k++] = hex[c & 15];
		} else {
			e[k++] = (char)c;
		}
		if (n + k + 1 > cap)
			break;
		for (size_t j = 0; j < k; j++)
			buf[n++] = e[j];
	}
	buf[n] = '\0';
	return i;
}
