// SPDX-License-Identifier: GPL-2.0-or-later
// The record's BadRAM lines (apply.h): the run's fold made again by
// record_fold, which folds the record's pages against the run's RAM with
// the run's budget as the image did, and lib/badram's formatters, so that
// for one run they are the run's own badram=, GRUB_BADRAM=, memmap= and
// fold: lines.
#include <stdio.h>
#include <stdlib.h>

#include "apply.h"

void lines_make(const struct record *r, struct lines *l)
{
	size_t scratch_bytes = BADRAM_FOLD_SCRATCH_BYTES(RECORD_FOLD_SLOTS);
	uint64_t *slot = malloc(RECORD_FOLD_SLOTS * sizeof(*slot));
	void *scratch = malloc(scratch_bytes);

	if (slot == NULL || scratch == NULL) {
		say(LEVEL_ERROR, "out of memory for the fold (%zu bytes)", scratch_bytes);
		exit(STATUS_FAILED);
	}
	l->whole = record_fold(r, slot, RECORD_FOLD_SLOTS, scratch, scratch_bytes, &l->fold);
	free(slot);
	free(scratch);
	l->failed = l->fold.npairs > 0;
	l->memmap = l->failed && l->whole && l->fold.nmemmap > 0;
	badram_format_badram(l->badram, sizeof(l->badram), &l->fold);
	badram_format_grub(l->grub, sizeof(l->grub), &l->fold);
	badram_format_memmap(l->memmap_line, sizeof(l->memmap_line), &l->fold);
	badram_format_summary(l->summary, sizeof(l->summary), &l->fold);
}
