// SPDX-License-Identifier: GPL-2.0-or-later
// A Multiboot 1 kernel for QEMU -kernel that hands ramsift a framebuffer
// QEMU's loader never reports: a copy of QEMU's boot information with the
// framebuffer fields (flag 12, Multiboot 1 spec 3.3) describing FB_W x FB_H
// pixels of 32-bit xRGB at physical FB_ADDR, which the test puts in RAM above
// 4 GiB. Then it jumps to ramsift's 32-bit entry (RAMSIFT_ENTRY, given at
// build time) with the Multiboot 1 magic. QEMU's `-device
// loader,file=ramsift.elf` has put ramsift's segments in place; the stub is
// linked at 16 MiB, clear of them. Used by tests/e2e/screen-fb-high.sh.

#include "boot/multiboot.h"

#define MB1_INFO_FB	(1 << 12)
#define INFO_COPIED	88		// bytes of QEMU's information before the framebuffer fields

	.code32
	.p2align 2
	.long MB1_HEADER_MAGIC, 0, -MB1_HEADER_MAGIC	// magic, flags, checksum

	.globl _start
_start:
	mov	%ebx, %esi
	mov	$info, %edi
	mov	$INFO_COPIED / 4, %ecx
	rep movsl
	orl	$MB1_INFO_FB, info
	movl	$(FB_ADDR & 0xffffffff), info + 88
	movl	$(FB_ADDR >> 32), info + 92
	movl	$(FB_W * 4), info + 96		// pitch
	movl	$FB_W, info + 100
	movl	$FB_H, info + 104
	movb	$32, info + 108			// bits a pixel
	movb	$1, info + 109			// direct RGB
	movl	$0x08080810, info + 110		// red at 16, 8 bits; green at 8, 8 bits
	movw	$0x0800, info + 114		// blue at 0, 8 bits
	mov	$MB1_BOOT_MAGIC, %eax
	mov	$info, %ebx
	mov	$RAMSIFT_ENTRY, %ecx
	jmp	*%ecx

	.data
	.p2align 2
info:
	.space	116
