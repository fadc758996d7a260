// SPDX-License-Identifier: GPL-2.0-or-later
// The unit tests' reproducible pseudo-random numbers: Marsaglia's xorshift64
// (shifts 13, 7, 17). Each test keeps its own state, seeded with a constant.
#ifndef TESTS_UNIT_XORSHIFT_H
#define TESTS_UNIT_XORSHIFT_H

#include <stdint.h>

// Step *state (never 0) and return the new value.
static inline uint64_t xorshift64(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

#endif
