// SPDX-License-Identifier: GPL-2.0-or-later
// The AP start-up code. Never run where it is linked: src/x86/smpboot.c
// copies it to a page below 640 KiB and fills in its data block (ap_data,
// offsets in src/x86/layout.h). An application processor woken by INIT and
// STARTUP IPIs enters it in real mode at CS:IP = VV00:0000, the copy's first
// byte, with interrupts off, no stack and caching disabled (SDM vol. 3A,
// table 10-1). It goes from real mode straight to long mode, takes the BSP's
// PAT first (so every CPU maps the framebuffer with one memory type), checks
// that the slot in ap_data names its APIC ID and takes it, and calls
// ap_entry(struct cpu *) on the slot's stack; a CPU that finds the slot
// another's or taken halts (a late starter the BSP gave up on). Position
// independent: DS = CS in 16-bit code, RIP-relative in 64-bit; smpboot.c
// writes the GDT's base and the far jump's target.

#include "long_mode.h"
#include "x86/layout.h"

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
	load_data_segments
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

	.p2align 3
	.globl ap_gdt
	flat_gdt ap_gdt

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
