// SPDX-License-Identifier: GPL-2.0-or-later
// The usable RAM the loader reported, what of it is free, and what ramsift
// itself occupies (its footprint: image, page tables, working memory), which
// cannot be tested while it sits there. Pure bookkeeping over byte ranges:
// the image keeps one, the host's unit tests many.
#ifndef RAMSIFT_LIB_RUN_RAM_H
#define RAMSIFT_LIB_RUN_RAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "badram/badram.h"
#include "capacity.h"
#include "range.h"

// What the log calls the footprint's two ranges.
#define FOOTPRINT_IMAGE_WHAT "image, stacks and boot page tables"
#define FOOTPRINT_DATA_WHAT "page tables and working memory"

// The working memory, right after the page tables (footprint_work()), at
// these byte offsets: the error table's slots (src/errors.c), the fold's
// scratch (src/fold_report.c), the USB stack's DMA block (src/usbkeys.c),
// then the APs' memory (src/smp.c), as large as the CPUs found need.
#define WORK_ERRORS_BYTES (ERRORS_TABLE_SLOTS * 8ull)
#define WORK_REPORT_BYTES BADRAM_FOLD_SCRATCH_BYTES(ERRORS_TABLE_SLOTS)
#define WORK_USB_BYTES (512u << 10)
#define WORK_ERRORS 0
#define WORK_REPORT (WORK_ERRORS + WORK_ERRORS_BYTES)
#define WORK_USB (WORK_REPORT + WORK_REPORT_BYTES)
#define WORK_SMP (WORK_USB + WORK_USB_BYTES)

// What ramsift occupies: the image (code, data, stacks, boot page tables),
// and in a second range the page tables that map all RAM followed by the
// working memory (error table, fold scratch, USB DMA block, the APs'
// memory).
struct footprint {
	uint64_t image;		// physical start of the image
	uint64_t image_bytes;	// page multiple
	uint64_t tables;	// physical start of the page tables
	uint64_t table_bytes;	// page multiple
	uint64_t work_bytes;	// page multiple, right after the page tables
	uint64_t top;		// the identity map covers [0, top)
};

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

// The footprint's bytes: image, page tables and working memory, which a
// move needs back to back.
uint64_t footprint_bytes(const struct footprint *fp);

// Its two physical ranges: the image, and the page tables with the
// working memory after them.
struct range footprint_image(const struct footprint *fp);
struct range footprint_data(const struct footprint *fp);

// Physical address of the working memory.
uint64_t footprint_work(const struct footprint *fp);

// fp moved to dest: the image at dest, the page tables and the working
// memory right after it.
struct footprint footprint_at(const struct footprint *fp, uint64_t dest);

// Claim fp's two ranges (FOOTPRINT_IMAGE_WHAT, FOOTPRINT_DATA_WHAT).
void ram_claim_footprint(struct ram *ram, const struct footprint *fp);

#endif
