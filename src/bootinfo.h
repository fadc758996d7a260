// SPDX-License-Identifier: GPL-2.0-or-later
// What the loader told us, copied out of the Multiboot 1 or 2 information
// structure into ramsift's own memory, so that the loader's copy can later be
// tested like any other RAM.
#ifndef RAMSIFT_SRC_BOOTINFO_H
#define RAMSIFT_SRC_BOOTINFO_H

#include <stdbool.h>
#include <stdint.h>

#include "range.h"

#define BOOTINFO_CMDLINE_MAX	2048
#define BOOTINFO_MMAP_MAX	4096	// GRUB's badram can split the map into thousands
#define BOOTINFO_NAME_MAX	64

enum fb_kind { FB_NONE, FB_EGA_TEXT, FB_RGB, FB_INDEXED };

struct framebuffer {
	enum fb_kind kind;
	uint64_t addr;		// physical
	uint32_t pitch, width, height;	// width/height in pixels, or characters for text
	uint8_t bpp;
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
	struct framebuffer fb;
	uint64_t info_start, info_end;	// where the loader's structure was
};

// Parse the loader's information at physical address info, given the magic
// the loader passed in EAX. Distrusts every length and pointer: a truncated or
// inconsistent structure yields what could be read safely plus warnings
// through log_warn(). Returns false if nothing usable could be read.
bool bootinfo_parse(struct bootinfo *bi, uint32_t magic, uint64_t info);

#endif
