// SPDX-License-Identifier: GPL-2.0-or-later
// A record's pages back into the fold (record.h): the table of them, and
// the fold the image made of the run, so that the pre-loader and
// ramsift-apply print the run's own lines.
#include "record/record.h"
#include "memstr.h"

bool record_table(const struct record *r, struct badram_table *t)
{
	// record_decode and record_set_pages keep the ranges to
	// RECORD_PAGES_MAX pages: a bounded number of adds.
	for (size_t i = 0; i < r->nranges; i++)
		for (uint64_t a = r->range[i].start; a < r->range[i].end; a += PAGE_SIZE)
			badram_table_add(t, a);
	return t->novf == 0;
}

bool record_fold(const struct record *r, uint64_t *slot, size_t nslots, void *scratch,
		 size_t scratch_bytes, struct badram_result *out)
{
	struct badram_table t;
	bool whole;

	badram_table_init(&t, slot, nslots);
	whole = record_table(r, &t);
	badram_fold(&t, r->ram, r->nram, r->budget, scratch, scratch_bytes, out);
	if (!r->pages_cut)
		return whole;
	out->npairs = r->npairs;
	mem_copy(out->pair, r->pair, sizeof(r->pair[0]) * r->npairs);
	out->failing_pages = r->failing_pages;
	return false;
}
