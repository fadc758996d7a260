// SPDX-License-Identifier: GPL-2.0-or-later
// The report after the passes: what was found and not tested, and the
// failing pages folded into the lines a person pastes.
#ifndef RAMSIFT_SRC_REPORT_H
#define RAMSIFT_SRC_REPORT_H

#include "boot/cmdline.h"
#include "memmap.h"
#include "x86/relocate.h"

// Print the summary lines: the error count, ERROR lines not printed, the
// distinct failing pages, and every range not tested (ramsift's own memory,
// fp, when it could not move; usable is all usable RAM in bytes).
void report_summary(const struct footprint *fp, uint64_t usable);

// Fold the failing pages recorded so far (errors.h) against usable RAM with
// cfg's budgets and print badram=, GRUB_BADRAM=, memmap= and the fold's
// summary line, each starting with prefix ("" for the final summary). Prints
// nothing when nothing failed.
void report_badram(const struct config *cfg, const struct memmap *mm, const char *prefix);

// After the final fold on a UEFI boot with failures: say what GRUB's badram
// does there and what to add.
void report_uefi_advice(void);

#endif
