// SPDX-License-Identifier: GPL-2.0-or-later
// The BadRAM library's one public header: the table of failing pages, the
// fold, and the text of its result. Its parts (cube, tree, dp, exact, agglo,
// merge, order, sort, holes) are internal: each prefixes its names with its
// file's name (cube_, tree_, ...), and only unit tests and benchmarks reach them.
#ifndef RAMSIFT_LIB_BADRAM_BADRAM_H
#define RAMSIFT_LIB_BADRAM_BADRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "badram/cube.h"
#include "range.h"

// ---- the table of failing pages
// The set of failing pages, collected on the error path. Distinct pages go to
// a hash table in a buffer the caller supplies (e.g. 64 Ki slots); repeats of
// a page cost one compare or a short probe. When the table is full, further
// new pages are covered online by a few overflow cubes (merged pairwise as
// they multiply), so at every moment table + overflow cover every failing
// address, and a refold at any time still excludes every one (docs/badram.md,
// "What the fold guarantees"). Not thread-safe: the caller serializes calls
// on one table (e.g. under its error lock).

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

// The lowest distinct failing pages of t, as byte addresses in ascending
// order: at most cap of them into out; returns how many. The table's pages
// only: what overflow cubes cover is not listed (t->novf says there is some).
// Time O(n log cap + n * moves), with no memory but out.
size_t badram_table_pages(const struct badram_table *t, uint64_t *out, size_t cap);

// ---- the fold
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

// The budgets' limit and defaults: their one definition, which the command
// line's patterns= and holes= (lib/boot/cmdline.c), badram_budget_default()
// and ramsift-fold's --help take.
#define BADRAM_MAX_PAIRS CUBE_MAX_CUBES
#define BADRAM_DEFAULT_PAIRS 20
#define BADRAM_DEFAULT_HOLES 48         // Linux takes <= 128 e820 entries
#define BADRAM_MEMMAP_MIN_CHARS 64   // room for "memmap=" and one widest entry
#define BADRAM_MEMMAP_MAX_CHARS 2047 // the whole x86 kernel command line
#define BADRAM_DEFAULT_MEMMAP_CHARS 1024 // of the BADRAM_MEMMAP_MAX_CHARS-byte command line
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
				// (BADRAM_MEMMAP_MIN_CHARS..BADRAM_MEMMAP_MAX_CHARS)
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

// ---- the lines
// The text of a fold's result: the lines a person pastes, and the summary.
// Each function writes one NUL-terminated line without a newline into
// buf[0..len) and returns the length the whole line needs (as snprintf), so
// a result >= len means it was cut; BADRAM_LINE_MAX is always enough. Print
// none of them when nothing failed (r->npairs == 0). Hex is lowercase with
// no leading zeros, as GRUB's lexer and the kernel want.

// 64 pairs of "0x<16>,0x<16>," plus the GRUB_BADRAM="" wrapping; the
// memmap line is at most 2047 bytes (the kernel command line).
#define BADRAM_LINE_MAX 2560

// badram=0xADDR,0xMASK[,0xADDR,0xMASK...]
int badram_format_badram(char *buf, size_t len, const struct badram_result *r);

// GRUB_BADRAM="0xADDR,0xMASK[,...]", for /etc/default/grub.
int badram_format_grub(char *buf, size_t len, const struct badram_result *r);

// memmap=SIZE$ADDR[,SIZE$ADDR...] (Linux syntax, SIZE with K/M/G). The '$'
// is literal: grub.cfg needs it written \$ (docs/badram.md, "In Linux").
int badram_format_memmap(char *buf, size_t len, const struct badram_result *r);

// One line of numbers and a verdict, e.g.
// "fold: failing_pages=2 pairs=1 holes=1 excluded_pages=2
//  sacrificed_pages=0 (0 B): exact" (one line); when good memory is lost it
// says which budget forced it, how much of RAM it is, and, when
// badram_replace_advised(r), to replace the module.
int badram_format_summary(char *buf, size_t len, const struct badram_result *r);

// ---- other sinks: Windows' {badmemory} list and a running Linux
// Windows' boot manager keeps a list of page frame numbers it never uses
// (the BCD element BadMemoryList of the {badmemory} object, set with
// bcdedit); `bcdedit /set` replaces the whole list, so one command must
// carry every page. A running Linux takes a page away when its physical
// address is written to /sys/devices/system/memory/hard_offline_page.
// docs/badram.md says where these come from and what they cannot do.

// cmd.exe's longest command line (characters, without the NUL).
#define BADRAM_WINDOWS_LINE_MAX 8191
#define BADRAM_WINDOWS_LIST "bcdedit /set {badmemory} badmemorylist"
#define BADRAM_WINDOWS_ACCESS "bcdedit /set {badmemory} badmemoryaccess no"
#define BADRAM_OFFLINE_FILE "/sys/devices/system/memory/hard_offline_page"

// BADRAM_WINDOWS_LIST followed by " 0xPFN" for each page address of
// pages[0..n) (PFN = address >> 12, lowercase hex), as many as fit in
// BADRAM_WINDOWS_LINE_MAX characters; *listed gets how many. Writes into
// buf[0..len) and returns the length needed, as snprintf (the line is at
// most BADRAM_WINDOWS_LINE_MAX long).
int badram_format_windows(char *buf, size_t len, const uint64_t *pages, size_t n, size_t *listed);

// "echo 0xADDR > /sys/devices/system/memory/hard_offline_page" for the page
// at byte address page; returns the length needed, as snprintf.
int badram_format_offline(char *buf, size_t len, uint64_t page);

// ---- JSON
struct json;	// lib/json.h

// Write the fold's result r as one JSON object into j: "mode" (mode: "bios"
// or "uefi", what the pairs were folded for), "pairs" ([{"addr","mask"}],
// hex strings), "badram", "grub", "memmap" and "summary" (the lines'
// texts, null when nothing failed), "memmap_ranges" ([{"start","end"}]),
// and the numbers and flags of struct badram_result under their names
// (failing_pages, ram_pages, excluded_pages, sacrificed_pages, holes,
// exact_holes, memmap_sacrificed_pages, pairs_budget, holes_budget,
// "limit": "none"|"pairs"|"holes", replace_advised, grub_bios_safe,
// overflow, degraded, memmap_kaslr). The keys are stable: ramsift's json:
// line and ramsift-fold --format json share them. scratch holds each line
// while it is escaped: BADRAM_LINE_MAX bytes, the caller's (not this
// function's stack: the image writes the JSON from an exception handler's
// small stack too).
void badram_json(struct json *j, const struct badram_result *r, const char *mode, char *scratch);

// True when the honest advice is to replace the module rather than keep
// using it with these lines: at least 1% of RAM fails, or at least 1% of
// RAM is sacrificed because the failures are too scattered to fold tightly
// within the budgets.
bool badram_replace_advised(const struct badram_result *r);

#endif
