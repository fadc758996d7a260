// SPDX-License-Identifier: GPL-2.0-or-later
// The BadRAM fold: from the failing pages recorded in a badram_table, compute
// at most K GRUB badram pairs (addr,mask: address X matches when
// (X & mask) == addr) that exclude every failing page, cut at most H holes
// into usable RAM, and exclude as few good pages as can be found; plus the
// ranges of Linux's memmap= line (covering every failing page in RAM, at
// most 4 when one lies where Linux may load its kernel, so KASLR stays on)
// and the numbers of the summary.
// Guarantees, whatever the input: every failing address matches a pair;
// npairs <= K; holes <= holes_budget (= H unless even one aligned block
// around all failures meets more RAM ranges than H, then raised to that
// block's holes and reported); every mask has bit 63 and its low 12 bits
// clear and fixes (to 0) every bit from above the highest failing address
// and top of RAM up to bit 62, and addr & ~mask == 0. All state is in the
// arguments: no allocation, no globals.
// Unless budget.uefi_only, pairs are in an order GRUB 2.06 on BIOS applies
// whole (order.h) whenever such a cover exists (grub_safe says so).
// Quality: an exact cover (no good page excluded) with the fewest pairs when
// one is found within both budgets; otherwise the fewest excluded good pages
// found among the exact search, two split-tree folds (dp.h) and a
// bottom-up merge (agglo.h).
#ifndef RAMSIFT_LIB_BADRAM_FOLD_H
#define RAMSIFT_LIB_BADRAM_FOLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cube.h"
#include "table.h"
#include "range.h"

// The budgets' limit and defaults: their one definition, which the command
// line's patterns= and holes= (lib/boot/cmdline.c), badram_budget_default()
// and ramsift-fold's --help take.
#define BADRAM_MAX_PAIRS CUBE_MAX_CUBES
#define BADRAM_DEFAULT_PAIRS 20
#define BADRAM_DEFAULT_HOLES 48         // Linux takes <= 128 e820 entries
#define BADRAM_DEFAULT_MEMMAP_CHARS 1024 // of the HOLES_MAX_CHARS-byte command line
#define BADRAM_MEMMAP_MAX 96            // memmap ranges kept at most
#define BADRAM_FOLD_SCRATCH_FIXED (3u << 20)
// Scratch bytes for a fold of a table with max_pages pages: two page arrays
// plus a fixed part for the split trees (larger scratch allows bigger trees,
// up to 4096 leaves; smaller ones shrink them).
#define BADRAM_FOLD_SCRATCH_BYTES(max_pages) \
	(16 * (size_t)(max_pages) + BADRAM_FOLD_SCRATCH_FIXED)

struct badram_pair {
	uint64_t addr, mask;
};

struct badram_budget {
	unsigned pairs;         // K: 1..BADRAM_MAX_PAIRS (clamped)
	unsigned holes;         // H: >= 1 (0 is taken as 1)
	unsigned memmap_chars;  // longest memmap= line, with "memmap="
				// (HOLES_MIN_CHARS..HOLES_MAX_CHARS, holes.h)
	bool uefi_only;         // the pairs need not survive GRUB 2.06 on BIOS
};

// Which budget made the fold exclude good pages.
enum badram_limit {
	BADRAM_LIMIT_NONE,      // exact: only failing pages are excluded
	BADRAM_LIMIT_PAIRS,     // K pairs cannot cover the failures exactly
	BADRAM_LIMIT_HOLES,     // an exact (or tighter) cover needs > H holes
};

struct badram_result {
	unsigned npairs;
	struct badram_pair pair[BADRAM_MAX_PAIRS];
	size_t nmemmap;                 // memmap ranges, bytes, sorted
	struct range memmap[BADRAM_MEMMAP_MAX];
	uint64_t failing_pages;         // distinct failing pages (at least)
	uint64_t ram_pages;             // usable RAM pages
	uint64_t excluded_pages;        // RAM pages the pairs exclude
	uint64_t sacrificed_pages;      // of those, pages not known to fail
	uint64_t holes;                 // runs the pairs cut into RAM
	uint64_t exact_holes;           // runs of failing pages (exact cover's)
	uint64_t memmap_sacrificed;     // good RAM pages the memmap ranges add
	unsigned pairs_budget;          // K as applied (clamped to 1..BADRAM_MAX_PAIRS)
	unsigned holes_budget;          // H as applied (see above)
	enum badram_limit limit;
	bool grub_safe;                 // GRUB 2.06 on BIOS applies every pair
	bool overflow;                  // table overflowed: failing_pages is a
					// lower bound, overflow cubes are coarse
	bool degraded;                  // scratch too small: one coarse pair
	bool memmap_kaslr;              // memmap ranges cut to Linux's KASLR
					// limit (holes.h)
};

// The default budgets.
struct badram_budget badram_budget_default(void);

// Fold the table t against usable RAM ram[0..nram) (bytes, sorted,
// disjoint, e.g. from mmap_normalize; nram == 0 means one range from 0 to
// the highest failing page). scratch[0..scratch_bytes) is working memory,
// BADRAM_FOLD_SCRATCH_BYTES(slots) recommended; the table is not modified,
// so recording can continue after a fold. Fills *r; r->npairs == 0 exactly
// when nothing failed. Returns false when scratch was too small and the
// result is the degraded single coarse pair (still correct). Time: about a
// tenth of a second on a PC for 64 Ki failing pages, most of it in the
// split trees.
bool badram_fold(const struct badram_table *t, const struct range *ram,
		 size_t nram, struct badram_budget budget, void *scratch,
		 size_t scratch_bytes, struct badram_result *r);

#endif
