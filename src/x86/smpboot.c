// SPDX-License-Identifier: GPL-2.0-or-later
// Starting one AP (see smpboot.h). The BSP fills the slot in the start-up
// code's data block (boot/ap.S), sends INIT-SIPI-SIPI, and waits for the AP
// to set c->started; APs start one after the other, so one slot serves all.
// A CPU that took too long is sent INIT again before the slot is reused, and
// the start-up code checks the APIC ID the slot names, so a late starter
// halts rather than run on another CPU's stack.
#include <stddef.h>

#include "apic.h"
#include "cpu.h"
#include "io.h"
#include "smpboot.h"
#include "memstr.h"
#include "timer.h"
#include "trap.h"

// The slot (boot/ap.S's ap_data): its layout is the one layout.h gives.
struct ap_data {
	uint16_t gdt_limit;
	uint32_t gdt_base;
	uint16_t pad0;
	uint32_t far_offset;
	uint16_t far_selector;
	uint16_t pad1;
	uint32_t pml4;
	uint32_t x2apic;
	uint32_t apic_id;
	uint32_t taken;
	uint64_t cr3;
	uint64_t stack;
	uint64_t cpu;
	uint64_t entry;
	uint64_t pat;
} __attribute__((packed));

#define AP_CHECK(field, off) \
	_Static_assert(offsetof(struct ap_data, field) == (off), "ap_data." #field " is at " #off)
AP_CHECK(gdt_limit, AP_DATA_GDTR);
AP_CHECK(far_offset, AP_DATA_FAR);
AP_CHECK(pml4, AP_DATA_PML4);
AP_CHECK(x2apic, AP_DATA_X2APIC);
AP_CHECK(apic_id, AP_DATA_APIC_ID);
AP_CHECK(taken, AP_DATA_TAKEN);
AP_CHECK(cr3, AP_DATA_CR3);
AP_CHECK(stack, AP_DATA_STACK);
AP_CHECK(cpu, AP_DATA_CPU);
AP_CHECK(entry, AP_DATA_ENTRY);
AP_CHECK(pat, AP_DATA_PAT);
#undef AP_CHECK
_Static_assert(sizeof(struct ap_data) == AP_DATA_SIZE, "ap_data is AP_DATA_SIZE bytes");

// The start-up code as linked (in .rodata; it only ever runs as a copy).
extern const char ap_trampoline[], ap_trampoline_end[], ap_gdt[], ap_long[], ap_data[];

#define INIT_DELAY_MS		10	// SDM vol. 3A, 9.4.4.1
#define MSR_IA32_PAT		0x277
#define CPUID1_EDX_PAT		(1u << 16)
#define STARTUP_DELAY_US	200
#define STOP_DELAY_US		1000	// for an INIT to land before the slot changes

static uint64_t base;			// physical address of the copy
static volatile struct ap_data *slot;

static uint32_t offset_of(const char *label)
{
	return (uint32_t)(label - ap_trampoline);
}

_Noreturn void ap_entry(struct cpu *c);

// Entered from boot/ap.S in long mode on the BSP's page tables, interrupts
// off, on the stack smpboot_start() gave this AP, with the struct cpu it
// prepared.
_Noreturn void ap_entry(struct cpu *c)
{
	cpu_init_ap(c);		// GDT, TSS and this_cpu(): before any fault can be reported
	trap_load();
	c->apic_mode = apic_cpu_mode();
	__atomic_store_n(&c->started, 1, __ATOMIC_RELEASE);
	c->main();
	cpu_halt_forever();
}

void smpboot_install(uint64_t phys)
{
	uint64_t pml4 = phys + PAGE_SIZE;

	base = phys;
	mem_copy((void *)(uintptr_t)phys, ap_trampoline, (size_t)(ap_trampoline_end - ap_trampoline));
	mem_copy((void *)(uintptr_t)pml4, (const void *)(uintptr_t)(read_cr3() & ~(PAGE_SIZE - 1)),
		 PAGE_SIZE);
	slot = (volatile struct ap_data *)(uintptr_t)(phys + offset_of(ap_data));
	slot->gdt_base = (uint32_t)(phys + offset_of(ap_gdt));
	slot->far_offset = (uint32_t)(phys + offset_of(ap_long));
	slot->pml4 = (uint32_t)pml4;
	slot->x2apic = apic_mode() == APIC_X2APIC;
	slot->cr3 = read_cr3();
	slot->entry = (uint64_t)(uintptr_t)ap_entry;
	// Every CPU gets the BSP's PAT before it loads these tables.
	uint32_t r[4];
	cpuid(1, 0, r);
	slot->pat = r[3] & CPUID1_EDX_PAT ? rdmsr(MSR_IA32_PAT) : 0;
}

// Whether INIT may be followed at once by STARTUP: the CPUs Linux spares the
// 10 ms (arch/x86/kernel/smpboot.c, smp_quirk_init_udelay).
static bool init_needs_delay(void)
{
	uint32_t r[4];

	cpuid(0, 0, r);
	bool intel = r[1] == 0x756e6547 && r[3] == 0x49656e69 && r[2] == 0x6c65746e;	// GenuineIntel
	bool amd = r[1] == 0x68747541 && r[3] == 0x69746e65 && r[2] == 0x444d4163;	// AuthenticAMD
	cpuid(1, 0, r);
	uint32_t family = (r[0] >> 8) & 0xf;
	if (family == 0xf)
		family += (r[0] >> 20) & 0xff;
	return !((intel && family >= 6) || (amd && family >= 0xf));
}

static bool started(const struct cpu *c)
{
	return __atomic_load_n(&c->started, __ATOMIC_ACQUIRE);
}

bool smpboot_start(struct cpu *c, uint64_t stack_top, void (*main)(void), uint32_t timeout_ms)
{
	uint32_t page = (uint32_t)(base >> PAGE_SHIFT);

	c->main = main;
	c->started = 0;
	slot->apic_id = c->apic_id;
	slot->stack = stack_top;
	slot->cpu = (uint64_t)(uintptr_t)c;
	slot->taken = 0;

	bool sent = apic_send_init(c->apic_id);
	if (sent && init_needs_delay())
		timer_delay_ms(INIT_DELAY_MS);
	for (int i = 0; sent && i < 2 && !slot->taken; i++) {
		sent = apic_send_startup(c->apic_id, page);
		timer_delay_us(STARTUP_DELAY_US);
	}
	uint64_t end = timer_ms() + timeout_ms;
	while (sent && !started(c) && timer_ms() < end)
		cpu_relax();
	if (sent && started(c))
		return true;
	smpboot_stop(c->apic_id);
	return false;
}

void smpboot_stop(uint32_t apic_id)
{
	apic_send_init(apic_id);
	timer_delay_us(STOP_DELAY_US);
}
