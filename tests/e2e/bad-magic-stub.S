// SPDX-License-Identifier: GPL-2.0-or-later
// A Multiboot 1 kernel for QEMU -kernel that jumps to ramsift's 32-bit entry
// (RAMSIFT_ENTRY, a physical address given at build time) with EAX = 0 instead
// of the loader magic, EBX still pointing at QEMU's boot information. QEMU's
// `-device loader,file=ramsift.elf` has put ramsift's segments in place; the
// stub is linked at 16 MiB, clear of them. Used by tests/e2e/bad-magic.sh.

#include "boot/multiboot.h"

	.code32
	.p2align 2
	.long MB1_HEADER_MAGIC, 0, -MB1_HEADER_MAGIC	// magic, flags, checksum

	.globl _start
_start:
	xor	%eax, %eax
	mov	$RAMSIFT_ENTRY, %ecx
	jmp	*%ecx
