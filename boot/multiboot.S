// SPDX-License-Identifier: GPL-2.0-or-later
// The Multiboot 1 and Multiboot 2 headers. One image carries both, so GRUB's
// `multiboot` and `multiboot2`, QEMU -kernel and iPXE all accept it. The
// magic numbers and information tag types come from lib/boot/multiboot.h.

#include "boot/multiboot.h"
#include "page.h"
#include "x86/layout.h"

#define MB1_PAGE_ALIGN		(1 << 0)	// modules on page boundaries
#define MB1_MEMORY_INFO		(1 << 1)	// we need the memory map
#define MB1_VIDEO_MODE		(1 << 2)	// video fields below are valid
#define MB1_AOUT_KLUDGE		(1 << 16)	// load addresses below are valid
#define MB1_FLAGS		(MB1_PAGE_ALIGN | MB1_MEMORY_INFO | MB1_VIDEO_MODE | MB1_AOUT_KLUDGE)

// Multiboot 2 header tag types (spec 3.1), apart from the information tags
// (MB2_TAG_*) of multiboot.h.
#define MB2_ARCH_I386		0
#define MB2_HTAG_END		0
#define MB2_HTAG_INFO_REQUEST	1
#define MB2_HTAG_CONSOLE_FLAGS	4
#define MB2_HTAG_FRAMEBUFFER	5
#define MB2_HTAG_RELOCATABLE	10
#define MB2_HTAG_OPTIONAL	1

	.section .multiboot, "a"

	// Multiboot 1 (spec 3.1.1). The a.out kludge gives physical load
	// addresses: QEMU refuses 64-bit ELF files without it. Mode type 1 asks
	// for EGA text; GRUB on UEFI falls back to a framebuffer it reports.
	.p2align 2
mb1_header:
	.long MB1_HEADER_MAGIC
	.long MB1_FLAGS
	.long -(MB1_HEADER_MAGIC + MB1_FLAGS)
	.long mb1_header		// header_addr
	.long image_start_phys		// load_addr
	.long image_load_end_phys	// load_end_addr
	.long image_end_phys		// bss_end_addr
	.long entry32			// entry_addr
	.long 1				// mode_type: EGA text
	.long VGA_TEXT_COLS		// width
	.long VGA_TEXT_ROWS		// height
	.long 0				// depth

	// Multiboot 2 (spec 3.1). No address tag: GRUB loads the ELF program
	// headers, and the relocatable tag lets it choose where, honouring
	// `badram`. The entry code is position independent for this reason.
	.p2align 3
mb2_header:
	.long MB2_HEADER_MAGIC
	.long MB2_ARCH_I386
	.long mb2_header_end - mb2_header
	.long -(MB2_HEADER_MAGIC + MB2_ARCH_I386 + (mb2_header_end - mb2_header))

	.p2align 3
	.short MB2_HTAG_INFO_REQUEST, MB2_HTAG_OPTIONAL
	.long 8 + 5 * 4
	.long MB2_TAG_CMDLINE		// boot command line
	.long MB2_TAG_MEMINFO		// basic memory information
	.long MB2_TAG_MMAP		// memory map
	.long MB2_TAG_FRAMEBUFFER	// framebuffer info
	.long MB2_TAG_EFI_MMAP		// the firmware's map: its runtime regions

	.p2align 3
	.short MB2_HTAG_CONSOLE_FLAGS, MB2_HTAG_OPTIONAL
	.long 12
	.long 2				// EGA text supported, console not required

	// The mode asked for: 1024x768 at 32 bits. Every VBE BIOS and GOP
	// offers it; the 8x16 font at 1x gives 128x48 text there, roomier than
	// the 80x25 a status screen needs and large on any monitor, so it can
	// be read from across the room; a 32-bit pixel is one aligned store.
	// GRUB takes another mode if the screen lacks this one; its multiboot2
	// command sets gfxpayload from this tag, so a user's `set
	// gfxpayload=WxH` must come after that line to override it (as
	// iso/mkiso.sh -g does). The console draws on any direct-RGB mode.
	.p2align 3
	.short MB2_HTAG_FRAMEBUFFER, MB2_HTAG_OPTIONAL
	.long 20
	.long 1024, 768, 32		// width, height, depth

	.p2align 3
	.short MB2_HTAG_RELOCATABLE, MB2_HTAG_OPTIONAL
	.long 24
	.long 0x100000			// min_addr: above the BIOS area
	.long 0xc0000000		// max_addr: the 32-bit entry needs < 4 GiB
	.long PAGE_SIZE			// align: the window maps whole pages
	.long 1				// preference: lowest address

	.p2align 3
	.short MB2_HTAG_END, 0
	.long 8
mb2_header_end:
