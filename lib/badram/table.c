// SPDX-License-Identifier: GPL-2.0-or-later
// The failing-page table (see table.h): open addressing with linear
// probing, Fibonacci hashing. Capped at 7/8 load so a probe for an absent
// page stays short (about 32 slots on average at the cap).
#include "badram/merge.h"
#include "badram/badram.h"
#include "range.h"

static uint64_t slot_of(const struct badram_table *t, uint64_t page)
{
	// Fibonacci hashing: the top bits of page * 2^64/phi spread pages
	// that differ only in high bits (a column fault) over all slots.
	return ((page * 0x9e3779b97f4a7c15ULL) >> 32) & t->mask;
}

void badram_table_init(struct badram_table *t, uint64_t *slot, size_t nslots)
{
	t->slot = slot;
	t->mask = nslots - 1;
	t->n = 0;
	t->max_n = nslots - nslots / 8;
	t->last = BADRAM_TABLE_EMPTY;
	t->ovf_pages = 0;
	t->novf = 0;
	for (size_t i = 0; i < nslots; i++)
		slot[i] = BADRAM_TABLE_EMPTY;
}

static enum badram_add overflow_add(struct badram_table *t, uint64_t page)
{
	for (unsigned k = 0; k < t->novf; k++)
		if (cube_match(t->ovf[k], page))
			return BADRAM_ADD_KNOWN;
	t->ovf_pages++;
	if (t->novf == BADRAM_OVF_MAX) {
		t->novf = (unsigned)merge_closest(t->ovf, t->novf);
		for (unsigned k = 0; k < t->novf; k++)
			if (cube_match(t->ovf[k], page))
				return BADRAM_ADD_OVERFLOW;
	}
	t->ovf[t->novf++] = cube_page(page);
	return BADRAM_ADD_OVERFLOW;
}

// The slot that holds page, or the empty slot where it would go.
static uint64_t probe(const struct badram_table *t, uint64_t page)
{
	uint64_t i = slot_of(t, page);

	while (t->slot[i] != page && t->slot[i] != BADRAM_TABLE_EMPTY)
		i = (i + 1) & t->mask;
	return i;
}

enum badram_add badram_table_add(struct badram_table *t, uint64_t addr)
{
	if (addr >= RANGE_MAX_ADDR)
		return BADRAM_ADD_INVALID;
	uint64_t page = addr >> PAGE_SHIFT;
	if (page == t->last)
		return BADRAM_ADD_KNOWN;
	t->last = page;
	uint64_t i = probe(t, page);
	if (t->slot[i] == page)
		return BADRAM_ADD_KNOWN;
	if (t->n == t->max_n)
		return overflow_add(t, page);
	t->slot[i] = page;
	t->n++;
	return BADRAM_ADD_NEW;
}

bool badram_table_has(const struct badram_table *t, uint64_t addr)
{
	uint64_t page = addr >> PAGE_SHIFT;

	if (addr >= RANGE_MAX_ADDR)
		return false;
	for (unsigned k = 0; k < t->novf; k++)
		if (cube_match(t->ovf[k], page))
			return true;
	return t->slot[probe(t, page)] == page;
}

bool badram_table_empty(const struct badram_table *t)
{
	return t->n == 0 && t->novf == 0;
}

size_t badram_table_pages(const struct badram_table *t, uint64_t *out, size_t cap)
{
	size_t n = 0;

	if (cap == 0)
		return 0;
	for (uint64_t i = 0; i <= t->mask; i++) {
		uint64_t page = t->slot[i];
		if (page == BADRAM_TABLE_EMPTY || (n == cap && page >= out[n - 1] >> PAGE_SHIFT))
			continue;
		// Insert in order (binary search), dropping the highest when full.
		size_t lo = 0, hi = n;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (out[mid] >> PAGE_SHIFT < page)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (n < cap)
			n++;
		for (size_t k = n - 1; k > lo; k--)
			out[k] = out[k - 1];
		out[lo] = page << PAGE_SHIFT;
	}
	return n;
}
