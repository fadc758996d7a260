// SPDX-License-Identifier: GPL-2.0-or-later
// CPU exceptions: an IDT from the start, so any fault reports and ends the
// run as ABORTED instead of rebooting silently.
#ifndef RAMSIFT_SRC_X86_TRAP_H
#define RAMSIFT_SRC_X86_TRAP_H

#include <stdint.h>

// Saved by src/x86/trapentry.S, lowest address first.
struct trap_frame {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error_code;
	uint64_t rip, cs, rflags, rsp, ss;	// pushed by the CPU
};

// Install the IDT on this CPU. Double fault, NMI and machine check run on
// the CPU's IST1 stack (see cpu.h).
void trap_init(void);

// Called from trapentry.S with interrupts off; prints the fault through the
// panic path (src/panic.h: no lock, so also when the CPU was interrupted
// inside the console lock) and ends the run as ABORTED. Never returns.
_Noreturn void trap_handler(struct trap_frame *f);

#endif
