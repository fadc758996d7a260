// SPDX-License-Identifier: GPL-2.0-or-later
// Whether a line the code under test wrote holds a piece of text, for the
// unit tests that check lines by their parts.
#ifndef TESTS_UNIT_CONTAINS_H
#define TESTS_UNIT_CONTAINS_H

#include <stdbool.h>

#include "memstr.h"

// Whether needle occurs in hay (an empty needle always does).
static inline bool contains(const char *hay, const char *needle)
{
	for (; *hay != '\0'; hay++)
		if (str_starts_with(hay, needle))
			return true;
	return *needle == '\0';
}

#endif
