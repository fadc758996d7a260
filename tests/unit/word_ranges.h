// SPDX-License-Identifier: GPL-2.0-or-later
// Ranges of word indices [from, to) of a simulated memory, as the memory
// tests' unit tests lay them out, and the byte ranges a test is given.
#ifndef TESTS_UNIT_WORD_RANGES_H
#define TESTS_UNIT_WORD_RANGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "range.h"

struct word_range {
	size_t from, to;
};

// r[0..n) of a memory whose word 0 is at physical base, as byte ranges
// into out[0..n); returns n.
static inline size_t ranges_of(uint64_t base, const struct word_range *r, size_t n, struct range *out)
{
	for (size_t i = 0; i < n; i++)
		out[i] = (struct range){ base + 8ull * r[i].from, base + 8ull * r[i].to };
	return n;
}

// Whether word lies in one of r[0..n).
static inline bool in_ranges(const struct word_range *r, size_t n, size_t word)
{
	for (size_t i = 0; i < n; i++)
		if (word >= r[i].from && word < r[i].to)
			return true;
	return false;
}

#endif
