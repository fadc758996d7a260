// SPDX-License-Identifier: GPL-2.0-or-later
// Row hammering: clflush after each read so that the next read misses the
// caches, mfence so that the reads are not overlapped (Kim et al. 2014's
// loop; google/rowhammer-test's shape).
#include "hammer_loop.h"
#include "io.h"
#include "memrw.h"

static inline void clflush(uint64_t addr)
{
	__asm__ volatile("clflush (%0)" : : "r"((uintptr_t)addr) : "memory");
}

void x86_hammer_fill(void *ctx, uint64_t start, uint64_t end, uint64_t value)
{
	(void)ctx;
	// end - 8 cannot wrap: end > start >= 0, both 8-byte aligned.
	for (uint64_t a = start; a < end; a += 8)
		mem_write64_nt(a, value);
	mem_store_fence();
}

uint64_t x86_hammer_read(void *ctx, uint64_t addr)
{
	(void)ctx;
	clflush(addr);
	mfence();
	return mem_read64(addr);
}

uint64_t x86_hammer_activate(void *ctx, const uint64_t *aggr, unsigned naggr, uint32_t count,
			     uint64_t hold_ticks)
{
	(void)ctx;
	uint64_t start = rdtsc();

	for (uint32_t i = 0; i < count; i++) {
		for (unsigned k = 0; k < naggr; k++) {
			(void)*(volatile const uint64_t *)(uintptr_t)aggr[k];
			clflush(aggr[k]);
		}
		mfence();
	}
	uint64_t took = rdtsc() - start;
	while (rdtsc() - start < hold_ticks)
		cpu_relax();
	return took;
}
