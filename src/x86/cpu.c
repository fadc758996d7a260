// SPDX-License-Identifier: GPL-2.0-or-later
// GDT, TSS and GS base for each CPU (SDM vol. 3, chapters 3 and 8).
#include "cpu.h"
#include "io.h"
#include "layout.h"

#define MSR_GS_BASE	0xc0000101
#define TSS_TYPE_AVAIL	0x89ULL

_Static_assert(SEL_TSS / 8 + 2 <= sizeof(((struct cpu *)0)->gdt) / 8, "the GDT holds the TSS's two slots");

// The BSP's; the APs' are in run-time memory sized by the CPUs found
// (src/smp.c), as 512 of these would not fit the kernel window.
static struct cpu bsp;

static void cpu_load(struct cpu *c)
{
	uint64_t tss = (uint64_t)(uintptr_t)&c->tss;
	uint64_t limit = sizeof(c->tss) - 1;

	c->self = c;
	c->tss.ist[0] = (uint64_t)(uintptr_t)(c->ist_stack + IST_STACK_SIZE);
	c->tss.iomap_base = sizeof(c->tss);
	c->gdt[0] = 0;
	c->gdt[SEL_CODE / 8] = GDT_CODE64;
	c->gdt[SEL_DATA / 8] = GDT_DATA;
	c->gdt[SEL_TSS / 8] = (limit & 0xffff) | ((tss & 0xffffff) << 16) | (TSS_TYPE_AVAIL << 40) |
			      ((limit >> 16 & 0xf) << 48) | ((tss >> 24 & 0xff) << 56);
	c->gdt[SEL_TSS / 8 + 1] = tss >> 32;

	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) desc = { sizeof(c->gdt) - 1, (uint64_t)(uintptr_t)c->gdt };

	__asm__ volatile(
		"lgdt %0\n\t"
		"pushq %1\n\t"
		"leaq 1f(%%rip), %%rax\n\t"
		"pushq %%rax\n\t"
		"lretq\n"
		"1:\n\t"
		"mov %2, %%ds\n\t"
		"mov %2, %%es\n\t"
		"mov %2, %%ss\n\t"
		"ltr %w3"
		: : "m"(desc), "i"(SEL_CODE), "r"(SEL_DATA), "r"(SEL_TSS) : "rax", "memory");
	wrmsr(MSR_GS_BASE, (uint64_t)(uintptr_t)c);
}

void cpu_init_bsp(void)
{
	bsp.id = 0;
	cpu_load(&bsp);
}

void cpu_init_ap(struct cpu *c)
{
	cpu_load(c);
}

bool cpu_has_1g_pages(void)
{
	uint32_t r[4];
	cpuid(0x80000000, 0, r);
	if (r[0] < 0x80000001)
		return false;
	cpuid(0x80000001, 0, r);
	return r[3] & (1u << 26);
}

// Hypervisors answer leaves 0x40000000-0x400000FF (the SDM reserves them:
// vol. 2A, CPUID, "invalid" for the CPU itself); EAX is the highest.
bool cpu_hypervisor(char sig[HYPERVISOR_SIGNATURE_LEN])
{
	uint32_t r[4];

	cpuid(1, 0, r);
	if (!(r[2] & (1u << 31)))
		return false;
	cpuid(0x40000000, 0, r);
	if (r[0] < 0x40000000 || r[0] > 0x400000ff)
		r[1] = r[2] = r[3] = 0;
	hypervisor_signature(r[1], r[2], r[3], sig);
	return true;
}
