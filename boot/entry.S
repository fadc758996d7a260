// SPDX-License-Identifier: GPL-2.0-or-later
// The 32-bit entry: entered from a Multiboot 1 or 2 loader in 32-bit protected
// mode, paging off, interrupts off, EAX = loader magic, EBX = physical address
// of the boot information, no usable stack. It checks the magic and the CPU,
// builds boot page tables, enters long mode and calls kmain() on the BSP stack.
// A CPU ramsift cannot run on, or RAM that does not hold the image, is
// reported first (boot/check32.S) on COM1 and the VGA text screen, because
// past this point either would fault or hang with nothing said. Position
// independent: GRUB's Multiboot 2 loader may place the image at any 4 KiB
// boundary, so every address is the link address plus the load delta in EBP.
// Every number shared with C or the linker script comes from
// src/x86/layout.h and lib/boot/multiboot.h.

#include "boot/multiboot.h"
#include "long_mode.h"
#include "x86/layout.h"

#define BOOT_IDENTITY_PDS (BOOT_IDENTITY_BYTES >> 30)	// one page directory a GiB

	.section .boot.text, "ax"
	.code32
	.globl entry32
entry32:
	cli
	cld
	mov	%eax, %esi			// magic, kept in ESI until C
	call	1f
1:	pop	%ebp
	sub	$1b, %ebp			// EBP = load address - link address
	lea	boot_stack_top(%ebp), %esp
	push	%ebx				// boot information pointer

	cmp	$MB1_BOOT_MAGIC, %esi
	je	2f
	cmp	$MB2_BOOT_MAGIC, %esi
	je	2f
	lea	msg_magic(%ebp), %eax
	jmp	die32
2:
	call	check_cpu
	mov	(%esp), %ebx			// CPUID clobbered EBX
	call	check_image_ram

	// Clear the boot page tables and the kernel's .bss.
	xor	%eax, %eax
	lea	boot_bss_start(%ebp), %edi
	lea	boot_bss_end(%ebp), %ecx
	sub	%edi, %ecx
	shr	$2, %ecx
	rep stosl
	lea	kernel_bss_start_phys(%ebp), %edi
	lea	image_end_phys(%ebp), %ecx
	sub	%edi, %ecx
	shr	$2, %ecx
	rep stosl

	// Boot page tables: the first BOOT_IDENTITY_BYTES (4 GiB) identity
	// mapped with 2 MiB pages (enough for the boot information and the
	// screen; src/x86/paging.c then maps all of RAM), and the
	// KERNEL_WINDOW_BYTES window at KERNEL_VMA mapped with 4 KiB pages onto
	// the image wherever it landed, where all 64-bit code and data live.
	// PML4[0] -> identity PDPT; PML4[511] -> kernel window PDPT.
	lea	pdpt_low + PTE_P + PTE_W(%ebp), %eax
	mov	%eax, pml4(%ebp)
	lea	pdpt_high + PTE_P + PTE_W(%ebp), %eax
	mov	%eax, pml4 + KERNEL_WINDOW_PML4 * 8(%ebp)

	// PDPT_low[0..3] -> the four identity page directories.
	lea	pd_low + PTE_P + PTE_W(%ebp), %eax
	lea	pdpt_low(%ebp), %edi
	mov	$BOOT_IDENTITY_PDS, %ecx
4:	mov	%eax, (%edi)
	add	$PAGE_SIZE, %eax
	add	$8, %edi
	loop	4b

	// PD_low[0..2047]: 2 MiB pages covering 0..4 GiB.
	mov	$PTE_P + PTE_W + PTE_PS, %eax
	lea	pd_low(%ebp), %edi
	mov	$BOOT_IDENTITY_BYTES / LARGE_PAGE_SIZE, %ecx
