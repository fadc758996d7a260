// SPDX-License-Identifier: GPL-2.0-or-later
// Moving ramsift out of the way so the memory it occupied can be tested.
// ramsift's footprint is the image (code, data, stacks), and its page tables
// followed by its working memory (error table, fold scratch). All code runs
// from the kernel window, so a move is a copy of the image and the working
// memory plus new page tables that point the window at the copy; only the
// pointers into the working memory change.
#ifndef RAMSIFT_SRC_X86_RELOCATE_H
#define RAMSIFT_SRC_X86_RELOCATE_H

#include <stdint.h>

#include "range.h"

// What the log calls the block of page tables and working memory.
#define FOOTPRINT_DATA_WHAT "page tables and working memory"

struct footprint {
	uint64_t image;		// physical start of the image
	uint64_t image_bytes;	// page multiple
	uint64_t tables;	// physical start of the page tables
	uint64_t table_bytes;	// page multiple
	uint64_t work_bytes;	// page multiple, right after the page tables
	uint64_t top;		// the identity map covers [0, top)
};

// Bytes a new footprint needs: image, page tables and working memory, back
// to back.
uint64_t footprint_bytes(const struct footprint *fp);

// Bytes from fp->tables to the end of the working memory.
uint64_t footprint_data_bytes(const struct footprint *fp);

// Physical address of the working memory.
uint64_t footprint_work(const struct footprint *fp);

// Copy the image to dest, write page tables after it (identity map up to
// fp->top, window onto dest), copy the working memory after them, switch to
// the new tables, and update fp. dest must be
// page aligned, and [dest, dest + footprint_bytes(fp)) free RAM disjoint
// from the current footprint. Interrupts must be off and no other CPU may be
// running ramsift's code.
void relocate(struct footprint *fp, uint64_t dest);

#endif
