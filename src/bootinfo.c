// SPDX-License-Identifier: GPL-2.0-or-later
// Multiboot 1 (spec section 3.3) and Multiboot 2 (spec section 3.6) boot
// information. Everything is read through the identity map (the loaders put
// it below 4 GiB) and bounded by the sizes the structure declares.
#include "bootinfo.h"
#include "log.h"
#include "string.h"

#define MB1_BOOT_MAGIC	0x2badb002
#define MB2_BOOT_MAGIC	0x36d76289

#define MB1_INFO_MEMORY	(1u << 0)
#define MB1_INFO_CMDLINE (1u << 2)
#define MB1_INFO_MMAP	(1u << 6)
#define MB1_INFO_LOADER	(1u << 9)
#define MB1_INFO_FB	(1u << 12)

#define MB2_TAG_END		0
#define MB2_TAG_CMDLINE		1
#define MB2_TAG_LOADER		2
#define MB2_TAG_MEMINFO		4
#define MB2_TAG_MMAP		6
#define MB2_TAG_FRAMEBUFFER	8
#define MB2_TAG_EFI32		11
#define MB2_TAG_EFI64		12

#define INFO_MAX_SIZE	(4u << 20)	// larger is nonsense, not a map

static uint32_t rd32(uint64_t a) { return *(const volatile uint32_t *)(uintptr_t)a; }
static uint64_t rd64(uint64_t a) { return *(const volatile uint64_t *)(uintptr_t)a; }
static uint8_t rd8(uint64_t a) { return *(const volatile uint8_t *)(uintptr_t)a; }

// Copy a NUL-terminated string of at most limit bytes from physical src.
static void copy_string(char *dst, size_t cap, uint64_t src, uint64_t limit)
{
	size_t i = 0;
	if (src != 0)
		for (; i + 1 < cap && i < limit && rd8(src + i); i++)
			dst[i] = (char)rd8(src + i);
	dst[i] = '\0';
}

static void add_entry(struct bootinfo *bi, uint64_t base, uint64_t len, uint32_t type)
{
	if (bi->nmmap == BOOTINFO_MMAP_MAX) {
		bi->mmap_dropped++;
		return;
	}
	bi->mmap[bi->nmmap++] = (struct mmap_entry){ base, len, type };
}

static void meminfo_entries(struct bootinfo *bi, uint32_t lower_kib, uint32_t upper_kib)
{
	bi->from_meminfo = true;
	add_entry(bi, 0, (uint64_t)lower_kib << 10, MMAP_USABLE);
	add_entry(bi, 1 << 20, (uint64_t)upper_kib << 10, MMAP_USABLE);
}

static void set_fb(struct bootinfo *bi, uint64_t addr, uint32_t pitch, uint32_t w, uint32_t h,
		   uint8_t bpp, uint8_t type)
{
	static const enum fb_kind kinds[3] = { FB_INDEXED, FB_RGB, FB_EGA_TEXT };
	if (type > 2 || addr == 0)
		return;
	bi->fb = (struct framebuffer){ kinds[type], addr, pitch, w, h, bpp };
}

static bool parse_mb1(struct bootinfo *bi, uint64_t mbi)
{
	uint32_t flags = rd32(mbi);

	bi->info_start = mbi;
	bi->info_end = mbi + 120;
	if (flags & MB1_INFO_CMDLINE)
		copy_string(bi->cmdline, sizeof(bi->cmdline), rd32(mbi + 16), BOOTINFO_CMDLINE_MAX);
	if (flags & MB1_INFO_LOADER)
		copy_string(bi->loader, sizeof(bi->loader), rd32(mbi + 64), BOOTINFO_NAME_MAX);
	if (flags & MB1_INFO_FB)
		set_fb(bi, rd64(mbi + 88), rd32(mbi + 96), rd32(mbi + 100), rd32(mbi + 104),
		       rd8(mbi + 108), rd8(mbi + 109));
	if (flags & MB1_INFO_MMAP) {
		uint64_t p = rd32(mbi + 48), end = p + rd32(mbi + 44);
		if (end - p > INFO_MAX_SIZE) {
			log_warn("multiboot: memory map length %llu is implausible; reading the first 4 MiB",
				 (unsigned long long)(end - p));
			end = p + INFO_MAX_SIZE;
		}
		// Each entry: u32 size (not counting itself), u64 base, u64 length, u32 type.
		while (p + 24 <= end) {
			uint32_t size = rd32(p);
			if (size < 20) {
				log_warn("multiboot: memory map entry at 0x%llx has size %u (< 20); "
					 "ignoring the rest of the map", (unsigned long long)p, size);
				break;
			}
			add_entry(bi, rd64(p + 4), rd64(p + 12), rd32(p + 20));
			p += (uint64_t)size + 4;
		}
	}
	if (bi->nmmap == 0 && (flags & MB1_INFO_MEMORY))
		meminfo_entries(bi, rd32(mbi + 4), rd32(mbi + 8));
	return bi->nmmap > 0;
}

