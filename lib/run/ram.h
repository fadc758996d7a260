// SPDX-License-Identifier: GPL-2.0-or-later
// The usable RAM the loader reported, what of it is free, and what ramsift
// itself occupies (its image, page tables, working memory), which cannot be
// tested while it sits there. Pure bookkeeping over byte ranges: the image
// keeps one, the host's unit tests many.
#ifndef RAMSIFT_LIB_RUN_RAM_H
#define RAMSIFT_LIB_RUN_RAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capacity.h"
#include "range.h"

struct owned_range {
	struct range r;
	const char *what;
};

struct ram {
	struct range usable[RAM_RANGES_MAX];	// sorted, disjoint
	size_t nusable;
	struct range free[RAM_RANGES_MAX];	// usable minus the claims
	size_t nfree;
	struct owned_range owned[RAM_OWNED_MAX];
	size_t nowned;
};

// Forget every claim: all usable RAM is free again.
void ram_release_all(struct ram *ram);

// Record that ramsift occupies r (described by what, e.g. "page tables"): r,
// widened to whole pages, is taken out of ram->free. Claims past
// RAM_OWNED_MAX still take the memory but are not remembered by name.
void ram_claim(struct ram *ram, struct range r, const char *what);

// The start of the top bytes (rounded up to pages) of the highest free range
// with room for them below limit; 0 if nothing fits. Claims nothing.
uint64_t ram_find(const struct ram *ram, uint64_t bytes, uint64_t limit);

// ram_find, then claim the block as what. 0 if nothing fits.
uint64_t ram_alloc(struct ram *ram, uint64_t bytes, uint64_t limit, const char *what);

#endif
