// SPDX-License-Identifier: GPL-2.0-or-later
// The text of a fold's result: the lines a person pastes, and the summary.
// Each function writes one NUL-terminated line without a newline into
// buf[0..len) and returns the length the whole line needs (as snprintf), so
// a result >= len means it was cut; BADRAM_LINE_MAX is always enough. Print
// none of them when nothing failed (r->npairs == 0). Hex is lowercase with
// no leading zeros, as GRUB's lexer and the kernel want.
#ifndef RAMSIFT_LIB_BADRAM_FORMAT_H
#define RAMSIFT_LIB_BADRAM_FORMAT_H

#include <stdbool.h>
#include <stddef.h>

#include "fold.h"

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

// True when the honest advice is to replace the module rather than keep
// using it with these lines: at least 1% of RAM fails, or at least 1% of
// RAM is sacrificed because the failures are too scattered to fold tightly
// within the budgets.
bool badram_replace_advised(const struct badram_result *r);

#endif
