/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Link map of ramsift.elf. The 32-bit entry (.boot*) is linked at its physical
 * address and is position independent, because GRUB's Multiboot 2 loader may
 * place the image elsewhere (relocatable tag). Everything else is 64-bit code
 * linked into the top 2 GiB (-mcmodel=kernel) and reached through a window
 * that boot/entry.S maps onto wherever the image really landed, so C never
 * cares about its physical address. The whole image is one run of bytes in
 * the file, which the Multiboot 1 a.out kludge (QEMU -kernel, iPXE) needs.
 *
 * Run through the C preprocessor (Makefile: build/image/link.ld): the load
 * address, the window and the page size come from their one definition in
 * src/x86/layout.h, which boot/entry.S and the C code read too.
 */
#include "x86/layout.h"

OUTPUT_FORMAT("elf64-x86-64")
ENTRY(entry32)

PHDRS {
	boot PT_LOAD FLAGS(7);
	kernel PT_LOAD FLAGS(7);
}

SECTIONS
{
	. = KERNEL_LOAD_PHYS;
	image_start_phys = .;
	.boot : {
		KEEP(*(.multiboot))
		*(.boot.text)
		*(.boot.data)
		*(.boot.stack)
		. = ALIGN(PAGE_SIZE);
	} :boot
	/*
	 * Boot page tables and stack. Kept as file bytes (zeros), not NOLOAD, so
	 * that the file stays one linear run for the a.out kludge; entry32 clears
	 * them anyway in case a loader hands over dirty memory.
	 */
	.boot.bss : {
		boot_bss_start = .;
		*(.boot.bss)
		. = ALIGN(PAGE_SIZE);
		boot_bss_end = .;
	} :boot

	. = KERNEL_VMA + (. - KERNEL_LOAD_PHYS);
	kernel_text_start = .;
	.text : AT(ADDR(.text) - KERNEL_VMA + KERNEL_LOAD_PHYS) {
		*(.text .text.*)
	} :kernel
	.rodata ALIGN(PAGE_SIZE) : AT(ADDR(.rodata) - KERNEL_VMA + KERNEL_LOAD_PHYS) {
		*(.rodata .rodata.*)
	} :kernel
	.data ALIGN(PAGE_SIZE) : AT(ADDR(.data) - KERNEL_VMA + KERNEL_LOAD_PHYS) {
		kernel_data_start = .;	/* code and read-only data end: the self-check's range */
		*(.data .data.*)
		. = ALIGN(PAGE_SIZE);
	} :kernel
	kernel_load_end = .;
	.bss ALIGN(PAGE_SIZE) (NOLOAD) : AT(ADDR(.bss) - KERNEL_VMA + KERNEL_LOAD_PHYS) {
		kernel_bss_start = .;
		*(.bss .bss.*) *(COMMON)
		. = ALIGN(PAGE_SIZE);
		kernel_bss_end = .;
	} :kernel
	image_end = .;

	/* Physical (link-time) addresses the Multiboot headers need. */
	image_load_end_phys = kernel_load_end - KERNEL_VMA + KERNEL_LOAD_PHYS;
	image_end_phys = image_end - KERNEL_VMA + KERNEL_LOAD_PHYS;
	kernel_bss_start_phys = kernel_bss_start - KERNEL_VMA + KERNEL_LOAD_PHYS;
	image_pages = (image_end_phys - KERNEL_LOAD_PHYS) / PAGE_SIZE;

	/DISCARD/ : { *(.note*) *(.comment) *(.eh_frame*) }
}

ASSERT(image_end_phys - KERNEL_LOAD_PHYS <= KERNEL_WINDOW_BYTES, "image larger than the kernel window boot/entry.S maps")
ASSERT(image_end_phys - KERNEL_LOAD_PHYS <= KERNEL_WINDOW_BYTES - KERNEL_WINDOW_MARGIN, "image eats into the kernel window's margin (src/x86/layout.h): move large buffers to the working memory")
ASSERT(ap_trampoline_end - ap_trampoline <= PAGE_SIZE, "boot/ap.S: the AP start-up code and its data must fit the first page of the trampoline (src/x86/layout.h)")
ASSERT(ap_data - ap_trampoline + AP_DATA_SIZE == ap_trampoline_end - ap_trampoline, "boot/ap.S: ap_data must end the start-up code")
