// SPDX-License-Identifier: GPL-2.0-or-later
// The run loop: passes of the selected tests over all usable RAM.
#ifndef RAMSIFT_SRC_PASS_H
#define RAMSIFT_SRC_PASS_H

#include "fold_report.h"
#include "run_ctx.h"
#include "usbkeys.h"

// The working memory after the page tables (footprint_work()): the error
// table's slots, the fold's scratch, the USB stack's DMA block, then the
// APs' memory (src/smp.h), at these byte offsets.
#define WORK_ERRORS	0
#define WORK_REPORT	ERRORS_SLOT_BYTES
#define WORK_USB	(ERRORS_SLOT_BYTES + REPORT_SCRATCH_BYTES)
#define WORK_SMP	(WORK_USB + USBKEYS_MEM_BYTES)

// Run cfg->passes passes (0: forever) of cfg's tests (the default pass when
// none are named) over the free RAM in run->ram, then move ramsift
// (run->fp) out of the way and run them over the memory it occupied, so
// every usable byte is tested each pass. run->seed seeds the passes'
// random tests. Updates run->status; returns when the passes are done.
void run_passes(struct run_ctx *run);

#endif