static void parse_mb2_mmap(struct bootinfo *bi, uint64_t tag, uint32_t size)
{
	uint32_t esize = rd32(tag + 8);
	if (esize < 24 || esize > 4096) {
		log_warn("multiboot2: memory map entry size %u is invalid; ignoring the map", esize);
		return;
	}
	for (uint64_t p = tag + 16; p + esize <= tag + size; p += esize)
		add_entry(bi, rd64(p), rd64(p + 8), rd32(p + 16));
}

static bool parse_mb2(struct bootinfo *bi, uint64_t mbi)
{
	uint32_t total = rd32(mbi);
	uint32_t lower = 0, upper = 0;
	bool meminfo = false;

	if (total < 16 || total > INFO_MAX_SIZE) {
		log_warn("multiboot2: information size %u is implausible", total);
		return false;
	}
	bi->info_start = mbi;
	bi->info_end = mbi + total;
	for (uint64_t tag = mbi + 8; tag + 8 <= mbi + total;) {
		uint32_t type = rd32(tag), size = rd32(tag + 4);
		if (type == MB2_TAG_END)
			break;
		if (size < 8 || tag + size > mbi + total) {
			log_warn("multiboot2: tag %u at 0x%llx has size %u beyond the structure; "
				 "ignoring the rest", type, (unsigned long long)tag, size);
			break;
		}
		switch (type) {
		case MB2_TAG_CMDLINE:
			copy_string(bi->cmdline, sizeof(bi->cmdline), tag + 8, size - 8);
			break;
		case MB2_TAG_LOADER:
			copy_string(bi->loader, sizeof(bi->loader), tag + 8, size - 8);
			break;
		case MB2_TAG_MEMINFO:
			if (size >= 16) {
				meminfo = true;
				lower = rd32(tag + 8);
				upper = rd32(tag + 12);
			}
			break;
		case MB2_TAG_MMAP:
			if (size >= 16)
				parse_mb2_mmap(bi, tag, size);
			break;
		case MB2_TAG_FRAMEBUFFER:
			if (size >= 30)
				set_fb(bi, rd64(tag + 8), rd32(tag + 16), rd32(tag + 20), rd32(tag + 24),
				       rd8(tag + 28), rd8(tag + 29));
			break;
		case MB2_TAG_EFI32:
		case MB2_TAG_EFI64:
			bi->efi = true;
			break;
		}
		tag += (size + 7) & ~7u;
	}
	if (bi->nmmap == 0 && meminfo)
		meminfo_entries(bi, lower, upper);
	return bi->nmmap > 0;
}

bool bootinfo_parse(struct bootinfo *bi, uint32_t magic, uint64_t info)
{
	mem_set(bi, 0, sizeof(*bi));
	bi->protocol = magic == MB2_BOOT_MAGIC ? 2 : 1;
	if (info == 0 || (info & 3) != 0) {
		log_warn("multiboot: information pointer 0x%llx is invalid", (unsigned long long)info);
		return false;
	}
	bool ok = magic == MB2_BOOT_MAGIC ? parse_mb2(bi, info) : parse_mb1(bi, info);
	if (bi->mmap_dropped)
		log_warn("multiboot: the memory map has %zu more entries than the %u ramsift keeps; "
			 "the RAM they describe is not tested", bi->mmap_dropped, BOOTINFO_MMAP_MAX);
	return ok;
}
