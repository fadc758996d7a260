// SPDX-License-Identifier: GPL-2.0-or-later
// The pages the last record kept out: ramsift-reserve.efi reserved them
// (EfiUnusableMemory, type 5 in the loader's map), so no pass tests them.
// After a pass that found nothing, they are tested again on their own:
// while they still fail the record stays; once they pass (the module was
// replaced), the run may say the machine is healthy.
#ifndef RAMSIFT_SRC_RECHECK_H
#define RAMSIFT_SRC_RECHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "boot/cmdline.h"
#include "range.h"

#define RECHECK_RANGES_MAX 256

struct recheck {
	size_t nranges;
	struct range range[RECHECK_RANGES_MAX];	// sorted, disjoint, page-aligned
	uint64_t pages;				// in range[]
};

// The map's bad RAM (type 5: what ramsift-reserve.efi reserved as
// EfiUnusableMemory) into *r, sorted, whole pages. False when it has more
// ranges than r holds (r keeps the first).
bool recheck_from_map(struct recheck *r, const struct mmap_entry *map, size_t n);

// Run cfg's tests (bit fade without its wait) over r's ranges, alone on
// this CPU, again and again for a second at least, until one fails;
// returns the failing reads, *first the first failing address.
uint64_t recheck_run(const struct recheck *r, const struct config *cfg, uint64_t seed,
		     uint64_t *first);

#endif
