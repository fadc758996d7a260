// SPDX-License-Identifier: GPL-2.0-or-later
// Filling a record from a run: its usable RAM, and its failing pages as
// ranges, as many as fit the record's 4 KiB with everything else in it
// (record.h).
#include "record/record.h"
#include "memstr.h"
#include "record/wire.h"

#define PAGE_MASK (~(uint64_t)(PAGE_SIZE - 1))

static uint64_t page_down(uint64_t a)
{
	return (a < RANGE_MAX_ADDR ? a : RANGE_MAX_ADDR) & PAGE_MASK;
}

static uint64_t page_up(uint64_t a)
{
	return a < RANGE_MAX_ADDR ? (a + PAGE_SIZE - 1) & PAGE_MASK : RANGE_MAX_ADDR;
}

// Append [start, end) to r->ram, joining it to the range before when they
// touch; false when it needs a slot past RECORD_RAM_MAX.
static bool add_ram(struct record *r, uint64_t start, uint64_t end)
{
	struct range *last = r->nram ? &r->ram[r->nram - 1] : NULL;

	if (start >= end)
		return true;
	if (last && start <= last->end) {
		if (end > last->end)
			last->end = end;
		return true;
	}
	if (r->nram == RECORD_RAM_MAX)
		return false;
	r->ram[r->nram++] = (struct range){ start, end };
	return true;
}

void record_set_ram(struct record *r, const struct range *ram, size_t n)
{
	r->nram = 0;
	r->ram_approx = false;
	for (size_t i = 0; i < n; i++)
		if (!add_ram(r, page_up(ram[i].start), page_down(ram[i].end))) {
			r->ram_approx = true;
			r->ram[0].end = page_down(ram[n - 1].end);
			r->nram = 1;
			return;
		}
}

// The ranges of pages[0..n) into r->range, at most RECORD_RANGES_MAX of
// them and RECORD_PAGES_MAX pages; returns whether every page went in.
static bool build_ranges(struct record *r, const uint64_t *pages, size_t n)
{
	uint64_t listed = 0;

	r->nranges = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t page = pages[i] & PAGE_MASK;
		struct range *last = r->nranges ? &r->range[r->nranges - 1] : NULL;

		if (page >= RANGE_MAX_ADDR || (last && page < last->end))
			continue;	// not a page, or not ascending: nothing a run lists
		if (listed == RECORD_PAGES_MAX)
			return false;
		if (last && page == last->end) {
			last->end += PAGE_SIZE;
		} else {
			if (r->nranges == RECORD_RANGES_MAX)
				return false;
			r->range[r->nranges++] = (struct range){ page, page + PAGE_SIZE };
		}
		listed++;
	}
	return true;
}

// How many of v[0..n) fit in room bytes, the lowest first.
static size_t ranges_fitting(const struct range *v, size_t n, size_t room)
{
	uint64_t prev = 0;
	size_t used = 0;

	for (size_t i = 0; i < n; i++) {
		used += wire_range_bytes(prev, v[i]);
		if (used > room)
			return i;
		prev = v[i].end;
	}
	return n;
}

void record_set_pages(struct record *r, const uint64_t *pages, size_t n, bool more,
		      const struct badram_result *fold)
{
	bool all = build_ranges(r, pages, n);
	size_t built = r->nranges, room;

	r->failing_pages = fold && fold->failing_pages > n ? fold->failing_pages : n;
	r->pages_cut = false;
	r->npairs = 0;
	r->nranges = 0;
	room = RECORD_MAX_BYTES - record_size(r);
	r->nranges = ranges_fitting(r->range, built, room);
	if (all && !more && r->nranges == built && r->failing_pages == record_listed_pages(r))
		return;
	// The pairs always fit: the RAM list is at most 2594 bytes (512
	// numbers of pages summing to at most 2^40: 5 bytes each, 6 for at
	// most 32 of them), the strings 243, the rest 103, which leaves 1156
	// for 64 pairs' 1024 bytes.
	r->pages_cut = true;
	if (fold) {
		r->npairs = fold->npairs;
		mem_copy(r->pair, fold->pair, sizeof(r->pair[0]) * fold->npairs);
	}
	r->nranges = ranges_fitting(r->range, built, room - WIRE_PAIR_BYTES * r->npairs);
}
