// SPDX-License-Identifier: GPL-2.0-or-later
// What the two ways into long mode share: the BSP's from 32-bit protected
// mode (boot/entry.S) and each AP's from real mode (boot/ap.S). The control
// register and EFER bits they set (Intel SDM vol. 3A, 2.5 and 2.2.1), the
// flat GDT they load, and the segment loads after their far jump into
// 64-bit code. Assembly only; the numbers come from src/x86/layout.h.
#ifndef RAMSIFT_BOOT_LONG_MODE_H
#define RAMSIFT_BOOT_LONG_MODE_H

#include "x86/layout.h"

#define CR0_PE		(1 << 0)	// protection
#define CR0_ET		(1 << 4)	// extension type (reads 1 on every x86-64)
#define CR0_NE		(1 << 5)	// x87 errors as exceptions
#define CR0_WP		(1 << 16)	// write protection in ring 0 too
#define CR0_PG		(1 << 31)	// paging
#define CR4_PAE		(1 << 5)
#define MSR_EFER	0xc0000080
#define EFER_LME	(1 << 8)

// A GDT named name, name_end its end: the null descriptor, then each
// descriptor at its selector's offset. .org cannot move backwards, so
// selectors out of order in layout.h fail the build.
.macro flat_gdt name
\name:
	.quad	0
	.org	\name + SEL_CODE
	.quad	GDT_CODE64
	.org	\name + SEL_DATA
	.quad	GDT_DATA
\name\()_end:
.endm

// First thing in 64-bit code: DS, ES and SS the flat data segment of the
// GDT above, FS and GS null. Clobbers EAX.
.macro load_data_segments
	mov	$SEL_DATA, %eax
	mov	%eax, %ds
	mov	%eax, %es
	mov	%eax, %ss
	xor	%eax, %eax
	mov	%eax, %fs
	mov	%eax, %gs
.endm

#endif
