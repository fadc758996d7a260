// SPDX-License-Identifier: GPL-2.0-or-later
// The image's implementation of lib/memtest/memaccess.h (the contract and the
// four rules of cache discipline are there). Addresses are physical: the
// image identity-maps all physical memory (boot/), so a physical address is
// also the pointer.
#ifndef RAMSIFT_SRC_X86_MEMRW_H
#define RAMSIFT_SRC_X86_MEMRW_H

#include <stdint.h>

// Load the 64-bit word at physical address addr (8-byte aligned).
static inline uint64_t mem_read64(uint64_t addr)
{
	return *(const volatile uint64_t *)(uintptr_t)addr;
}

// Store value to the 64-bit word at physical address addr (8-byte aligned)
// through the cache. Call mem_flush_cache before the phase that reads it.
static inline void mem_write64(uint64_t addr, uint64_t value)
{
	*(volatile uint64_t *)(uintptr_t)addr = value;
}

// Store value to the 64-bit word at physical address addr (8-byte aligned)
// with a non-temporal hint (movnti): the line is evicted from the caches and
// the data goes to memory. Call mem_store_fence before reading it back.
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

// Hint that the 64-byte line holding addr will be read soon (prefetcht0).
// Only a hint: it never faults, whatever addr is (an address past the end
// of the memory under test, or wrapped at the top of the address space, is
// harmless), is ignored for uncacheable memory, and changes no data. The
// sweeps issue it a fixed distance ahead, where the hardware prefetchers
// alone leave the read bandwidth short (bench/: 15 % and more).
static inline void mem_prefetch(uint64_t addr)
{
	__builtin_prefetch((const void *)(uintptr_t)addr);
}

// Write back and invalidate every cache line of this CPU and the shared
// caches (wbinvd), so the next load of any word is served by DRAM.
// Requires ring 0. Slow (up to milliseconds): once per phase, never per word.
// The host bandwidth benchmark (bench/hostbw.c) compiles the tests with
// MEMRW_USER_SPACE, in which wbinvd would fault: there nothing needs the
// flush (no fault is injected), and over a buffer many times the cache's
// size the dirty lines are written back during the phase itself, so the time
// still includes that traffic but for the last cache-full.
static inline void mem_flush_cache(void)
{
#ifdef MEMRW_USER_SPACE
	__asm__ volatile("" ::: "memory");
#else
	__asm__ volatile("wbinvd" ::: "memory");
#endif
}

// Copy nwords 64-bit words from physical address src to physical address dst
// (both 8-byte aligned, regions not overlapping), ascending, with rep movsq:
// the long bursts of a string move, as block-move wants. Cached stores: call
// mem_flush_cache before reading dst back. The direction flag is clear, as
// the SysV ABI guarantees at every call.
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
