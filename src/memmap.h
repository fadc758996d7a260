// SPDX-License-Identifier: GPL-2.0-or-later
// Usable RAM from the loader's memory map, and the parts of it ramsift itself
// occupies (which cannot be tested while it sits there).
#ifndef RAMSIFT_SRC_MEMMAP_H
#define RAMSIFT_SRC_MEMMAP_H

#include "boot/multiboot.h"
#include "capacity.h"	// MEMMAP_MAX, MEMMAP_OWNED_MAX
#include "range.h"

struct owned_range {
	struct range r;
	const char *what;
};

struct memmap {
	struct range usable[MEMMAP_MAX];	// all usable RAM the loader reported
	size_t nusable;
	struct range free[MEMMAP_MAX];		// usable minus what ramsift occupies
	size_t nfree;
	struct owned_range owned[MEMMAP_OWNED_MAX];
	size_t nowned;
};

// Build the usable-RAM list from the loader's entries, warning about every
// entry that is dropped or clipped, and print the map. Returns false if no
// usable RAM remains.
bool memmap_init(struct memmap *mm, const struct bootinfo *bi);

// Record that ramsift occupies r (described by what, e.g. "image"): it is
// taken out of mm->free. r is widened to whole pages.
void memmap_claim(struct memmap *mm, struct range r, const char *what);

// Forget every claim: all usable RAM is free again.
void memmap_release_all(struct memmap *mm);

// The start of the top bytes (rounded up to pages) of the highest free range
// with room for them below limit; 0 if nothing fits. Claims nothing.
uint64_t memmap_find(const struct memmap *mm, uint64_t bytes, uint64_t limit);

// memmap_find, then claim the block as what.
uint64_t memmap_alloc(struct memmap *mm, uint64_t bytes, uint64_t limit, const char *what);

// Print the usable ranges, their total, and what ramsift occupies.
void memmap_print(const struct memmap *mm);

#endif
