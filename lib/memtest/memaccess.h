// SPDX-License-Identifier: GPL-2.0-or-later
// The memory-access contract of the tests: every load and store a memory test
// makes goes through the functions below, so the compiler can never assume
// that what was written is what will be read back, and so the same test
// source runs against real or simulated memory. The build's include path
// picks the implementation, memrw.h (never a function pointer in a hot
// loop): src/x86/memrw.h in the image and bench/hostbw (MEMRW_USER_SPACE),
// tests/sim/memrw.h over the host's simulated faulty memory. Writes must
// reach DRAM before they are read back, or the cache hides the fault: the
// per-phase rules (non-temporal fills, wbinvd after in-place writes and
// copies, each CPU flushing its own caches) and why are in
// docs/memory-tests.md, "Getting writes to DRAM" and "The flush".
#ifndef RAMSIFT_LIB_MEMTEST_MEMACCESS_H
#define RAMSIFT_LIB_MEMTEST_MEMACCESS_H

// memrw.h defines, as static inlines over physical addresses of 8-byte
// aligned words:
//	uint64_t mem_read64(uint64_t addr);
//	void mem_write64(uint64_t addr, uint64_t value);	through the cache
//	void mem_write64_nt(uint64_t addr, uint64_t value);	non-temporal
//	void mem_store_fence(void);	drains the non-temporal stores
//	void mem_prefetch(uint64_t addr);	a hint, never faults
//	void mem_flush_cache(void);	later loads are served by DRAM
//	void mem_copy64(uint64_t dst, uint64_t src, uint64_t nwords);
// A test that syncs (memtest.h, mt_sync_fn) leaves the flush to the
// callback, which runs mem_flush_cache on every CPU when flush is true;
// alone it calls mem_flush_cache itself.

#include "memrw.h"

#endif
