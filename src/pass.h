// SPDX-License-Identifier: GPL-2.0-or-later
// The run loop: passes of the selected tests over all usable RAM.
#ifndef RAMSIFT_SRC_PASS_H
#define RAMSIFT_SRC_PASS_H

#include "run_ctx.h"

// Run cfg->passes passes (0: forever) of cfg's tests (the default pass when
// none are named) over the free RAM in run->ram, then move ramsift
// (run->fp) out of the way and run them over the memory it occupied, so
// every usable byte is tested each pass. run->seed seeds the passes'
// random tests. Updates run->status; returns when the passes are done.
void run_passes(struct run_ctx *run);

#endif
