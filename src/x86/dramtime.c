// SPDX-License-Identifier: GPL-2.0-or-later
// Timing of DRAM accesses: two loads, two clflushes and a fence a round, as
// the DRAMA paper measures row-buffer conflicts (Pessl et al. 2016, sec. 3).
#include "dramtime.h"
#include "io.h"

#define CPUID1_EDX_CLFLUSH (1u << 19)

bool dramtime_available(void)
{
	uint32_t r[4];

	cpuid(1, 0, r);
	return r[3] & CPUID1_EDX_CLFLUSH;
}

static inline void clflush(volatile const void *p)
{
	__asm__ volatile("clflush (%0)" : : "r"(p) : "memory");
}

// rdtsc ordered after every earlier load (lfence: SDM vol. 2B, RDTSC).
static inline uint64_t rdtsc_fenced(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

uint32_t dramtime_pair(uint64_t a, uint64_t b, unsigned rounds)
{
	volatile const uint64_t *pa = (volatile const uint64_t *)(uintptr_t)a;
	volatile const uint64_t *pb = (volatile const uint64_t *)(uintptr_t)b;

	clflush(pa);
	clflush(pb);
	mfence();
	uint64_t start = rdtsc_fenced();
	for (unsigned i = 0; i < rounds; i++) {
		(void)*pa;
		(void)*pb;
		clflush(pa);
		clflush(pb);
		mfence();
	}
	uint64_t ticks = (rdtsc_fenced() - start) / rounds;
	return ticks > UINT32_MAX ? UINT32_MAX : (uint32_t)ticks;
}
