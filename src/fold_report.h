// SPDX-License-Identifier: GPL-2.0-or-later
// The report after the passes: what was found and not tested, and the
// failing pages folded into the lines a person pastes.
#ifndef RAMSIFT_SRC_FOLD_REPORT_H
#define RAMSIFT_SRC_FOLD_REPORT_H

#include "badram/badram.h"
#include "boot/cmdline.h"
#include "errors.h"
#include "run/ram.h"
#include "run/runjson.h"
#include "run/status.h"

// Fold in scratch[0..WORK_REPORT_BYTES) (lib/run/ram.h: the working
// memory's part for it) from now on (again after a move).
void report_init(void *scratch);

// The loader's boot information, for the json: line of a run that ends
// before machine_init() (an early ABORTED); bi must outlive the run.
struct bootinfo;
void report_boot(const struct bootinfo *bi);

// Print the summary lines: the error count, ERROR lines not printed, the
// distinct failing pages, and every range not tested (ramsift's own memory,
// fp, when s says less than all usable RAM was tested).
void report_summary(const struct run_status *s, const struct footprint *fp);

// Fold the failing pages recorded so far (errors.h) against usable RAM with
// cfg's budgets, in the fold's UEFI mode after a UEFI boot, and print
// badram=, GRUB_BADRAM=, memmap=, the fold's summary line and the mode it
// was folded for, each starting with prefix ("" for the final report,
// which then prints the windows: and offline: lines too). Prints nothing
// when nothing failed.
void report_badram(const struct config *cfg, const struct ram *ram, const char *prefix);

// Print the run's JSON line ("json: {...}", lib/run/runjson.h) for the
// result r, with the run's settings cfg and status s at now_ms, and what
// became of the NVRAM record (NULL: nothing yet). Safe from
// an exception at any point after cpu_init_bsp(): what is not known yet is
// null, and the fold is the final report's only.
void report_json(const struct config *cfg, const struct run_status *s, enum result r,
		 uint64_t now_ms, const struct runjson_nvram *nvram);

// The final report's fold (report_badram() with prefix ""), for the
// result panel's QR code; NULL before it.
const struct badram_result *report_last_fold(void);

// After the final fold on a UEFI boot with failures: say what keeps the
// pages away there, the pre-loader first, and what GRUB's badram does.
void report_uefi_advice(void);

#endif
