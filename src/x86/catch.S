// SPDX-License-Identifier: GPL-2.0-or-later
// trap_catch_enter and trap_catch_resume (trap.h's trap_catch_call): a
// Microsoft-ABI call on another stack that an exception can leave, as a
// setjmp and longjmp would. struct trap_catch's first eight words are the
// registers saved here, in this order.

#define K_RBX	0
#define K_RBP	8
#define K_R12	16
#define K_R13	24
#define K_R14	32
#define K_R15	40
#define K_RSP	48
#define K_RIP	56

	.text
	.code64

// uint64_t trap_catch_enter(struct trap_catch *c %rdi, uint64_t fn %rsi,
//                           uint64_t stack_top %rdx, const uint64_t a[5] %rcx)
	.globl trap_catch_enter
trap_catch_enter:
	mov	%rbx, K_RBX(%rdi)
	mov	%rbp, K_RBP(%rdi)
	mov	%r12, K_R12(%rdi)
	mov	%r13, K_R13(%rdi)
	mov	%r14, K_R14(%rdi)
	mov	%r15, K_R15(%rdi)
	mov	(%rsp), %rax
	mov	%rax, K_RIP(%rdi)
	lea	8(%rsp), %rax			// as after our return
	mov	%rax, K_RSP(%rdi)
	mov	%rdi, %rbx			// kept by the callee (both ABIs)
	mov	%rsi, %rax
	mov	%rcx, %r10
	// The callee's frame: 32 bytes of home space for its four register
	// arguments, the fifth above them, 16-byte aligned at the call.
	lea	-48(%rdx), %rsp
	mov	32(%r10), %r11
	mov	%r11, 32(%rsp)
	mov	0(%r10), %rcx
	mov	8(%r10), %rdx
	mov	16(%r10), %r8
	mov	24(%r10), %r9
	cld
	call	*%rax
	mov	%rbx, %rdi
	jmp	restore

// _Noreturn void trap_catch_resume(struct trap_catch *k %rdi): from the
// exception handler, back to trap_catch_enter's caller, returning 0.
	.globl trap_catch_resume
trap_catch_resume:
	xor	%eax, %eax
// The saved registers back from %rdi's catch, then its return address.
restore:
	mov	K_RBX(%rdi), %rbx
	mov	K_RBP(%rdi), %rbp
	mov	K_R12(%rdi), %r12
	mov	K_R13(%rdi), %r13
	mov	K_R14(%rdi), %r14
	mov	K_R15(%rdi), %r15
	mov	K_RSP(%rdi), %rsp
	jmp	*K_RIP(%rdi)

// The test hooks nvram-fault and nvram-get-fault call this in place of
// the firmware's SetVariable or GetVariable: an invalid opcode inside a
// caught call.
	.globl trap_test_ud2
trap_test_ud2:
	ud2

// The test hooks nvram-query-error and nvram-set-error call this in place
// of the firmware's QueryVariableInfo or SetVariable: EFI_DEVICE_ERROR.
	.globl trap_test_device_error
trap_test_device_error:
	movabs	$0x8000000000000007, %rax
	ret
