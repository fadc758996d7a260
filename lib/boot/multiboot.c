// SPDX-License-Identifier: GPL-2.0-or-later
// Multiboot 1 (spec section 3.3) and Multiboot 2 (spec section 3.6) boot
// information. Every read goes through the caller's reader and is bounded by
// the sizes the structure declares; an unreadable byte ends what is parsed.
#include "escape.h"
#include "fmt.h"
#include "boot/multiboot.h"
#include "memstr.h"

#define MB1_INFO_MEMORY	(1u << 0)
#define MB1_INFO_CMDLINE (1u << 2)
#define MB1_INFO_MMAP	(1u << 6)
#define MB1_INFO_LOADER	(1u << 9)
#define MB1_INFO_FB	(1u << 12)
#define MB1_INFO_SIZE	116	// through the framebuffer fields

#define INFO_MAX_SIZE	(4u << 20)	// larger is nonsense, not a map

struct parser {
	struct bootinfo *bi;
	bootinfo_read_fn read;
	bootinfo_warn_fn warn;
	void *ctx;
};

static void warn(const struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(const struct parser *p, const char *fmt, ...)
{
	char msg[BOOTINFO_WARNING_LEN];
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (p->warn)
		p->warn(p->ctx, msg);
}

// Little-endian fields; false when unreadable.
static bool rd(const struct parser *p, uint64_t addr, void *v, size_t n)
{
	return addr + n >= addr && p->read(p->ctx, addr, v, n);
}

static uint32_t rd32(const struct parser *p, uint64_t addr, bool *ok)
{
	uint32_t v = 0;
	*ok = *ok && rd(p, addr, &v, 4);
	return v;
}

static uint64_t rd64(const struct parser *p, uint64_t addr, bool *ok)
{
	uint64_t v = 0;
	*ok = *ok && rd(p, addr, &v, 8);
	return v;
}

// Copy a NUL-terminated string of at most limit bytes from src.
static void copy_string(const struct parser *p, char *dst, size_t cap, uint64_t src, uint64_t limit)
{
	size_t i = 0;
	char c;

	if (src != 0)
		for (; i + 1 < cap && i < limit && rd(p, src + i, &c, 1) && c; i++)
			dst[i] = c;
	dst[i] = '\0';
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// The command line at src (at most limit bytes): a longer one than
// bi->cmdline holds ends before the word the cut would split (a cut
// "errors=100" reads "errors=10"), and the warning shows what is ignored.
static void copy_cmdline(const struct parser *p, uint64_t src, uint64_t limit)
{
	char *line = p->bi->cmdline, c = 0, rest[24], shown[ESCAPE_MAX_PER_BYTE * sizeof(rest) + 1];
	size_t cap = sizeof(p->bi->cmdline), kept, n = 0;

	copy_string(p, line, cap, src, limit);
	kept = str_len(line);
	if (src == 0 || kept + 1 < cap || kept >= limit || !rd(p, src + kept, &c, 1) || c == 0)
		return;
	if (!is_blank(c))
		while (kept > 0 && !is_blank(line[kept - 1]))
			kept--;
	line[kept] = '\0';
	uint64_t at = src + kept, end = src + limit;	// src < 2^32: no overflow
	for (size_t k = 0; k < cap && at < end && rd(p, at, &c, 1) && is_blank(c); k++)
		at++;	// show the dropped part from its first word on
	while (n < sizeof(rest) && at + n < end && rd(p, at + n, &c, 1) && c)
		rest[n++] = c;
	escape_text(shown, sizeof(shown), rest, n);
	warn(p, "command line longer than %zu bytes; ignored from '%s...'", cap - 1, shown);
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

// Framebuffer fields as both protocols lay them out: u64 address, u32 pitch,
// u32 width, u32 height, u8 bpp, u8 type (0 indexed, 1 RGB, 2 EGA text),
// then, at color_at, the colour information; for RGB six bytes: red field
// position and mask size, green's, blue's. Multiboot 1 puts it right after
// the type (offset 110 of the information, spec 3.3); Multiboot 2 after a
// u16 reserved (the framebuffer tag, spec 3.6.12, as GRUB's multiboot2.h
// lays it out). has_color: the structure's declared size covers those six
// bytes; an RGB framebuffer without them is ignored.
#define FB_MB1_COLOR_AT	22
#define FB_MB2_COLOR_AT	24
#define FB_MB2_RGB_TAG_SIZE (8 + FB_MB2_COLOR_AT + 6)
static void framebuffer(const struct parser *p, uint64_t at, uint64_t color_at, bool has_color)
{
	static const enum fb_kind kinds[3] = { FB_INDEXED, FB_RGB, FB_EGA_TEXT };
	uint8_t bpp_type[2], rgb[6] = { 0 };
	bool ok = rd(p, at + 20, bpp_type, 2);
	uint64_t addr = rd64(p, at, &ok);
	uint32_t pitch = rd32(p, at + 8, &ok), w = rd32(p, at + 12, &ok), h = rd32(p, at + 16, &ok);

	if (!ok || bpp_type[1] > 2 || addr == 0) {
		warn(p, "multiboot: framebuffer information is unreadable or invalid; ignored");
		return;
	}
	if (kinds[bpp_type[1]] == FB_RGB && !(has_color && rd(p, at + color_at, rgb, sizeof(rgb)))) {
		warn(p, "multiboot: the RGB framebuffer's colour fields are missing or unreadable; ignored");
		return;
	}
	p->bi->fb = (struct framebuffer){ kinds[bpp_type[1]], addr, pitch, w, h, bpp_type[0],
					  rgb[0], rgb[1], rgb[2], rgb[3], rgb[4], rgb[5] };
}

static void parse_mb1(const struct parser *p, uint64_t mbi)
{
	struct bootinfo *bi = p->bi;
	bool ok = true;
	uint32_t flags = rd32(p, mbi, &ok);

	bi->info_start = mbi;
	bi->info_end = mbi + MB1_INFO_SIZE;
	if (!ok) {
		warn(p, "multiboot: the information at 0x%llx cannot be read", (unsigned long long)mbi);
		return;
	}
	if (flags & MB1_INFO_CMDLINE)
		copy_cmdline(p, rd32(p, mbi + 16, &ok), UINT32_MAX);
	if (flags & MB1_INFO_LOADER)
		copy_string(p, bi->loader, sizeof(bi->loader), rd32(p, mbi + 64, &ok), BOOTINFO_NAME_MAX);
	if (flags & MB1_INFO_FB)
		framebuffer(p, mbi + 88, FB_MB1_COLOR_AT, true);
	if (flags & MB1_INFO_MMAP) {
		uint64_t at = rd32(p, mbi + 48, &ok), len = rd32(p, mbi + 44, &ok);
		if (len > INFO_MAX_SIZE) {
			warn(p, "multiboot: memory map length %llu is implausible; reading the first 4 MiB",
			     (unsigned long long)len);
			len = INFO_MAX_SIZE;
		}
		// Each entry: u32 size (not counting itself), u64 base, u64 length, u32 type.
		for (uint64_t e = at; ok && e + 24 <= at + len;) {
			uint32_t size = rd32(p, e, &ok);
			uint64_t base = rd64(p, e + 4, &ok), length = rd64(p, e + 12, &ok);
			uint32_t type = rd32(p, e + 20, &ok);
			if (!ok || size < 20) {
				warn(p, "multiboot: memory map entry at 0x%llx is unreadable or has size %u "
				     "(< 20); ignoring the rest of the map", (unsigned long long)e, size);
				break;
			}
			add_entry(bi, base, length, type);
			e += (uint64_t)size + 4;
		}
	}
	ok = true;
	uint32_t lower = rd32(p, mbi + 4, &ok), upper = rd32(p, mbi + 8, &ok);
	if (bi->nmmap == 0 && (flags & MB1_INFO_MEMORY) && ok)
		meminfo_entries(bi, lower, upper);
}

static void parse_mb2_mmap(const struct parser *p, uint64_t tag, uint32_t size)
{
	bool ok = true;
	uint32_t esize = rd32(p, tag + 8, &ok);

	if (!ok || esize < 24 || esize > 4096) {
		warn(p, "multiboot2: memory map entry size %u is invalid; ignoring the map", esize);
		return;
	}
	for (uint64_t e = tag + 16; ok && e + esize <= tag + size; e += esize) {
		uint64_t base = rd64(p, e, &ok), len = rd64(p, e + 8, &ok);
		uint32_t type = rd32(p, e + 16, &ok);
		if (ok)
			add_entry(p->bi, base, len, type);
	}
}

// Tag 17: the descriptor size and version, then the firmware's
// EFI_MEMORY_DESCRIPTORs (UEFI 2.10, 7.2: Type, PhysicalStart,
// VirtualStart, NumberOfPages, Attribute). Only the runtime regions are kept.
#define EFI_MEMORY_RUNTIME (1ull << 63)
#define EFI_DESC_MIN 40

static void efi_mmap_tag(const struct parser *p, uint64_t tag, uint32_t size)
{
	bool ok = true;
	uint32_t dsize = rd32(p, tag + 8, &ok);

	if (!ok || dsize < EFI_DESC_MIN || dsize > 4096) {
		warn(p, "multiboot2: EFI memory map descriptor size %u is invalid; ignoring that map",
		     dsize);
		return;
	}
	for (uint64_t d = tag + 16; ok && d + dsize <= tag + size; d += dsize) {
		uint64_t start = rd64(p, d + 8, &ok), pages = rd64(p, d + 24, &ok);
		uint64_t attr = rd64(p, d + 32, &ok);
		if (!ok || !(attr & EFI_MEMORY_RUNTIME) || pages == 0)
			continue;
		if (start >= RANGE_MAX_ADDR || pages > (RANGE_MAX_ADDR - start) >> 12) {
			warn(p, "multiboot2: an EFI runtime region at 0x%llx of %llu pages lies beyond "
			     "physical memory; ignored", (unsigned long long)start,
			     (unsigned long long)pages);
			continue;
		}
		p->bi->efi_runtime_regions++;
		if (start + (pages << 12) > p->bi->efi_runtime_end)
			p->bi->efi_runtime_end = start + (pages << 12);
	}
}

// The tag's bytes after its header are a copy of the RSDP: keep as much of
// it as struct bootinfo_rsdp holds (more is a later ACPI's extension).
static void acpi_rsdp(const struct parser *p, struct bootinfo_rsdp *r, uint64_t tag, uint32_t size)
{
	size_t n = size - 8 < BOOTINFO_RSDP_MAX ? size - 8 : BOOTINFO_RSDP_MAX;

	if (!rd(p, tag + 8, r->bytes, n)) {
		warn(p, "multiboot2: the ACPI RSDP tag at 0x%llx cannot be read; ignored",
		     (unsigned long long)tag);
		n = 0;
	}
	r->len = (uint8_t)n;
}

// Tag 13: the version, six reserved bytes, then a copy of the entry point.
static void smbios_tag(const struct parser *p, uint64_t tag, uint32_t size)
{
	struct bootinfo_smbios *t = &p->bi->smbios;
	uint8_t v[2];
	size_t n = size < 16 ? 0 : size - 16 < BOOTINFO_SMBIOS_MAX ? size - 16 : BOOTINFO_SMBIOS_MAX;

	if (n == 0 || !rd(p, tag + 8, v, 2) || !rd(p, tag + 16, t->bytes, n)) {
		warn(p, "multiboot2: the SMBIOS tag at 0x%llx cannot be read; ignored",
		     (unsigned long long)tag);
		t->len = 0;
		return;
	}
	t->major = v[0];
	t->minor = v[1];
	t->len = (uint8_t)n;
}

static void parse_mb2(const struct parser *p, uint64_t mbi)
{
	struct bootinfo *bi = p->bi;
	bool ok = true;
	uint32_t total = rd32(p, mbi, &ok);
	uint32_t lower = 0, upper = 0;
	bool meminfo = false;

	// Sizes are compared with the room left, never added to an address:
	// a structure near the top of the address space must not wrap.
	if (!ok || total < 16 || total > INFO_MAX_SIZE || total > UINT64_MAX - mbi) {
		warn(p, "multiboot2: information size %u is implausible", total);
		return;
	}
	uint64_t end = mbi + total;
	bi->info_start = mbi;
	bi->info_end = end;
	for (uint64_t tag = mbi + 8; end - tag >= 8;) {
		uint32_t type = rd32(p, tag, &ok), size = rd32(p, tag + 4, &ok);
		if (!ok || type == MB2_TAG_END)
			break;
		if (size < 8 || size > end - tag) {
			warn(p, "multiboot2: tag %u at 0x%llx has size %u beyond the structure; "
			     "ignoring the rest", type, (unsigned long long)tag, size);
			break;
		}
		switch (type) {
		case MB2_TAG_CMDLINE:
			copy_cmdline(p, tag + 8, size - 8);
			break;
		case MB2_TAG_LOADER:
			copy_string(p, bi->loader, sizeof(bi->loader), tag + 8, size - 8);
			break;
		case MB2_TAG_MEMINFO:
			if (size >= 16) {
				meminfo = true;
				lower = rd32(p, tag + 8, &ok);
				upper = rd32(p, tag + 12, &ok);
			}
			break;
		case MB2_TAG_MMAP:
			if (size >= 16)
				parse_mb2_mmap(p, tag, size);
			break;
		case MB2_TAG_FRAMEBUFFER:
			if (size >= 30)
				framebuffer(p, tag + 8, FB_MB2_COLOR_AT, size >= FB_MB2_RGB_TAG_SIZE);
			break;
		case MB2_TAG_EFI32:
			bi->efi = true;
			if (size >= 12)
				bi->efi_systab = rd32(p, tag + 8, &ok);
			bi->efi64 = false;
			break;
		case MB2_TAG_EFI64:
			bi->efi = true;
			if (size >= 16)
				bi->efi_systab = rd64(p, tag + 8, &ok);
			bi->efi64 = true;
			break;
		case MB2_TAG_EFI_MMAP:
			if (size >= 16)
				efi_mmap_tag(p, tag, size);
			break;
		case MB2_TAG_SMBIOS:
			smbios_tag(p, tag, size);
			break;
		case MB2_TAG_ACPI_OLD:
			acpi_rsdp(p, &bi->acpi_old, tag, size);
			break;
		case MB2_TAG_ACPI_NEW:
			acpi_rsdp(p, &bi->acpi_new, tag, size);
			break;
		}
		uint64_t step = ((uint64_t)size + 7) & ~(uint64_t)7;
		if (step > end - tag)
			break;		// the last tag's padding
		tag += step;
	}
	if (bi->nmmap == 0 && meminfo && ok)
		meminfo_entries(bi, lower, upper);
}

bool bootinfo_parse(struct bootinfo *bi, uint32_t magic, uint64_t info, bootinfo_read_fn read,
		    bootinfo_warn_fn warn_fn, void *ctx)
{
	struct parser p = { bi, read, warn_fn, ctx };

	mem_set(bi, 0, sizeof(*bi));
	bi->protocol = magic == MB2_BOOT_MAGIC ? 2 : 1;
	if (info == 0 || (info & 3) != 0) {
		warn(&p, "multiboot: information pointer 0x%llx is invalid", (unsigned long long)info);
		return false;
	}
	if (bi->protocol == 2)
		parse_mb2(&p, info);
	else
		parse_mb1(&p, info);
	if (bi->mmap_dropped)
		warn(&p, "multiboot: the memory map has %zu more entries than the %u ramsift keeps; "
		     "the RAM they describe is not tested", bi->mmap_dropped, BOOTINFO_MMAP_MAX);
	return bi->nmmap > 0;
}
