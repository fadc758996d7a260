// SPDX-License-Identifier: GPL-2.0-or-later
// Entry stubs for the 32 CPU exception vectors. Each pushes a dummy error
// code where the CPU pushes none, then its vector, saves the general
// registers and calls trap_handler(struct trap_frame *) in src/x86/trap.c.
// Which vectors have an error code and the frame's layout come from trap.h;
// every push is checked against the frame offsets there.

#include "trap.h"

	.if TF_ERROR_CODE != TF_VECTOR + 8 || TF_RIP != TF_ERROR_CODE + 8 || \
	    TF_CS != TF_RIP + 8 || TF_RFLAGS != TF_CS + 8 || TF_RSP != TF_RFLAGS + 8 || \
	    TF_SS != TF_RSP + 8 || TF_SIZE != TF_SS + 8
	.error "trap.h: the CPU pushes ss, rsp, rflags, cs, rip, error code; then comes the vector"
	.endif

// Push a register where trap.h says the frame has it: frame_at tracks the
// offset of the stack top within struct trap_frame.
.macro save reg, off
	pushq	%\reg
	.set frame_at, frame_at - 8
	.if frame_at != \off
	.error "trapentry.S: the push of \reg does not match its offset in trap.h"
	.endif
.endm

	.text
	.altmacro
.macro trap_stub v
	.p2align 4
trap_stub_\v:
	.if !((TRAP_ERROR_CODE_VECTORS >> \v) & 1)
	pushq	$0
	.endif
	pushq	$\v
	jmp	trap_common
.endm

	.set i, 0
	.rept TRAP_NVECTORS
	trap_stub %i
	.set i, i + 1
	.endr

trap_common:
	.set frame_at, TF_VECTOR		// the stub's vector is on top
	save	rax, TF_RAX
	save	rbx, TF_RBX
	save	rcx, TF_RCX
	save	rdx, TF_RDX
	save	rsi, TF_RSI
	save	rdi, TF_RDI
	save	rbp, TF_RBP
	save	r8, TF_R8
	save	r9, TF_R9
	save	r10, TF_R10
	save	r11, TF_R11
	save	r12, TF_R12
	save	r13, TF_R13
	save	r14, TF_R14
	save	r15, TF_R15
	.if frame_at != 0
	.error "trapentry.S: the frame does not start at the last push"
	.endif
	mov	%rsp, %rdi
	and	$-16, %rsp
	cld
	call	trap_handler
1:	cli
	hlt
	jmp	1b

// The wake-up interrupt (TRAP_WAKE_VECTOR): an AP halted with interrupts on
// continues after its hlt. Saves what the C call may change; the CPU's
// frame (5 words) and these 9 leave RSP 16-byte aligned for the call.
	.globl trap_wake_stub
trap_wake_stub:
	pushq	%rax
	pushq	%rcx
	pushq	%rdx
	pushq	%rsi
	pushq	%rdi
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	cld
	call	trap_wake
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rdi
	popq	%rsi
	popq	%rdx
	popq	%rcx
	popq	%rax
	iretq

// The local APIC's spurious interrupt: nothing to acknowledge (SDM vol. 3A,
// 11.9).
	.globl trap_spurious_stub
trap_spurious_stub:
	iretq

.macro trap_stub_addr v
	.quad trap_stub_\v
.endm

	.section .rodata
	.p2align 3
	.globl trap_stubs
trap_stubs:
	.set i, 0
	.rept TRAP_NVECTORS
	trap_stub_addr %i
	.set i, i + 1
	.endr
