// SPDX-License-Identifier: GPL-2.0-or-later
// The self-check: ramsift's own code and read-only data (.text and .rodata,
// which nothing writes) get a CRC-32 per page at the start; the pages are
// checked again at the end of every test and after every move. A page that
// changed was changed by the RAM holding it (or a stray DMA): the run ends
// ABORTED, naming the address (the byte, when one byte changed) and the
// page, which goes into the fold's lines as failing.
#ifndef RAMSIFT_SRC_SELFCHECK_H
#define RAMSIFT_SRC_SELFCHECK_H

#include "run_ctx.h"

// Take the pages' CRCs. Entered once from kmain(), on the BSP, before
// anything could have changed them.
void selfcheck_init(void);

// Check every page; when one changed, report it (after: what just happened,
// for the log: "test march-c", "the move"), fold it with the failing pages
// found so far and end the run ABORTED. Called on the BSP while the APs are
// idle or parked; run->fp says where the image is now (for the addresses).
void selfcheck_verify(const struct run_ctx *run, const char *after);

#endif
