// SPDX-License-Identifier: GPL-2.0-or-later
// Per-CPU state, the GDT/TSS of each CPU, and CPU feature queries.
#ifndef RAMSIFT_SRC_X86_CPU_H
#define RAMSIFT_SRC_X86_CPU_H

#include <stdbool.h>
#include <stdint.h>

#include "apic.h"	// enum apic_mode
#include "capacity.h"	// MAX_CPUS
#include "hypervisor.h"	// HYPERVISOR_SIGNATURE_LEN
#include "layout.h"	// the GDT's selectors: SEL_CODE, SEL_DATA, SEL_TSS

#define IST_STACK_SIZE	4096

struct tss {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
} __attribute__((packed));
_Static_assert(sizeof(struct tss) == 104, "TSS layout is fixed by the SDM (vol. 3, 8.7)");

// Everything one CPU owns. Reached through GS (this_cpu()), so code that
// several CPUs run at once never needs a global.
struct cpu {
	struct cpu *self;		// must stay first: this_cpu() reads %gs:0
	unsigned id;			// 0 = the bootstrap processor
	const char *test;		// name of the test running here, or NULL
	uint32_t apic_id;		// its local APIC's ID (x2APIC: 32 bits)
	void *run;			// the run's own per-CPU state (src/smp.c)
	void (*main)(void);		// what an AP runs once started (smpboot.h)
	struct trap_catch *catch;	// set while a firmware call runs (trap.h)
	volatile uint32_t started;	// set by an AP once it runs C on its own GDT
	enum apic_mode apic_mode;	// an AP's local APIC's mode when it started
	uint64_t gdt[7];		// null, code, data, TSS (2 slots), spare
	struct tss tss;
	uint8_t ist_stack[IST_STACK_SIZE] __attribute__((aligned(16)));
};

// Set up the bootstrap processor: its GDT with a TSS whose IST1 stack takes
// double faults, NMIs and machine checks (so a blown stack still reports),
// and GS pointing at its struct cpu (in .bss). Entered once, from kmain().
void cpu_init_bsp(void);

// The same for an application processor, on c (its id, apic_id and run set
// by the caller; c in memory that stays mapped, 16-byte aligned). Called on
// that AP (src/x86/smpboot.c).
void cpu_init_ap(struct cpu *c);

static inline struct cpu *this_cpu(void)
{
	struct cpu *c;
	__asm__ volatile("mov %%gs:0, %0" : "=r"(c));
	return c;
}

// CPUID feature bits ramsift cares about.
bool cpu_has_1g_pages(void);

// Whether CPUID says a hypervisor runs this CPU (CPUID.1:ECX bit 31); then
// *sig gets the 12 bytes of its vendor signature (leaf 0x40000000's EBX,
// ECX, EDX), all NULs when the leaf is not there.
bool cpu_hypervisor(char sig[HYPERVISOR_SIGNATURE_LEN]);

#endif
