// SPDX-License-Identifier: GPL-2.0-or-later
// The run: its settings, its status (lib/run/status.h), and the one way it
// ends (the result line, then the onexit action).
#ifndef RAMSIFT_SRC_RUN_H
#define RAMSIFT_SRC_RUN_H

#include <stdint.h>

#include "boot/cmdline.h"
#include "run/status.h"

// Start the run with the parsed settings and the amount of usable RAM;
// returns the run's status, which the run owns and hands down (run_ctx.h).
// Only the BSP writes its run-wide fields; each CPU writes its own job[]
// entry.
struct run_status *run_begin(const struct config *cfg, uint64_t usable_bytes);

// Print the json: line, then "ramsift: result=..." with the counters, and
// leave as onexit says (isa-debug-exit value 0 PASS, 1 FAIL, 2 ABORTED, 3
// STOPPED; ACPI power-off; reset); with onexit=halt, a key then reboots. Safe to call from an
// exception handler at any point after cpu_init_bsp(); a second call (a fault
// while finishing) halts at once.
_Noreturn void run_finish(enum result r);

#endif
