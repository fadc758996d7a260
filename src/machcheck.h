// SPDX-License-Identifier: GPL-2.0-or-later
// What the run does with the machine-check banks (src/x86/mca.h reads
// them): records left from before ramsift started are logged "at boot";
// during the run every CPU polls its own banks, logs each record as an
// MCE line and puts the page of each corrected error (the memory
// controller fixed a bit with ECC: a test never sees it) into the error
// table, so it is folded like a failing word and the run ends FAIL. An
// uncorrected error raises #MC, which machcheck_exception() reports.
#ifndef RAMSIFT_SRC_MACHCHECK_H
#define RAMSIFT_SRC_MACHCHECK_H

#include <stdbool.h>
#include <stdint.h>

// How often a CPU polls its banks while it tests.
#define MACHCHECK_POLL_MS 100

// Entered on each CPU as it starts: the BSP from kmain() once the consoles
// are up, each AP from its ap_main(). The first time on a CPU, records its
// banks hold are logged "MCE ... at boot" and cleared; on a CPU started
// again (after ramsift moved) they are polled as the run's. Then machine
// checks are enabled on it.
void machcheck_cpu_start(void);

// Poll this CPU's banks: every record is logged and cleared, a corrected
// one's page recorded (src/errors.h). Without now, only when
// MACHCHECK_POLL_MS passed since this CPU's last poll. Requires
// errors_init().
void machcheck_poll(bool now);

// Records polled during the run: corrected (UC=0), and uncorrected ones
// that raised no machine check.
uint64_t machcheck_corrected(void);
uint64_t machcheck_uncorrected(void);

// The summary line of the records, when there were any.
void machcheck_summary(void);

// The report of a machine check exception on cpu, the calling CPU, through
// the panic path (panic_exception): IA32_MCG_STATUS, every bank holding a
// record (an MCE line ending "#MC"), left uncleared, and what the error
// means and what to do.
void machcheck_exception(unsigned cpu);

#endif
