// SPDX-License-Identifier: GPL-2.0-or-later
// The machine layout: the one definition of every number that boot/entry.S,
// the linker script (boot/link.ld.S, run through the C preprocessor) and the
// C code must agree on: where the image is linked, the kernel window, the
// page-table bits, the GDT and its selectors. Included by assembly and the
// linker script with __ASSEMBLY__ defined, so it holds only #defines written
// through UL()/ULL() (lib/const.h). Change a number here and every side
// follows; nothing else may restate one.
#ifndef RAMSIFT_SRC_X86_LAYOUT_H
#define RAMSIFT_SRC_X86_LAYOUT_H

#include "const.h"
#include "page.h"

// ---- where the image lives ----------------------------------------------

// Physical address the image is linked at and where Multiboot 1 loaders put
// it (the a.out kludge's load_addr). GRUB's Multiboot 2 loader may place it
// elsewhere (relocatable tag); boot/entry.S then maps the window onto it.
#define KERNEL_LOAD_PHYS	UL(0x200000)

// Virtual address of the image's first byte: the kernel window, in the top
// 2 GiB as -mcmodel=kernel needs, at a 1 GiB boundary so that the window is
// one page directory from its slot 0 on.
#define KERNEL_VMA		UL(0xffffffff80000000)

// Bytes of image the window maps with 4 KiB pages: the image (code, data,
// .bss, stacks) must fit, which the linker script ASSERTs.
#define KERNEL_WINDOW_BYTES	(UL(8) << 20)

// Of the window, the image may fill all but this margin (the linker script
// ASSERTs it): room kept for what is coming (more CPUs' stacks, a font, the
// QR code's buffers), so that growing into it is a decision, not an accident.
// Large buffers belong in the working memory after the page tables instead.
#define KERNEL_WINDOW_MARGIN	(UL(4) << 20)

// The boot page tables (boot/entry.S) identity map [0, BOOT_IDENTITY_BYTES)
// with 2 MiB pages: enough for the loader's information (32-bit pointers) and
// the screen until paging_build() maps all of RAM.
#define BOOT_IDENTITY_BYTES	(ULL(4) << 30)

// ---- the VGA text screen ---------------------------------------------------

// Where the text screen's cells are (two bytes each: character, attribute),
// and the mode the Multiboot 1 header asks for, which boot/check32.S's
// messages and the screen console draw on.
#define VGA_TEXT_PHYS		UL(0xb8000)
#define VGA_TEXT_COLS		80
#define VGA_TEXT_ROWS		25

// ---- page tables (SDM vol. 3, 4.5) -------------------------------------

#define PT_ENTRIES		512		// 8-byte entries in a 4 KiB table
#define PTE_P			(UL(1) << 0)	// present
#define PTE_W			(UL(1) << 1)	// writable
#define PTE_PWT			(UL(1) << 3)	// with PCD and PAT: the page's PAT entry
#define PTE_PCD			(UL(1) << 4)
#define PTE_PS			(UL(1) << 7)	// PDE/PDPTE: a 2 MiB/1 GiB page
#define PTE_PAT_4K		(UL(1) << 7)	// PTE of a 4 KiB page: PAT index bit 2
#define LARGE_PAGE_SIZE		(UL(1) << 21)	// what a PD entry with PTE_PS maps

// The window's slots: PML4 and PDPT entries of KERNEL_VMA, page directory
// entries 0 to KERNEL_WINDOW_PTS - 1, each pointing at one page table.
#define KERNEL_WINDOW_PML4	((KERNEL_VMA >> 39) & (PT_ENTRIES - 1))
#define KERNEL_WINDOW_PDPT	((KERNEL_VMA >> 30) & (PT_ENTRIES - 1))
#define KERNEL_WINDOW_PTS	(KERNEL_WINDOW_BYTES / LARGE_PAGE_SIZE)

// ---- GDT (SDM vol. 3, 3.4.5 and 5.2.1) ----------------------------------

// Flat descriptors: base 0, limit 4 GiB, present, DPL 0. Code is 64-bit
// (L=1), data is writable. The boot GDT (boot/entry.S) and each CPU's GDT
// (src/x86/cpu.c) put them at the selectors below.
#define GDT_CODE64		ULL(0x00af9a000000ffff)
#define GDT_DATA		ULL(0x00cf92000000ffff)

// Selectors: byte offsets of the descriptors in the GDT (index * 8, TI = 0,
// RPL 0). The TSS descriptor takes two slots (16 bytes in long mode).
#define SEL_CODE		0x08
#define SEL_DATA		0x10
#define SEL_TSS			0x18

// ---- AP start-up (boot/ap.S, src/x86/smpboot.c) ---------------------------

// The start-up code is copied to AP_TRAMPOLINE_PAGES pages of free RAM below
// 640 KiB: its code and data in the first (boot/link.ld.S ASSERTs that they
// fit), a copy of the BSP's PML4 in the second, so that CR3 can be loaded
// with 32 bits before long mode whatever the real tables' address.
#define AP_TRAMPOLINE_PAGES	2

// Its data block, at ap_data in the first page: offsets of the fields
// smpboot.c fills in for each AP (struct ap_data checks them).
#define AP_DATA_GDTR		0	// 16-bit limit, 32-bit base: the copy's GDT
#define AP_DATA_FAR		8	// 32-bit offset, 16-bit selector: into 64-bit code
#define AP_DATA_PML4		16	// 32-bit: physical address of the PML4 copy
#define AP_DATA_X2APIC		20	// 32-bit: 1: compare CPUID 0BH's x2APIC ID, 0: CPUID 1's
#define AP_DATA_APIC_ID		24	// 32-bit: the APIC ID of the CPU this slot is for
#define AP_DATA_TAKEN		28	// 32-bit: 0 until that CPU took the slot
#define AP_DATA_CR3		32	// 64-bit: the BSP's page tables
#define AP_DATA_STACK		40	// 64-bit: the AP's stack top (virtual)
#define AP_DATA_CPU		48	// 64-bit: its struct cpu (virtual)
#define AP_DATA_ENTRY		56	// 64-bit: the C entry, ap_entry (virtual)
#define AP_DATA_PAT		64	// 64-bit: the BSP's IA32_PAT; 0: the CPU has none
#define AP_DATA_SIZE		72

#endif
