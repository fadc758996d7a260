// SPDX-License-Identifier: GPL-2.0-or-later
// Entry stubs for the 32 CPU exception vectors. Each pushes a dummy error
// code where the CPU pushes none, then its vector, saves the general
// registers and calls trap_handler(struct trap_frame *) in src/x86/trap.c.


	.text
	.altmacro
.macro trap_stub v
	.p2align 4
trap_stub_\v:
	.if !((\v == 8) || ((\v >= 10) && (\v <= 14)) || (\v == 17) || (\v == 21) || (\v == 29) || (\v == 30))
	pushq	$0
	.endif
	pushq	$\v
	jmp	trap_common
.endm

	.set i, 0
	.rept 32
	trap_stub %i
	.set i, i + 1
	.endr

trap_common:
	pushq	%rax
	pushq	%rbx
	pushq	%rcx
	pushq	%rdx
	pushq	%rsi
	pushq	%rdi
	pushq	%rbp
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	mov	%rsp, %rdi
	and	$-16, %rsp
	cld
	call	trap_handler
1:	cli
	hlt
	jmp	1b

.macro trap_stub_addr v
	.quad trap_stub_\v
.endm

	.section .rodata
	.p2align 3
	.globl trap_stubs
trap_stubs:
	.set i, 0
	.rept 32
	trap_stub_addr %i
	.set i, i + 1
	.endr
