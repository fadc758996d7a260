// SPDX-License-Identifier: GPL-2.0-or-later
// The machine-check MSRs of the CPU that calls (SDM vol. 3B, chapter 15):
// enabling machine checks, reading and clearing its banks. Every function
// acts on the calling CPU only; what a record means is lib/mce.h's, what
// the run does with it src/machcheck.c's.
#ifndef RAMSIFT_SRC_X86_MCA_H
#define RAMSIFT_SRC_X86_MCA_H

#include <stdbool.h>
#include <stdint.h>

#include "mce.h"

// The banks this CPU has: IA32_MCG_CAP's count when CPUID says it has
// MCE and MCA, else 0. *cap gets IA32_MCG_CAP (0 without MCA).
unsigned mca_banks(uint64_t *cap);

// Read bank into *r (cpu set to cpu); ADDR and MISC only when STATUS says
// they are valid (reading them otherwise may fault).
void mca_read(unsigned cpu, unsigned bank, struct mce_record *r);

// Clear bank's STATUS (writing 0 is always allowed, SDM 15.3.2.2).
void mca_clear(unsigned bank);

// Turn machine checks on: IA32_MCG_CTL all ones when it exists, every
// bank's control register all ones except those lib/mce.h leaves to the
// firmware, then CR4.MCE (with MCE but no MCA, CR4.MCE alone). The caller
// reads and clears the banks first (SDM 15.8: they may hold records from
// before the last reset).
void mca_enable(void);

// IA32_MCG_STATUS (lib/mce.h's MCG_STATUS_* bits). Requires MCA
// (mca_banks() above 0).
uint64_t mca_global_status(void);

#endif
