// SPDX-License-Identifier: GPL-2.0-or-later
// The DRAM's geometry (lib/dram): learned from access timing before the
// tests, then used to say what the failures are in DRAM terms, the
// diagnosis: line. docs/memory-tests.md, "Learning the DRAM's geometry".
#ifndef RAMSIFT_SRC_DRAM_GEOMETRY_H
#define RAMSIFT_SRC_DRAM_GEOMETRY_H

#include <stddef.h>
#include <stdint.h>

#include "boot/cmdline.h"
#include "dram/diagnose.h"
#include "dram/dram.h"
#include "run/ram.h"

// The dram: lines. Learn the bank functions and row bits from the timing
// of reads of usable RAM (only read), as cfg->dram says: not under a
// hypervisor unless forced, at most DRAM_PHASE_MS, a key can stop or skip
// it. seed: the run's, so that seed= repeats the pairs it times.
// scratch[0..bytes) is memory free until the first fold. Entered once,
// on the BSP, before the first pass; the other CPUs wait for jobs.
#define DRAM_PHASE_MS 15000
void dram_learn_geometry(const struct config *cfg, const struct ram *ram, const char *hypervisor,
		uint64_t seed, void *scratch, size_t bytes);

// The learned map; NULL when none was learned.
const struct dram_map *dram_map_learned(void);

// What the phase ended in, as the JSON's dram.status says it: "off",
// "hypervisor", "no-clflush", or the learning's outcome (dram_outcome_name():
// "learned", "no-signal", ...); NULL before the phase.
const char *dram_status(void);

// Diagnose the failing words recorded so far (errors.h) under the learned
// map, or from their address bits, and print the diagnosis: line; nothing
// when no read failed. Once, after the run.
void dram_report_diagnosis(void);

// What dram_report_diagnosis() printed; NULL before, or when nothing failed.
const struct dram_diagnosis *dram_diagnosis(void);

#endif
