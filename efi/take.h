// SPDX-License-Identifier: GPL-2.0-or-later
// Taking bad pages out of the firmware's map: every page of a plan is
// allocated as EfiUnusableMemory at its address, and what cannot be taken
// is named with the type it is in use as. The plan is the union of the
// record's page ranges and the pages BadRAM pairs match (badpages.txt's,
// the load options', a record's); a page in several of them is taken and
// counted once.
#ifndef RAMSIFT_EFI_TAKE_H
#define RAMSIFT_EFI_TAKE_H

#include <efi.h>

#include "map.h"
#include "range.h"
#include "reserve/reserve.h"

struct take_plan {
	const struct range *range;	// page-aligned, sorted, disjoint, in RAM of the map
	size_t nranges;
	const struct reserve_pair *pair;
	size_t npairs;
};

// The bytes pair[0..n) match in the map's RAM and reserved memory (not
// MMIO), a page matched by two pairs counted twice.
UINT64 take_matched_bytes(const struct map *m, const struct reserve_pair *pair, size_t n);

// Allocate every page of plan p found in the snapshot m, print a line for
// each range reserved (the first ones, then a count) and for each that
// could not be taken, then the line
// "ramsift-reserve: N pages reserved as EfiUnusableMemory, M pages already in use could not be taken".
void take_pages(const struct map *m, const struct take_plan *p);

#endif
