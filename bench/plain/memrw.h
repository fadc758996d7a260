// SPDX-License-Identifier: GPL-2.0-or-later
// Word access to the memory under test for the host bandwidth benchmark
// (bench/hostbw.c): the same functions as lib/hw/memrw.h, as plain user-space
// loads and stores on an ordinary buffer. bench/ puts this directory first on
// the include path when it compiles lib/ for the benchmark, so the timed code
// is the very source the image runs, with the same instructions in the hot
// loops: volatile 64-bit loads and stores, movnti, sfence, rep movsq.
// The one difference: mem_flush_cache is a no-op, because wbinvd is a ring-0
// instruction (it faults in user space). On the host nothing needs the flush
// (no fault is injected, so a read served by the cache reads the right value
// anyway), and over a buffer many times the cache's size the dirty lines a
// read-then-write phase leaves behind are written back during the phase
// itself, so the time measured still includes that traffic; only the last
// cache-full (at most the L3's size, a few MiB per GiB swept) is not paid
// for within the phase.
#ifndef RAMSIFT_BENCH_PLAIN_MEMRW_H
#define RAMSIFT_BENCH_PLAIN_MEMRW_H

#include <stdint.h>

// Load the 64-bit word at addr (a user-space address, 8-byte aligned).
static inline uint64_t mem_read64(uint64_t addr)
{
	return *(const volatile uint64_t *)(uintptr_t)addr;
}

// Store value to the 64-bit word at addr through the cache.
static inline void mem_write64(uint64_t addr, uint64_t value)
{
	*(volatile uint64_t *)(uintptr_t)addr = value;
}

// Store value to the 64-bit word at addr with a non-temporal hint (movnti).
static inline void mem_write64_nt(uint64_t addr, uint64_t value)
{
	__asm__ volatile("movnti %1, %0"
			 : "=m"(*(volatile uint64_t *)(uintptr_t)addr)
			 : "r"(value));
}

// Order and drain the non-temporal stores made so far (sfence).
static inline void mem_store_fence(void)
{
	__asm__ volatile("sfence" ::: "memory");
}

// No-op on the host: wbinvd needs ring 0 (see the top of this file). Still a
// compiler barrier, so no access moves across a phase boundary.
static inline void mem_flush_cache(void)
{
	__asm__ volatile("" ::: "memory");
}

// Copy nwords 64-bit words from src to dst (8-byte aligned, not
// overlapping), ascending, with rep movsq, as the image does.
static inline void mem_copy64(uint64_t dst, uint64_t src, uint64_t nwords)
{
	void *d = (void *)(uintptr_t)dst;
	const void *s = (const void *)(uintptr_t)src;

	__asm__ volatile("rep movsq"
			 : "+D"(d), "+S"(s), "+c"(nwords)
			 :
			 : "memory");
}

#endif
