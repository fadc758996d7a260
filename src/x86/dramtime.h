// SPDX-License-Identifier: GPL-2.0-or-later
// The time of reading two physical addresses alternately from DRAM: the
// measurement lib/dram's learning of the bank mapping is built on
// (docs/memory-tests.md, "Learning the DRAM's geometry").
#ifndef RAMSIFT_SRC_X86_DRAMTIME_H
#define RAMSIFT_SRC_X86_DRAMTIME_H

#include <stdbool.h>
#include <stdint.h>

// Whether the CPU has clflush (CPUID.1:EDX[19]); without it nothing can be
// timed from DRAM.
bool dramtime_available(void);

// TSC ticks per access pair of reading a, then b, rounds times, each pair
// flushed from the caches and fenced so that every read goes to DRAM.
// a and b are physical addresses of RAM, identity-mapped; only read.
// Requires rounds >= 1.
uint32_t dramtime_pair(uint64_t a, uint64_t b, unsigned rounds);

#endif
