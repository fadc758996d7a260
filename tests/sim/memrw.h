// SPDX-License-Identifier: GPL-2.0-or-later
// Word access to the memory under test, for the host build of lib/: the same
// functions as src/x86/memrw.h, mapped onto the simulated faulty memory of
// tests/sim/simmem.c. The host build puts tests/sim first on the include path,
// so the very same test source runs against injected faults. Each access is a
// direct call (never a function pointer) into the simulator, which applies the
// one injected fault and checks the cache discipline src/x86/memrw.h describes:
// a load of a word stored through the cache (mem_write64, mem_copy64) and not
// flushed since (mem_flush_cache) by the CPU that stored it aborts the
// program, because on hardware a cache would have served it and hidden a
// fault. With several simulated CPUs (tests/sim/par.c) each has its cache.
#ifndef RAMSIFT_TESTS_SIM_MEMRW_H
#define RAMSIFT_TESTS_SIM_MEMRW_H

#include <stdbool.h>
#include <stdint.h>

// The simulator's access entry points (tests/sim/simmem.c). addr is a
// physical address inside the simulated window, 8-byte aligned; anything else
// aborts the program with a message.
uint64_t sim_read(uint64_t addr);
void sim_write(uint64_t addr, uint64_t value, bool cached);
void sim_flush_cache(void);

static inline uint64_t mem_read64(uint64_t addr)
{
	return sim_read(addr);
}

static inline void mem_write64(uint64_t addr, uint64_t value)
{
	sim_write(addr, value, true);
}

static inline void mem_write64_nt(uint64_t addr, uint64_t value)
{
	sim_write(addr, value, false);
}

// Non-temporal stores reach the simulated cells at once: nothing to drain.
static inline void mem_store_fence(void)
{
}

// A hint without effect on data: the simulator has no cache to fill.
static inline void mem_prefetch(uint64_t addr)
{
	(void)addr;
}

static inline void mem_flush_cache(void)
{
	sim_flush_cache();
}

static inline void mem_copy64(uint64_t dst, uint64_t src, uint64_t nwords)
{
	for (uint64_t i = 0; i < nwords; i++)
		sim_write(dst + 8 * i, sim_read(src + 8 * i), true);
}

#endif
