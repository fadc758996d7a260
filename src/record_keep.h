// SPDX-License-Identifier: GPL-2.0-or-later
// The result kept in the UEFI variable RamsiftResult at the end of a run
// (lib/record is its format), so that ramsift-reserve.efi protects the
// machine at the next boot with nothing typed. Policy only: when to write
// and what to say; src/x86/efirt makes the firmware call.
#ifndef RAMSIFT_SRC_RECORD_KEEP_H
#define RAMSIFT_SRC_RECORD_KEEP_H

#include <stdbool.h>
#include <stdint.h>

#include "boot/multiboot.h"
#include "run/runjson.h"
#include "run/status.h"
#include "run_ctx.h"

// Read the clock (the run's date) and remember what the record will need.
// Called by kmain() once the run is set up; run and bi outlive the run.
void nvram_init(const struct run_ctx *run, const struct bootinfo *bi);

// Whether nvram_keep() will call the firmware for a run ending r with
// status s (the caller then prints the result line first).
bool nvram_will_call(enum result r, const struct run_status *s);

// Keep the result r, or say why not, in nvram: lines. From run_finish(),
// on the BSP, after the final report.
void nvram_keep(enum result r, const struct run_status *s, uint64_t now_ms);

// What became of it, for the json: line; NULL before nvram_keep().
const struct runjson_nvram *nvram_outcome(void);

#endif
