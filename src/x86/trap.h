// SPDX-License-Identifier: GPL-2.0-or-later
// CPU exceptions: an IDT from the start, so any fault reports and ends the
// run as ABORTED instead of rebooting silently. The numbers above the C part
// are shared with src/x86/trapentry.S, which includes this header with
// __ASSEMBLY__: their one definition.
#ifndef RAMSIFT_SRC_X86_TRAP_H
#define RAMSIFT_SRC_X86_TRAP_H

// The exception vectors, 0..31 (SDM vol. 3, 6.3.1), each with its stub.
#define TRAP_NVECTORS	32

// The two interrupts an AP takes, only while it waits with interrupts on
// (src/smp.c): a wake-up (an IPI from another CPU, or its local APIC timer's
// tick), and the local APIC's spurious interrupt (SDM vol. 3A, 11.9). Every
// other vector is absent from the IDT: one would end the run as #NP.
#define TRAP_WAKE_VECTOR	0x20
#define TRAP_SPURIOUS_VECTOR	0xff
#define TRAP_IDT_ENTRIES	256

// The vectors whose exception pushes an error code (SDM vol. 3, table 6-1;
// AMD APM vol. 2, 8.2): #DF 8, #TS 10, #NP 11, #SS 12, #GP 13, #PF 14, #AC 17,
// #CP 21, #VC 29, #SX 30, as a bit mask. The stubs push a 0 for the others.
#define TRAP_ERROR_CODE_VECTORS \
	((1 << 8) | (0x1f << 10) | (1 << 17) | (1 << 21) | (1 << 29) | (1 << 30))

// Byte offsets in struct trap_frame: the order trapentry.S saves in (it
// checks each push against them) and the struct (checked below).
#define TF_R15		0
#define TF_R14		8
#define TF_R13		16
#define TF_R12		24
#define TF_R11		32
#define TF_R10		40
#define TF_R9		48
#define TF_R8		56
#define TF_RBP		64
#define TF_RDI		72
#define TF_RSI		80
#define TF_RDX		88
#define TF_RCX		96
#define TF_RBX		104
#define TF_RAX		112
#define TF_VECTOR	120	// pushed by the stub
#define TF_ERROR_CODE	128	// by the CPU, or a 0 by the stub
#define TF_RIP		136	// from here on pushed by the CPU
#define TF_CS		144
#define TF_RFLAGS	152
#define TF_RSP		160
#define TF_SS		168
#define TF_SIZE		176

#ifndef __ASSEMBLY__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// Saved by src/x86/trapentry.S, lowest address first.
struct trap_frame {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error_code;
	uint64_t rip, cs, rflags, rsp, ss;	// pushed by the CPU
};

#define TF_CHECK(field, off) \
	_Static_assert(offsetof(struct trap_frame, field) == (off), "trap_frame." #field " is at " #off)
TF_CHECK(r15, TF_R15);
TF_CHECK(r14, TF_R14);
TF_CHECK(r13, TF_R13);
TF_CHECK(r12, TF_R12);
TF_CHECK(r11, TF_R11);
TF_CHECK(r10, TF_R10);
TF_CHECK(r9, TF_R9);
TF_CHECK(r8, TF_R8);
TF_CHECK(rbp, TF_RBP);
TF_CHECK(rdi, TF_RDI);
TF_CHECK(rsi, TF_RSI);
TF_CHECK(rdx, TF_RDX);
TF_CHECK(rcx, TF_RCX);
TF_CHECK(rbx, TF_RBX);
TF_CHECK(rax, TF_RAX);
TF_CHECK(vector, TF_VECTOR);
TF_CHECK(error_code, TF_ERROR_CODE);
TF_CHECK(rip, TF_RIP);
TF_CHECK(cs, TF_CS);
TF_CHECK(rflags, TF_RFLAGS);
TF_CHECK(rsp, TF_RSP);
TF_CHECK(ss, TF_SS);
#undef TF_CHECK
_Static_assert(sizeof(struct trap_frame) == TF_SIZE, "trap_frame is TF_SIZE bytes");

// Build the IDT and load it on this CPU (the BSP). Double fault, NMI and
// machine check run on the CPU's IST1 stack (see cpu.h).
void trap_init(void);

// Load the IDT trap_init built on this CPU (an AP).
void trap_load(void);

// Called from trapentry.S's wake-up stub with interrupts off: acknowledges
// the interrupt (the local APIC's EOI) and returns, so the halted CPU goes
// on after its hlt.
void trap_wake(void);

// A call into code ramsift does not trust (the firmware's runtime
// services): an exception in it returns from trap_catch_call with the
// fault recorded, instead of ending the run. The registers the SysV ABI
// keeps across a call, saved at the entry, are restored at the return.
struct trap_catch {
	uint64_t rbx, rbp, r12, r13, r14, r15, rsp, rip;	// offsets 0-56: catch.S's
	bool faulted;
	uint64_t vector, error_code, fault_rip, cr2;
};

// Call the Microsoft-ABI function fn(a[0], ..., a[4]) on the stack ending
// at stack_top (16-byte aligned, mapped), with exceptions caught in c:
// returns fn's value, or 0 with c->faulted set and the fault in c. NMIs
// and machine checks are not caught. On this CPU only, interrupts off.
uint64_t trap_catch_call(struct trap_catch *c, uint64_t fn, uint64_t stack_top, const uint64_t a[5]);
_Static_assert(offsetof(struct trap_catch, rip) == 56, "catch.S saves eight registers first");

// A function that executes ud2, and one that returns EFI_DEVICE_ERROR:
// what the test hooks nvram-* call in place of the firmware's functions.
void trap_test_ud2(void);
uint64_t trap_test_device_error(void);

// The name of exception vector v (0..31), e.g. "#PF page fault".
const char *trap_vector_name(uint64_t v);

// Called from trapentry.S with interrupts off; prints the fault through the
// panic path (src/panic.h: no lock, so also when the CPU was interrupted
// inside the console lock) and ends the run as ABORTED. Never returns.
_Noreturn void trap_handler(struct trap_frame *f);

#endif /* !__ASSEMBLY__ */

#endif
