// SPDX-License-Identifier: GPL-2.0-or-later
// What the loader told us: the Multiboot 1 or 2 information structure parsed
// and copied into the caller's struct bootinfo, so that the loader's copy can
// be tested like any other RAM. The structure is read through a callback, so
// the host can feed the parser arbitrary (hostile) bytes.
#ifndef RAMSIFT_LIB_BOOT_MULTIBOOT_H
#define RAMSIFT_LIB_BOOT_MULTIBOOT_H

// The Multiboot magic numbers, their one definition: boot/multiboot.S writes
// the header magics, boot/entry.S and bootinfo_parse() check the loader's.
// Plain numbers, so that assembly includes this header too (__ASSEMBLY__).
#define MB1_HEADER_MAGIC	0x1badb002	// Multiboot 1 spec 3.1.2
#define MB1_BOOT_MAGIC		0x2badb002	// in EAX from a Multiboot 1 loader (3.2)
#define MB2_HEADER_MAGIC	0xe85250d6	// Multiboot 2 spec 3.1.2
#define MB2_BOOT_MAGIC		0x36d76289	// in EAX from a Multiboot 2 loader (3.3)

// Multiboot 2 information tag types (spec 3.6): the ones bootinfo_parse()
// reads, which boot/multiboot.S's information request asks for.
#define MB2_TAG_END		0
#define MB2_TAG_CMDLINE		1
#define MB2_TAG_LOADER		2
#define MB2_TAG_MEMINFO		4
#define MB2_TAG_MMAP		6
#define MB2_TAG_FRAMEBUFFER	8
#define MB2_TAG_EFI32		11
#define MB2_TAG_EFI64		12
#define MB2_TAG_SMBIOS		13
#define MB2_TAG_ACPI_OLD	14
#define MB2_TAG_ACPI_NEW	15
#define MB2_TAG_EFI_MMAP	17

#ifndef __ASSEMBLY__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capacity.h"	// BOOTINFO_CMDLINE_MAX, BOOTINFO_MMAP_MAX, BOOTINFO_NAME_MAX, ...
#include "range.h"

// The longest warning passed to the warn callback, its terminator included.
#define BOOTINFO_WARNING_LEN 160

enum fb_kind { FB_NONE, FB_EGA_TEXT, FB_RGB, FB_INDEXED };

struct framebuffer {
	enum fb_kind kind;
	uint64_t addr;		// physical
	uint32_t pitch, width, height;	// pitch in bytes; width/height in pixels, or characters for text
	uint8_t bpp;
	// FB_RGB only: each colour's field in a pixel, as the loader reported
	// it: the position of its least significant bit and its number of bits
	// (e.g. 16, 8 for red in a 32-bit xRGB pixel). All 0 for other kinds.
	uint8_t red_pos, red_size, green_pos, green_size, blue_pos, blue_size;
};

// A copy of the ACPI RSDP that a Multiboot 2 loader passed in a tag, checked
// by nothing yet (lib/boot/acpi.c verifies it).
struct bootinfo_rsdp {
	uint8_t bytes[BOOTINFO_RSDP_MAX];
	uint8_t len;		// bytes copied; 0: the loader gave no such tag
};

// A copy of the SMBIOS entry point that a Multiboot 2 loader passed in tag
// 13, checked by nothing yet (lib/boot/smbios.c verifies it).
struct bootinfo_smbios {
	uint8_t bytes[BOOTINFO_SMBIOS_MAX];
	uint8_t len;		// bytes copied; 0: the loader gave no such tag
	uint8_t major, minor;	// the version the tag states
};

struct bootinfo {
	unsigned protocol;	// 1 or 2
	char loader[BOOTINFO_NAME_MAX];
	char cmdline[BOOTINFO_CMDLINE_MAX];
	struct mmap_entry mmap[BOOTINFO_MMAP_MAX];
	size_t nmmap;
	size_t mmap_dropped;	// entries beyond BOOTINFO_MMAP_MAX
	bool from_meminfo;	// no map given: built from mem_lower/mem_upper
	bool efi;		// the loader reported an EFI system table
	uint64_t efi_systab;	// its physical address (MB2 tag 12 or 11); 0: none
	bool efi64;		// tag 12: a 64-bit system table (else tag 11, 32-bit)
	// Tag 17, the firmware's own memory map: its regions the runtime
	// services use (attribute EFI_MEMORY_RUNTIME), which stay mapped for
	// a call into them.
	size_t efi_runtime_regions;
	uint64_t efi_runtime_end;	// the end of the highest one; 0: none
	struct framebuffer fb;
	struct bootinfo_rsdp acpi_old;	// MB2 tag 14: an ACPI 1.0 RSDP (20 bytes)
	struct bootinfo_rsdp acpi_new;	// MB2 tag 15: an ACPI 2.0+ RSDP (36 bytes)
	struct bootinfo_smbios smbios;	// MB2 tag 13
	uint64_t info_start, info_end;	// where the loader's structure was
};

// Copy n bytes at physical address addr into buf; false when they cannot be
// read (outside what is mapped), which the parser treats as the end of data.
typedef bool (*bootinfo_read_fn)(void *ctx, uint64_t addr, void *buf, size_t n);

// Reports something wrong in the structure: a NUL-terminated sentence.
typedef void (*bootinfo_warn_fn)(void *ctx, const char *msg);

// Parse the loader's information at physical address info, given the magic
// the loader passed in EAX (MB2_BOOT_MAGIC; anything else is read as
// Multiboot 1). Distrusts every length and pointer: a truncated or
// inconsistent structure yields what could be read safely plus warnings.
// Returns false if no memory map could be read.
bool bootinfo_parse(struct bootinfo *bi, uint32_t magic, uint64_t info, bootinfo_read_fn read,
		    bootinfo_warn_fn warn, void *ctx);

#endif /* !__ASSEMBLY__ */

#endif
