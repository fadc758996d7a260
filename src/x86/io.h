// SPDX-License-Identifier: GPL-2.0-or-later
// Port I/O, MSRs, CPUID and control registers: the few things C cannot say.
#ifndef RAMSIFT_SRC_X86_IO_H
#define RAMSIFT_SRC_X86_IO_H

#include <stdint.h>

static inline void outb(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint8_t inb(uint16_t port)
{
	uint8_t v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void outl(uint16_t port, uint32_t v)
{
	__asm__ volatile("outl %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint32_t inl(uint16_t port)
{
	uint32_t v;
	__asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t)hi << 32) | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ volatile("wrmsr" : : "c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)));
}

static inline void cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	__asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(sub));
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t read_cr2(void)
{
	uint64_t v;
	__asm__ volatile("mov %%cr2, %0" : "=r"(v));
	return v;
}

static inline uint64_t read_cr3(void)
{
	uint64_t v;
	__asm__ volatile("mov %%cr3, %0" : "=r"(v));
	return v;
}

static inline void write_cr3(uint64_t v)
{
	__asm__ volatile("mov %0, %%cr3" : : "r"(v) : "memory");
}

// Write back and invalidate this CPU's caches and signal the shared ones
// (SDM vol. 2C, WBINVD); another core's private caches it does not reach
// (see src/smp.c).
static inline void wbinvd(void)
{
	__asm__ volatile("wbinvd" ::: "memory");
}

// Order every earlier load and store before every later one (and before a
// WRMSR to the x2APIC, which is not serializing).
static inline void mfence(void)
{
	__asm__ volatile("mfence" ::: "memory");
}

static inline void cpu_relax(void)
{
	__asm__ volatile("pause");
}

// Halt with interrupts on until one comes, then turn them off again. STI
// holds interrupts off for one more instruction (SDM vol. 2B, STI), so
// "sti; hlt" is one step: an interrupt that became pending after the caller
// last looked, with interrupts off, ends this hlt rather than being missed.
static inline void cpu_wait_interrupt(void)
{
	__asm__ volatile("sti; hlt; cli" ::: "memory");
}

static inline _Noreturn void cpu_halt_forever(void)
{
	for (;;)
		__asm__ volatile("cli; hlt");
}

#endif
