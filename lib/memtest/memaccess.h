// SPDX-License-Identifier: GPL-2.0-or-later
// The memory-access contract of the tests: every load and store a memory test
// makes goes through the functions below, so the compiler can never assume
// that what was written is what will be read back, and so the same test
// source can run against real or simulated memory. There are two
// implementations, chosen by the build's include path (never a function
// pointer in a hot loop): src/x86/memrw.h for the image (and bench/hostbw,
// with MEMRW_USER_SPACE), tests/sim/memrw.h for the host's simulated faulty
// memory. Both define, as static inlines over physical addresses of 8-byte
// aligned words:
//	uint64_t mem_read64(uint64_t addr);
//	void mem_write64(uint64_t addr, uint64_t value);	through the cache
//	void mem_write64_nt(uint64_t addr, uint64_t value);	non-temporal
//	void mem_store_fence(void);	drains the non-temporal stores
//	void mem_prefetch(uint64_t addr);	a hint, never faults
//	void mem_flush_cache(void);	later loads are served by DRAM
//	void mem_copy64(uint64_t dst, uint64_t src, uint64_t nwords);
//
// Writes must reach DRAM before they are read back, or the cache would hide
// the fault. The tests keep to four rules, chosen per phase:
//  - a phase that only writes uses mem_write64_nt (movnti) and ends with
//    mem_store_fence (sfence). A non-temporal store evicts the line from every
//    cache and goes to memory through the write-combining buffers; the sfence
//    drains them. No flush is needed and no cache line is polluted.
//  - a phase that reads a word, then writes it (March elements, moving
//    inversions) uses plain stores: a non-temporal store to the line just
//    loaded would evict it, and the next word's load would fetch it again
//    (each line read up to eight times). The phase ends with mem_flush_cache.
//  - a block copy (mem_copy64, rep movsq) also ends with mem_flush_cache.
//  - a phase that writes around words it must leave alone (modulo-N's
//    passes) uses plain stores and ends with mem_flush_cache: a line with a
//    word left alone must be read either way, and non-temporal stores made
//    it a partial write to DRAM, slower than the read for ownership.
// mem_flush_cache is wbinvd, not a clflush loop over the range: clflush costs
// one instruction per 64-byte line whether the line is cached or not (seconds
// per phase on many GiB), while wbinvd costs what the cache holds (at most its
// size, milliseconds), once per phase.
//
// Several CPUs (memtest.h, mt_sync_fn): every CPU flushes its own caches at
// the end of a phase, not one CPU for all. WBINVD "writes back all modified
// cache lines in the processor's internal cache" and signals external caches
// (Intel SDM vol. 2C, WBINVD); whether one logical processor's WBINVD also
// acts on the lower-level caches of the others that share a cache is a
// property of each cache, CPUID leaf 04H EDX bit 0 (vol. 2A, CPUID: 1 = "not
// guaranteed to act upon lower level caches of non-originating threads
// sharing this cache"), and nothing makes it reach another core's private L1
// and L2, or another package. The SDM's own multiprocessor procedure has
// every processor execute WBINVD itself (vol. 3A, 12.11.8 "MTRR
// Considerations in MP Systems"; 11.11.8 in editions before 2023), as does
// Linux (wbinvd_on_all_cpus). A phase's cached stores sit in the caches of
// the CPU that made them (each CPU writes only its share), so each CPU's own
// WBINVD is both needed and enough; the CPUs run theirs at the same time,
// before the barrier. With sync the test leaves the flush to the callback
// (it runs mem_flush_cache on every CPU when flush is true); alone it calls
// mem_flush_cache itself. The host simulator gives each CPU a cache of its
// own and aborts on a load of a cached store that the CPU which made it has
// not flushed.
#ifndef RAMSIFT_LIB_MEMTEST_MEMACCESS_H
#define RAMSIFT_LIB_MEMTEST_MEMACCESS_H

#include "memrw.h"

#endif
