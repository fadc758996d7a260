// SPDX-License-Identifier: GPL-2.0-or-later
// The AP start-up code, never run where it is linked: src/x86/smpboot.c
// copies it below 640 KiB and fills in its data block (ap_data, offsets in
// src/x86/layout.h). An AP woken by INIT and STARTUP enters it in real mode
// at the copy's first byte, interrupts off, no stack, caches disabled (SDM
// vol. 3A, table 10-1), and goes straight to long mode on the copy of the
// BSP's PML4 (below 4 GiB), taking the BSP's PAT first (src/x86/paging.c).
// It then loads the BSP's real tables, takes the slot if it is free and
// names this CPU's APIC ID (else it halts: a late starter the BSP gave up
// on), and calls ap_entry(struct cpu *) on the slot's stack. Position
// independent: the 16-bit part addresses its data through DS = CS, the
// 64-bit part RIP-relative; smpboot.c writes the GDT's base and the far
// jump's target.

#include "x86/layout.h"

#define CR0_PE		(1 << 0)
#define CR0_ET		(1 << 4)
#define CR0_NE		(1 << 5)
#define CR0_WP		(1 << 16)
#define CR0_PG		(1 << 31)
#define CR4_PAE		(1 << 5)
#define MSR_EFER	0xc0000080
#define EFER_LME	(1 << 8)
#define MSR_IA32_PAT	0x277

// An offset from the start of the copy, as DS = CS addresses it.
#define OFF(label)	((label) - ap_trampoline)

	.section .rodata.ap, "a"
	.p2align 4
	.globl ap_trampoline
ap_trampoline:
	.code16
	cli
	cld
	mov	%cs, %ax
	mov	%ax, %ds
	lgdtl	OFF(ap_data + AP_DATA_GDTR)
	// The BSP's PAT, before paging uses it (none if the CPU has no PAT).
	movl	OFF(ap_data + AP_DATA_PAT), %eax
	movl	OFF(ap_data + AP_DATA_PAT + 4), %edx
	mov	%eax, %ecx
	or	%edx, %ecx
	jz	1f
	mov	$MSR_IA32_PAT, %ecx
	wrmsr
1:	mov	$CR4_PAE, %eax
	mov	%eax, %cr4
	movl	OFF(ap_data + AP_DATA_PML4), %eax
	mov	%eax, %cr3
	mov	$MSR_EFER, %ecx
	rdmsr
	or	$EFER_LME, %eax
	wrmsr
	// Caches on (CD and NW clear), write protection as on the BSP.
	mov	$CR0_PG + CR0_WP + CR0_NE + CR0_ET + CR0_PE, %eax
	mov	%eax, %cr0
	ljmpl	*OFF(ap_data + AP_DATA_FAR)

	.code64
	.globl ap_long
ap_long:
	mov	$SEL_DATA, %eax
	mov	%eax, %ds
	mov	%eax, %es
	mov	%eax, %ss
	xor	%eax, %eax
	mov	%eax, %fs
	mov	%eax, %gs
	mov	ap_data + AP_DATA_CR3(%rip), %rax
	mov	%rax, %cr3

	// Whose slot? CPUID gives this CPU's initial APIC ID: leaf 0BH the
	// 32-bit x2APIC ID, leaf 1 the 8-bit xAPIC ID (SDM vol. 3A, 11.4.6
	// and 11.12.8).
	cmpl	$0, ap_data + AP_DATA_X2APIC(%rip)
	je	3f
	mov	$0xb, %eax
	xor	%ecx, %ecx
	cpuid
	mov	%edx, %eax
	jmp	2f
3:	mov	$1, %eax
	cpuid
	mov	%ebx, %eax
	shr	$24, %eax
2:	cmp	ap_data + AP_DATA_APIC_ID(%rip), %eax
	jne	ap_stop
	xor	%eax, %eax
	mov	$1, %edx
	lock cmpxchg %edx, ap_data + AP_DATA_TAKEN(%rip)
	jne	ap_stop

	mov	ap_data + AP_DATA_STACK(%rip), %rsp
	mov	ap_data + AP_DATA_CPU(%rip), %rdi
	mov	ap_data + AP_DATA_ENTRY(%rip), %rax
	xor	%ebp, %ebp			// end of the frame-pointer chain
	push	$0				// as if called: ap_entry never returns
	jmp	*%rax

ap_stop:
	cli
	hlt
	jmp	ap_stop

	// Each descriptor at its selector's offset, as in boot/entry.S.
	.p2align 3
	.globl ap_gdt
ap_gdt:
	.quad	0
	.org	ap_gdt + SEL_CODE
	.quad	GDT_CODE64
	.org	ap_gdt + SEL_DATA
	.quad	GDT_DATA
ap_gdt_end:

	.p2align 3
	.globl ap_data
ap_data:
	.org	ap_data + AP_DATA_GDTR
	.short	ap_gdt_end - ap_gdt - 1
	.long	0				// base: the copy's ap_gdt
	.org	ap_data + AP_DATA_FAR
	.long	0				// the copy's ap_long
	.short	SEL_CODE
	.org	ap_data + AP_DATA_SIZE
	.globl ap_trampoline_end
ap_trampoline_end:
