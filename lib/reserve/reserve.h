// SPDX-License-Identifier: GPL-2.0-or-later
// What ramsift-reserve.efi reserves and starts next: its file format
// (\EFI\ramsift\badpages.txt, and the same words in its load options) and
// the pages a BadRAM pair matches inside a range of the memory map. Pure:
// the UEFI application (efi/ramsift-reserve.c) does the allocating.
//
// The text is words separated by blanks or line ends; '#' starts a comment
// to the end of its line. The words:
//   efi-reserve:            ignored, so ramsift's whole log line can be pasted
//   badram=A,M[,A,M...]     BadRAM pairs, as ramsift prints them: address X
//                           is bad when (X & M) == A
//   pages=P[,P...]          single bad pages (any address inside each)
//   loader=\PATH\TO\X.efi   the loader to start next, on the same partition
// Pairs and pages add up over all the words; a later loader= wins.
#ifndef RAMSIFT_LIB_RESERVE_RESERVE_H
#define RAMSIFT_LIB_RESERVE_RESERVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RESERVE_PAIRS_MAX 2048	// pairs and pages together
#define RESERVE_PATH_MAX 256	// loader= path, with its NUL

// A pair at page granularity: a page is bad when any address in it
// matches, so the mask's page-offset bits are dropped (mask & ~0xfff).
struct reserve_pair {
	uint64_t addr;
	uint64_t mask;
};

struct reserve_config {
	struct reserve_pair pair[RESERVE_PAIRS_MAX];
	size_t npairs;
	char loader[RESERVE_PATH_MAX];	// "" when none was given
};

enum reserve_error {
	RESERVE_OK,
	RESERVE_UNKNOWN_WORD,	// not one of the words above
	RESERVE_BAD_NUMBER,	// a value is not a number (parse_u64)
	RESERVE_ODD_PAIRS,	// badram= ends with an address and no mask
	RESERVE_BAD_PAIR,	// the address has bits the mask does not fix
	RESERVE_ALL_PAGES,	// the mask fixes no bit above the page: every page
	RESERVE_TOO_MANY,	// more than RESERVE_PAIRS_MAX pairs and pages
	RESERVE_BAD_LOADER,	// loader= empty, too long or not starting with '\'
};

// Add the words of text[0..len) to *c (start with c zeroed). Stops at the
// first bad word: returns its error and sets *at to its byte offset in
// text; *c keeps what was parsed before it.
enum reserve_error reserve_parse(struct reserve_config *c, const char *text, size_t len, size_t *at);

// Like reserve_parse for a load option string: a first word without '='
// is the program's own name (the UEFI shell passes it) and is skipped.
enum reserve_error reserve_parse_options(struct reserve_config *c, const char *text, size_t len,
					 size_t *at);

// One line saying what the error means, for the person who wrote the file.
const char *reserve_error_text(enum reserve_error e);

// Called for each run [start, end) of matched pages (bytes, page-aligned).
typedef void (*reserve_run_fn)(void *ctx, uint64_t start, uint64_t end);

// Call fn for each maximal run of pages in [lo, hi) (page-aligned bytes,
// lo < hi) that pair p matches, in ascending order. Returns the bytes the
// runs hold together. Time: one step per run, each O(64).
uint64_t reserve_runs(const struct reserve_pair *p, uint64_t lo, uint64_t hi, reserve_run_fn fn,
		      void *ctx);

#endif