5:	mov	%eax, (%edi)
	add	$LARGE_PAGE_SIZE, %eax
	add	$8, %edi
	loop	5b

	// PDPT_high[510] (KERNEL_VMA) -> PD_high -> the window's PTs.
	lea	pd_high + PTE_P + PTE_W(%ebp), %eax
	mov	%eax, pdpt_high + KERNEL_WINDOW_PDPT * 8(%ebp)
	lea	pt_high + PTE_P + PTE_W(%ebp), %eax
	lea	pd_high(%ebp), %edi
	mov	$KERNEL_WINDOW_PTS, %ecx
6:	mov	%eax, (%edi)
	add	$PAGE_SIZE, %eax
	add	$8, %edi
	loop	6b

	// PT_high[i] -> the image's i-th page, where it really is.
	lea	KERNEL_LOAD_PHYS + PTE_P + PTE_W(%ebp), %eax
	lea	pt_high(%ebp), %edi
	mov	$image_pages, %ecx
7:	mov	%eax, (%edi)
	add	$PAGE_SIZE, %eax
	add	$8, %edi
	loop	7b

	// Long mode: PAE, CR3, EFER.LME, then paging (Intel SDM vol. 3, 10.8.5).
	mov	%cr4, %eax
	or	$CR4_PAE, %eax
	mov	%eax, %cr4
	lea	pml4(%ebp), %eax
	mov	%eax, %cr3
	mov	$MSR_EFER, %ecx
	rdmsr
	or	$EFER_LME, %eax
	wrmsr
	mov	%cr0, %eax
	or	$CR0_PG + CR0_WP + CR0_PE, %eax
	mov	%eax, %cr0

	lea	gdt(%ebp), %eax
	mov	%eax, gdt_desc + 2(%ebp)
	lgdt	gdt_desc(%ebp)
	pop	%ebx				// boot information pointer
	push	$SEL_CODE			// 64-bit code selector
	lea	entry64(%ebp), %eax
	push	%eax
	lret

	.code64
// Entered by the far return above, in 64-bit mode on the boot page tables.
entry64:
	load_data_segments
	movabs	$bsp_stack_top, %rsp
	mov	%esi, %edi			// arg 1: loader magic
	mov	%ebx, %esi			// arg 2: boot information (physical)
	lea	KERNEL_LOAD_PHYS(%rbp), %rdx	// arg 3: physical load address
	mov	%edx, %edx			// EBP held a 32-bit delta
	xor	%ebp, %ebp			// end of the frame-pointer chain
	movabs	$kmain, %rax
	call	*%rax
1:	cli
	hlt
	jmp	1b

	.section .boot.data, "aw"
	.p2align 3
	flat_gdt gdt
	.p2align 2
	.short 0
gdt_desc:
	.short gdt_end - gdt - 1
	.long 0					// base, patched at run time

msg_magic:
	.ascii "ramsift: not started by a Multiboot loader (wrong magic in EAX).\r\n"
	.asciz "Boot it with GRUB's multiboot or multiboot2 command, or qemu -kernel. Halted.\r\n"

	.section .boot.bss, "aw", @progbits
	.p2align PAGE_SHIFT
pml4:		.skip PAGE_SIZE
pdpt_low:	.skip PAGE_SIZE
pd_low:		.skip BOOT_IDENTITY_PDS * PAGE_SIZE
pdpt_high:	.skip PAGE_SIZE
pd_high:	.skip PAGE_SIZE
pt_high:	.skip KERNEL_WINDOW_PTS * PAGE_SIZE

	// Not in .boot.bss: entry32 pushes onto it before clearing that.
	.section .boot.stack, "aw", @progbits
	.p2align 4
	.skip 1024
boot_stack_top:

	// The bootstrap processor's stack, in the kernel window.
	.section .bss
	.p2align PAGE_SHIFT
	.globl bsp_stack			// its lowest words: a guard (src/smp.c)
bsp_stack:
	.skip 16384
	.globl bsp_stack_top
bsp_stack_top:
