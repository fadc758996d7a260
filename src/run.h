// SPDX-License-Identifier: GPL-2.0-or-later
// The run: its settings, its counters, and the one way it ends (the result
// line, then the onexit action).
#ifndef RAMSIFT_SRC_RUN_H
#define RAMSIFT_SRC_RUN_H

#include <stdint.h>

#include "boot/cmdline.h"

enum result { RESULT_PASS, RESULT_FAIL, RESULT_ABORTED };

// Start the run with the parsed settings and the amount of usable RAM.
void run_begin(const struct config *cfg, uint64_t usable_bytes);

// A pass ended having tested tested_bytes of RAM.
void run_pass_done(uint64_t tested_bytes);

// The most bytes one pass tested so far.
uint64_t run_tested_bytes(void);

// Print "ramsift: result=..." with the counters and leave as onexit says
// (isa-debug-exit value 0 PASS, 1 FAIL, 2 ABORTED). Safe to call from an
// exception handler at any point after cpu_init_bsp(); a second call (a fault
// while finishing) halts at once.
_Noreturn void run_finish(enum result r);

#endif
