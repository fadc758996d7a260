// SPDX-License-Identifier: GPL-2.0-or-later
// The BadRAM report: fold the failing pages into the lines a person pastes.
#ifndef RAMSIFT_SRC_REPORT_H
#define RAMSIFT_SRC_REPORT_H

#include "cmdline.h"
#include "memmap.h"

// Fold the failing pages recorded so far (errors.h) against usable RAM with
// cfg's budgets and print badram=, GRUB_BADRAM=, memmap= and the fold's
// summary line, each starting with prefix ("" for the final summary). Prints
// nothing when nothing failed.
void report_badram(const struct config *cfg, const struct memmap *mm, const char *prefix);

#endif
