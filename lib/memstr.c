// SPDX-License-Identifier: GPL-2.0-or-later
// Byte-loop implementations of the lib/memstr.h primitives. Simplicity over
// speed: these run on the setup path, never inside a memory test's hot loop,
// which uses its own volatile word accessors.
#include <stdint.h>

#include "memstr.h"

void *mem_set(void *d, int c, size_t n)
{
	unsigned char *p = d;

	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)c;
	return d;
}

void *mem_copy(void *d, const void *s, size_t n)
{
	unsigned char *dp = d;
	const unsigned char *sp = s;

	for (size_t i = 0; i < n; i++)
		dp[i] = sp[i];
	return d;
}

void *mem_move(void *d, const void *s, size_t n)
{
	unsigned char *dp = d;
	const unsigned char *sp = s;

	// Copy backwards when d lies above s so an overlapping source byte is
	// read before it is overwritten. Comparing the integer addresses avoids
	// relational comparison of unrelated pointers.
	if ((uintptr_t)dp <= (uintptr_t)sp) {
		for (size_t i = 0; i < n; i++)
			dp[i] = sp[i];
	} else {
		for (size_t i = n; i > 0; i--)
			dp[i - 1] = sp[i - 1];
	}
	return d;
}

int mem_cmp(const void *a, const void *b, size_t n)
{
	const unsigned char *ap = a, *bp = b;

	for (size_t i = 0; i < n; i++) {
		if (ap[i] != bp[i])
			return ap[i] < bp[i] ? -1 : 1;
	}
	return 0;
}

size_t str_len(const char *s)
{
	size_t n = 0;

	while (s[n] != '\0')
		n++;
	return n;
}

int str_cmp(const char *a, const char *b)
{
	const unsigned char *ap = (const unsigned char *)a;
	const unsigned char *bp = (const unsigned char *)b;

	while (*ap != '\0' && *ap == *bp) {
		ap++;
		bp++;
	}
	if (*ap == *bp)
		return 0;
	return *ap < *bp ? -1 : 1;
}

bool str_eq(const char *a, const char *b)
{
	return str_cmp(a, b) == 0;
}

bool str_starts_with(const char *s, const char *prefix)
{
	for (size_t i = 0; prefix[i] != '\0'; i++) {
		if (s[i] != prefix[i])
			return false;
	}
	return true;
}

bool str_n_eq(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (a[i] != b[i])
			return false;
		if (a[i] == '\0')
			return true;
	}
	return true;
}

bool str_eq_n(const char *a, size_t n, const char *b)
{
	for (size_t i = 0; i < n; i++) {
		if (b[i] == '\0' || a[i] != b[i])
			return false;
	}
	return b[n] == '\0';
}
