// SPDX-License-Identifier: GPL-2.0-or-later
// The machine's half of the row hammer test (lib/dram/hammer.h's
// callbacks): stores that reach DRAM, reads that come from it, and the
// activation loop. Addresses are physical, identity-mapped; ctx is unused.
#ifndef RAMSIFT_SRC_X86_HAMMER_LOOP_H
#define RAMSIFT_SRC_X86_HAMMER_LOOP_H

#include <stdint.h>

// Every word of [start, end) (8-byte aligned) takes value, with
// non-temporal stores and a fence: the next read comes from DRAM.
void x86_hammer_fill(void *ctx, uint64_t start, uint64_t end, uint64_t value);

// The word at addr, its line flushed first so that the read reaches DRAM.
uint64_t x86_hammer_read(void *ctx, uint64_t addr);

// Read each of aggr[0..naggr) count times in turn, each read flushed and
// fenced so that it opens its row again; then wait, touching no memory,
// until hold_ticks have passed since the start. Returns the TSC ticks the
// reads took.
uint64_t x86_hammer_activate(void *ctx, const uint64_t *aggr, unsigned naggr, uint32_t count,
			     uint64_t hold_ticks);

#endif
