// SPDX-License-Identifier: GPL-2.0-or-later
// IDT set-up and the exception report.
#include "apic.h"
#include "cpu.h"
#include "io.h"
#include "log.h"
#include "panic.h"
#include "trap.h"

#define IDT_INTERRUPT_GATE 0x8e
#define VEC_NMI		2
#define VEC_DOUBLE	8
#define VEC_MACHINE	18

struct idt_gate {
	uint16_t off_lo, sel;
	uint8_t ist, type;
	uint16_t off_mid;
	uint32_t off_hi, reserved;
} __attribute__((packed));
_Static_assert(sizeof(struct idt_gate) == 16, "64-bit IDT gate is 16 bytes (SDM vol. 3, 6.14.1)");

extern const uint64_t trap_stubs[TRAP_NVECTORS];
extern const char trap_wake_stub[], trap_spurious_stub[];
static struct idt_gate idt[TRAP_IDT_ENTRIES];

static const char *const exception_names[TRAP_NVECTORS] = {
	"#DE divide error", "#DB debug", "NMI", "#BP breakpoint", "#OF overflow",
	"#BR bound range", "#UD invalid opcode", "#NM device not available",
	"#DF double fault", "coprocessor segment overrun", "#TS invalid TSS",
	"#NP segment not present", "#SS stack fault", "#GP general protection",
	"#PF page fault", "reserved 15", "#MF x87 error", "#AC alignment check",
	"#MC machine check", "#XM SIMD error", "#VE virtualization",
	"#CP control protection", "reserved 22", "reserved 23", "reserved 24",
	"reserved 25", "reserved 26", "reserved 27", "#HV hypervisor injection",
	"#VC VMM communication", "#SX security", "reserved 31",
};

const char *trap_vector_name(uint64_t v)
{
	return exception_names[v & 31];
}

static struct idt_gate gate(uint64_t a, uint8_t ist)
{
	return (struct idt_gate){
		.off_lo = a & 0xffff,
		.sel = SEL_CODE,
		.ist = ist,
		.type = IDT_INTERRUPT_GATE,
		.off_mid = (a >> 16) & 0xffff,
		.off_hi = a >> 32,
	};
}

void trap_init(void)
{
	for (int v = 0; v < TRAP_NVECTORS; v++)
		idt[v] = gate(trap_stubs[v], (v == VEC_NMI || v == VEC_DOUBLE || v == VEC_MACHINE) ? 1 : 0);
	idt[TRAP_WAKE_VECTOR] = gate((uint64_t)(uintptr_t)trap_wake_stub, 0);
	idt[TRAP_SPURIOUS_VECTOR] = gate((uint64_t)(uintptr_t)trap_spurious_stub, 0);
	trap_load();
}

void trap_wake(void)
{
	apic_eoi();
}

void trap_load(void)
{
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) desc = { sizeof(idt) - 1, (uint64_t)(uintptr_t)idt };
	__asm__ volatile("lidt %0" : : "m"(desc));
}

// catch.S: back to trap_catch_call's caller with k's registers.
_Noreturn void trap_catch_resume(struct trap_catch *k);
uint64_t trap_catch_enter(struct trap_catch *c, uint64_t fn, uint64_t stack_top, const uint64_t a[5]);

uint64_t trap_catch_call(struct trap_catch *c, uint64_t fn, uint64_t stack_top, const uint64_t a[5])
{
	struct cpu *cpu = this_cpu();
	uint64_t r;

	c->faulted = false;
	cpu->catch = c;
	r = trap_catch_enter(c, fn, stack_top, a);
	cpu->catch = NULL;
	return c->faulted ? 0 : r;
}

// An NMI or a machine check is not the callee's fault, and leaving the
// handler without iretq would keep NMIs blocked.
static void catch_fault(struct cpu *c, const struct trap_frame *f)
{
	struct trap_catch *k = c->catch;

	if (!k || f->vector == VEC_NMI || f->vector == VEC_MACHINE)
		return;
	c->catch = NULL;
	k->faulted = true;
	k->vector = f->vector;
	k->error_code = f->error_code;
	k->fault_rip = f->rip;
	k->cr2 = read_cr2();
	trap_catch_resume(k);
}

_Noreturn void trap_handler(struct trap_frame *f)
{
	struct cpu *c = this_cpu();

	catch_fault(c, f);
	const char *test = c->test ? c->test : "none";

	// This CPU may have been inside console_write() holding the console
	// lock (an NMI or machine check can come anywhere): report without it.
	panic_begin();
	log_error("CPU exception %llu (%s) error_code=0x%llx rip=0x%016llx cr2=0x%016llx "
		  "rsp=0x%016llx cpu=%u test=%s",
		  (unsigned long long)f->vector, exception_names[f->vector & 31],
		  (unsigned long long)f->error_code, (unsigned long long)f->rip,
		  (unsigned long long)read_cr2(), (unsigned long long)f->rsp, c->id, test);
	panic_exception(f->vector == VEC_MACHINE ? PANIC_MACHINE_CHECK :
			f->vector == VEC_NMI ? PANIC_NMI : PANIC_FAULT, c->id);
}
