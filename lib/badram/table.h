// SPDX-License-Identifier: GPL-2.0-or-later
// The set of failing pages, collected on the error path. Distinct pages go to
// a hash table in a buffer the caller supplies (e.g. 64 Ki slots); repeats of
// a page cost one compare or a short probe. When the table is full, further
// new pages are covered online by a few overflow cubes (merged pairwise as
// they multiply), so at every moment table + overflow cover every failing
// address, and a refold at any time still excludes every one (docs/badram.md,
// "What the fold guarantees"). Not thread-safe: the caller serializes calls
// on one table (e.g. under its error lock).
#ifndef RAMSIFT_LIB_BADRAM_TABLE_H
#define RAMSIFT_LIB_BADRAM_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cube.h"

#define BADRAM_TABLE_EMPTY UINT64_MAX   // a free slot (never a page number)
#define BADRAM_OVF_MAX 8                // overflow cubes kept at most

struct badram_table {
	uint64_t *slot;         // caller's buffer: page numbers or EMPTY
	uint64_t mask;          // slot count - 1
	uint64_t n;             // distinct pages in the table
	uint64_t max_n;         // table is full at this many (7/8 of the slots)
	uint64_t last;          // page of the previous add (fast path)
	uint64_t ovf_pages;     // pages sent to overflow that it did not cover yet
	unsigned novf;
	struct cube ovf[BADRAM_OVF_MAX];
};

enum badram_add {
	BADRAM_ADD_KNOWN,       // page already recorded (table or overflow)
	BADRAM_ADD_NEW,         // new distinct page stored in the table
	BADRAM_ADD_OVERFLOW,    // table full: page now covered by an overflow cube
	BADRAM_ADD_INVALID,     // address >= RANGE_MAX_ADDR: not physical, ignored
};

// Start an empty table in slot[0..nslots). nslots must be a power of two, at
// least 16; the table holds 7/8 of it before overflowing. The buffer must
// stay valid and untouched while the table is used.
void badram_table_init(struct badram_table *t, uint64_t *slot, size_t nslots);

// Record the failing physical byte address addr. Cheap: a repeat of the last
// page is one compare, any other known page a hash probe; only a new page
// past the full table costs more (O(BADRAM_OVF_MAX^2) cube merging).
enum badram_add badram_table_add(struct badram_table *t, uint64_t addr);

// True when the page holding physical address addr has been recorded as
// failing (in the table, or covered by an overflow cube).
bool badram_table_has(const struct badram_table *t, uint64_t addr);

// True when nothing has been recorded.
bool badram_table_empty(const struct badram_table *t);

#endif
