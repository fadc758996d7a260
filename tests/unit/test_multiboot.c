// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/boot/multiboot.c: well-formed Multiboot 1 and 2 structures
// built in a fake physical memory, each kind of malformed one (the parser must
// warn and keep what it read safely), and random bytes (it must never read
// outside what the reader offers or overflow its own tables).
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "boot/multiboot.h"
#include "memstr.h"

#define WARNING_LEN BOOTINFO_WARNING_LEN
#include "warnings.h"

#define MEM_BASE 0x10000u
#define MEM_SIZE 0x40000u

static uint8_t mem[MEM_SIZE];

static bool read_fake(void *ctx, uint64_t addr, void *buf, size_t n)
{
	(void)ctx;
	if (addr < MEM_BASE || addr - MEM_BASE > MEM_SIZE || n > MEM_SIZE - (addr - MEM_BASE))
		return false;
	mem_copy(buf, mem + (addr - MEM_BASE), n);
	return true;
}

static void put32(uint64_t addr, uint32_t v) { mem_copy(mem + addr - MEM_BASE, &v, 4); }
static void put64(uint64_t addr, uint64_t v) { mem_copy(mem + addr - MEM_BASE, &v, 8); }
static void put_str(uint64_t addr, const char *s) { mem_copy(mem + addr - MEM_BASE, s, str_len(s) + 1); }

static bool parse(struct bootinfo *bi, uint32_t magic, uint64_t info)
{
	warnings_reset();
	return bootinfo_parse(bi, magic, info, read_fake, warning_keep, NULL);
}

// Multiboot 1 at 0x10000: flags, cmdline at 0x11000, loader name at 0x11100,
// map at 0x12000 with entries of the given size field.
static void build_mb1(uint32_t flags, uint32_t entry_size, unsigned entries)
{
	mem_set(mem, 0, sizeof(mem));
	put32(0x10000, flags);
	put32(0x10004, 639);                    // mem_lower KiB
	put32(0x10008, 130048);                 // mem_upper KiB
	put32(0x10010, 0x11000);
	put_str(0x11000, "/boot/ramsift.elf passes=2");
	put32(0x10040, 0x11100);
	put_str(0x11100, "GRUB 2.06");
	put32(0x1002c, entries * (entry_size + 4));
	put32(0x10030, 0x12000);
	for (unsigned i = 0; i < entries; i++) {
		uint64_t e = 0x12000 + i * (entry_size + 4);
		put32(e, entry_size);
		put64(e + 4, (uint64_t)i << 20);
		put64(e + 12, 1 << 20);
		put32(e + 20, i % 2 ? 2 : 1);
	}
}

static void test_mb1(void **state)
{
	struct bootinfo *bi = malloc(sizeof(*bi));
	(void)state;

	build_mb1((1 << 0) | (1 << 2) | (1 << 6) | (1 << 9), 20, 3);
	assert_true(parse(bi, MB1_BOOT_MAGIC, 0x10000));
	assert_int_equal(warns.count, 0);
	assert_int_equal(bi->protocol, 1);
	assert_string_equal(bi->cmdline, "/boot/ramsift.elf passes=2");
	assert_string_equal(bi->loader, "GRUB 2.06");
	assert_int_equal(bi->nmmap, 3);
	assert_int_equal(bi->mmap[2].base, 2 << 20);
	assert_int_equal(bi->mmap[1].type, 2);
	assert_false(bi->from_meminfo);

	// A larger size field (as the spec allows) is stepped over.
	build_mb1(1 << 6, 28, 5);
	assert_true(parse(bi, MB1_BOOT_MAGIC, 0x10000));
	assert_int_equal(bi->nmmap, 5);
	assert_int_equal(bi->mmap[4].base, 4 << 20);

	// No map: built from mem_lower/mem_upper.
	build_mb1(1 << 0, 20, 0);
	assert_true(parse(bi, MB1_BOOT_MAGIC, 0x10000));
	assert_true(bi->from_meminfo);
	assert_int_equal(bi->nmmap, 2);
	assert_int_equal(bi->mmap[1].len, 130048ull << 10);

	// An entry with size < 20 stops the map with a warning.
	build_mb1(1 << 6, 20, 3);
	put32(0x12000 + 24, 4);
	assert_true(parse(bi, MB1_BOOT_MAGIC, 0x10000));
	assert_int_equal(bi->nmmap, 1);
	assert_int_equal(warns.count, 1);
	assert_true(has(warns.last, "size 4 (< 20)"));

	// Map and strings pointing outside readable memory: nothing read, no crash.
	build_mb1((1 << 2) | (1 << 6) | (1 << 9), 20, 3);
	put32(0x10010, 0xfffffff0);
	put32(0x10030, 0x7ffff000);
	assert_false(parse(bi, MB1_BOOT_MAGIC, 0x10000));
	assert_string_equal(bi->cmdline, "");
	assert_int_equal(bi->nmmap, 0);

	// An implausible map length is clipped with a warning.
	build_mb1(1 << 6, 20, 3);
	put32(0x1002c, 0xffffffff);
	parse(bi, MB1_BOOT_MAGIC, 0x10000);
	assert_true(has(warns.first, "memory map length 4294967295 is implausible"));

	// A 16-bit RGB framebuffer (flag 12): its colour fields follow the type
	// at offset 110 (Multiboot 1 spec 3.3).
	build_mb1((1 << 6) | (1 << 12), 20, 1);
	put64(0x10058, 0xfd000000);
	put32(0x10060, 2048);
	put32(0x10064, 1024);
	put32(0x10068, 768);
	mem_copy(mem + 0x1006c - MEM_BASE, (const uint8_t[8]){ 16, 1, 11, 5, 5, 6, 0, 5 }, 8);
	assert_true(parse(bi, MB1_BOOT_MAGIC, 0x10000));
	assert_int_equal(warns.count, 0);
	assert_int_equal(bi->fb.kind, FB_RGB);
	assert_int_equal(bi->fb.addr, 0xfd000000);
	assert_int_equal(bi->fb.pitch, 2048);
	assert_int_equal(bi->fb.width, 1024);
	assert_int_equal(bi->fb.height, 768);
	assert_int_equal(bi->fb.bpp, 16);
	assert_int_equal(bi->fb.red_pos, 11);
	assert_int_equal(bi->fb.red_size, 5);
	assert_int_equal(bi->fb.green_pos, 5);
	assert_int_equal(bi->fb.green_size, 6);
	assert_int_equal(bi->fb.blue_pos, 0);
	assert_int_equal(bi->fb.blue_size, 5);

	// Misaligned or null information pointers are refused.
	assert_false(parse(bi, MB1_BOOT_MAGIC, 0x10002));
	assert_false(parse(bi, MB1_BOOT_MAGIC, 0));
	assert_int_equal(warns.count, 1);
	free(bi);
}

// Multiboot 2 at 0x10000 with the given tags; returns the end.
static uint64_t tag(uint64_t at, uint32_t type, uint32_t size)
{
	put32(at, type);
	put32(at + 4, size);
	return at + ((size + 7) & ~7u);
}

static void build_mb2_acpi(unsigned map_entries, bool acpi)
{
	uint64_t t = 0x10008;

	mem_set(mem, 0, sizeof(mem));
	put_str(t + 8, "ramsift.elf console=ttyS0");
	t = tag(t, 1, 8 + 26);
	put_str(t + 8, "GRUB 2.06-13");
	t = tag(t, 2, 8 + 13);
	put32(t + 8, 24);                       // entry size
	put32(t + 12, 0);                       // entry version
	for (unsigned i = 0; i < map_entries; i++) {
		put64(t + 16 + i * 24, (uint64_t)i << 21);
		put64(t + 16 + i * 24 + 8, 1 << 21);
		put32(t + 16 + i * 24 + 16, 1);
	}
	t = tag(t, 6, 16 + map_entries * 24);
	put64(t + 8, 0x80000000);               // framebuffer
	put32(t + 16, 5120);
	put32(t + 20, 1280);
	put32(t + 24, 800);
	mem[t + 28 - MEM_BASE] = 32;
	mem[t + 29 - MEM_BASE] = 1;
	mem_copy(mem + t + 32 - MEM_BASE, (const uint8_t[6]){ 16, 8, 8, 8, 0, 8 }, 6);
	t = tag(t, 8, 38);
	put64(t + 8, 0x7fb3e018);
	t = tag(t, 12, 16);                     // EFI 64-bit system table
	if (acpi) {
		mem[t + 8 - MEM_BASE] = 3;      // SMBIOS 3.0: the version, 6 reserved
		mem[t + 9 - MEM_BASE] = 0;      // bytes, then the entry point
		put_str(t + 16, "_SM3_ entry point");
		t = tag(t, 13, 16 + 24);
		put_str(t + 8, "RSD PTR old");  // ACPI RSDP copies: 20 and 36 bytes
		t = tag(t, 14, 8 + 20);
		put_str(t + 8, "RSD PTR new");
		put32(t + 8 + 32, 0xdeadbeef);
		t = tag(t, 15, 8 + 36);
	}
	t = tag(t, 0, 8);
	put32(0x10000, (uint32_t)(t - 0x10000));
}

static void build_mb2(unsigned map_entries)
{
	build_mb2_acpi(map_entries, true);
}

static void test_mb2(void **state)
{
	struct bootinfo *bi = malloc(sizeof(*bi));
	(void)state;

	build_mb2(4);
	assert_true(parse(bi, MB2_BOOT_MAGIC, 0x10000));
	assert_int_equal(warns.count, 0);
	assert_int_equal(bi->protocol, 2);
	assert_string_equal(bi->cmdline, "ramsift.elf console=ttyS0");
	assert_string_equal(bi->loader, "GRUB 2.06-13");
	assert_int_equal(bi->nmmap, 4);
	assert_int_equal(bi->mmap[3].base, 3 << 21);
	assert_int_equal(bi->fb.kind, FB_RGB);
	assert_int_equal(bi->fb.addr, 0x80000000);
	assert_int_equal(bi->fb.pitch, 5120);
	assert_int_equal(bi->fb.width, 1280);
	assert_int_equal(bi->fb.height, 800);
	assert_int_equal(bi->fb.bpp, 32);
	assert_int_equal(bi->fb.red_pos, 16);
	assert_int_equal(bi->fb.red_size, 8);
	assert_int_equal(bi->fb.green_pos, 8);
	assert_int_equal(bi->fb.green_size, 8);
	assert_int_equal(bi->fb.blue_pos, 0);
	assert_int_equal(bi->fb.blue_size, 8);
	assert_true(bi->efi);
	assert_true(bi->efi64);
	assert_int_equal(bi->efi_systab, 0x7fb3e018);
	assert_int_equal(bi->smbios.len, 24);
	assert_int_equal(bi->smbios.major, 3);
	assert_string_equal((const char *)bi->smbios.bytes, "_SM3_ entry point");
	assert_int_equal(bi->acpi_old.len, 20);
	assert_string_equal((const char *)bi->acpi_old.bytes, "RSD PTR old");
	assert_int_equal(bi->acpi_new.len, 36);
	assert_string_equal((const char *)bi->acpi_new.bytes, "RSD PTR new");
	assert_memory_equal(bi->acpi_new.bytes + 32, "\xef\xbe\xad\xde", 4);

	// An RGB framebuffer tag too short for its colour fields is ignored
	// with a warning (the fields are not read from the next tag).
	build_mb2(4);
	uint64_t fbtag = 0x10008 + 40 + 24 + 16 + 4 * 24;	// after cmdline, loader, map
	assert_int_equal(mem[fbtag - MEM_BASE], MB2_TAG_FRAMEBUFFER);
	put32(fbtag + 4, 32);
	assert_true(parse(bi, MB2_BOOT_MAGIC, 0x10000));
	assert_int_equal(bi->fb.kind, FB_NONE);
	assert_true(has(warns.first, "colour fields are missing"));

	// More entries than ramsift keeps: counted and warned, never overflowed.
	build_mb2(BOOTINFO_MMAP_MAX + 10);
	assert_true(parse(bi, MB2_BOOT_MAGIC, 0x10000));
	assert_int_equal(bi->nmmap, BOOTINFO_MMAP_MAX);
	assert_int_equal(bi->mmap_dropped, 10);
	assert_true(has(warns.last, "10 more entries"));

	// A tag running past the declared total stops the walk with a warning.
	build_mb2(4);
	put32(0x10008 + 4, 0x100000);
	assert_false(parse(bi, MB2_BOOT_MAGIC, 0x10000));
	assert_true(has(warns.last, "beyond the structure"));

	// An implausible total size.
	build_mb2(4);
	put32(0x10000, 0xfffffff0);
	assert_false(parse(bi, MB2_BOOT_MAGIC, 0x10000));
	assert_true(has(warns.last, "implausible"));

	// A map whose entry size is too small.
	build_mb2(4);
	put32(0x10008 + 40 + 24 + 8, 8);
	parse(bi, MB2_BOOT_MAGIC, 0x10000);
	assert_int_equal(bi->nmmap, 0);
	assert_true(has(warns.last, "entry size 8 is invalid"));
	assert_int_equal(bi->acpi_new.len, 36);	// the tags after the map still count

	// No ACPI or SMBIOS tags: nothing recorded.
	build_mb2_acpi(4, false);
	assert_true(parse(bi, MB2_BOOT_MAGIC, 0x10000));
	assert_int_equal(bi->acpi_old.len, 0);
	assert_int_equal(bi->acpi_new.len, 0);
	assert_int_equal(bi->smbios.len, 0);

	// A 2.x entry point (31 bytes) in tag 13, a 32-bit EFI system table.
	build_mb2_acpi(1, false);
	uint64_t t = 0x10008;
	while (mem[t - MEM_BASE] != 12)
		t += (mem[t + 4 - MEM_BASE] + 7) & ~7u;
	put32(t, 11);
	put32(t + 4, 12);
	put32(t + 8, 0x7f00e000);
	put32(t + 16, 13);
	put32(t + 20, 16 + 31);
	put_str(t + 32, "_SM_");
	put32(t + 16 + 48, 0);
	put32(t + 16 + 52, 8);
	put32(0x10000, (uint32_t)(t + 16 + 56 - 0x10000));
	assert_true(parse(bi, MB2_BOOT_MAGIC, 0x10000));
	assert_true(bi->efi);
	assert_false(bi->efi64);
	assert_int_equal(bi->efi_systab, 0x7f00e000);
	assert_int_equal(bi->smbios.len, 31);
	assert_string_equal((const char *)bi->smbios.bytes, "_SM_");

	// A tag 13 too short for any entry point: ignored, warned about.
	put32(t + 20, 16);
	put32(t + 32, 0);
	put32(t + 36, 8);
	put32(0x10000, (uint32_t)(t + 40 - 0x10000));
	assert_true(parse(bi, MB2_BOOT_MAGIC, 0x10000));
	assert_int_equal(bi->smbios.len, 0);
	assert_true(has(warns.last, "the SMBIOS tag at"));
	free(bi);
}

// Tag 17, the firmware's own map: only its runtime regions count, the
// highest one's end kept; a descriptor size too small drops the tag.
static void test_mb2_efi_mmap(void **state)
{
	struct bootinfo *bi = malloc(sizeof(*bi));
	static const struct { uint64_t start, pages, attr; } d[] = {
		{ 0x100000, 16, 0xf },				// conventional: not runtime
		{ 0x7f000000, 32, 0x800000000000000full },	// runtime code
		{ 0xffc00000, 1024, 0x8000000000000001ull },	// the flash, runtime MMIO
		{ 0x7e000000, 0, 0x8000000000000000ull },	// empty: ignored
		{ 1ull << 52, 1, 0x8000000000000000ull },	// beyond memory: warned
	};
	uint64_t t = 0x10008;
	(void)state;

	mem_set(mem, 0, sizeof(mem));
	put32(t + 8, 48);				// descriptor size, as OVMF's
	for (unsigned i = 0; i < 5; i++) {
		put64(t + 16 + i * 48 + 8, d[i].start);
		put64(t + 16 + i * 48 + 24, d[i].pages);
		put64(t + 16 + i * 48 + 32, d[i].attr);
	}
	t = tag(t, MB2_TAG_EFI_MMAP, 16 + 5 * 48);
	t = tag(t, 0, 8);
	put32(0x10000, (uint32_t)(t - 0x10000));
	parse(bi, MB2_BOOT_MAGIC, 0x10000);
	assert_int_equal(bi->efi_runtime_regions, 2);
	assert_int_equal(bi->efi_runtime_end, 0x100000000ull);
	assert_true(has(warns.last, "lies beyond physical memory"));

	put32(0x10008 + 8, 32);
	parse(bi, MB2_BOOT_MAGIC, 0x10000);
	assert_int_equal(bi->efi_runtime_regions, 0);
	assert_true(has(warns.last, "descriptor size 32 is invalid"));
	free(bi);
}

// Multiboot 2 information in the last 64 bytes of the address space (found
// by fuzz_multiboot): a tag of size 0xffffffff made the walk add 0 to its
// address forever, and a total reaching past 2^64 wrapped.
#define TOP_BASE (UINT64_MAX - 63)
static uint8_t top[64];

static bool read_top(void *ctx, uint64_t addr, void *buf, size_t n)
{
	(void)ctx;
	if (addr < TOP_BASE || n > sizeof(top) - (addr - TOP_BASE))
		return false;
	mem_copy(buf, top + (addr - TOP_BASE), n);
	return true;
}

static void test_mb2_top(void **state)
{
	struct bootinfo *bi = malloc(sizeof(*bi));
	(void)state;
	mem_set(top, 0, sizeof(top));
	top[0] = 24;				// total
	top[8] = MB2_TAG_CMDLINE;
	mem_set(top + 12, 0xff, 4);		// size 0xffffffff
	warnings_reset();
	assert_false(bootinfo_parse(bi, MB2_BOOT_MAGIC, TOP_BASE, read_top, warning_keep, NULL));
	assert_true(has(warns.last, "has size 4294967295 beyond the structure"));
	top[0] = 80;				// past the end of the address space
	assert_false(bootinfo_parse(bi, MB2_BOOT_MAGIC, TOP_BASE, read_top, warning_keep, NULL));
	assert_true(has(warns.last, "information size 80 is implausible"));
	free(bi);
}

// A command line longer than ramsift keeps: the word the cut would split is
// dropped whole ("errors=100" must not become "errors=10") and the warning
// says from where; with the cut between words, nothing more is dropped.
static void test_cmdline_too_long(void **state)
{
	struct bootinfo *bi = malloc(sizeof(*bi));
	char line[3000];
	size_t pad = BOOTINFO_CMDLINE_MAX - 1 - 8;	// "errors=100" straddles the cut
	(void)state;

	mem_set(line, 'x', pad);
	line[0] = 'a';
	line[1] = '=';
	line[pad - 1] = ' ';
	snprintf(line + pad, sizeof(line) - pad, "errors=100 onexit=qemu");
	build_mb1(1 << 2, 20, 0);
	put_str(0x11000, line);
	parse(bi, MB1_BOOT_MAGIC, 0x10000);
	assert_int_equal(str_len(bi->cmdline), pad);
	assert_true(bi->cmdline[pad - 1] == ' ');
	if (!has(warns.first, "command line longer than 2047 bytes; ignored from 'errors=100 onexit=qemu...'"))
		fail_msg("warning: %s", warns.first);

	line[pad - 1] = 'x';	// the cut now falls right before a blank
	line[BOOTINFO_CMDLINE_MAX - 1] = ' ';
	snprintf(line + BOOTINFO_CMDLINE_MAX, sizeof(line) - BOOTINFO_CMDLINE_MAX, "\x1b[2J");
	put_str(0x11000, line);
	parse(bi, MB1_BOOT_MAGIC, 0x10000);
	assert_int_equal(str_len(bi->cmdline), BOOTINFO_CMDLINE_MAX - 1);
	if (!has(warns.first, "ignored from '\\x1b[2J...'"))
		fail_msg("warning: %s", warns.first);
	free(bi);
}

// Random bytes as either protocol, at random places: never a crash (ASan),
// never more entries than kept, strings always terminated.
static void test_fuzz(void **state)
{
	struct bootinfo *bi = malloc(sizeof(*bi));
	uint64_t x = 0x9e3779b97f4a7c15ull;
	(void)state;

	for (int round = 0; round < 3000; round++) {
		for (size_t i = 0; i < MEM_SIZE; i += 8) {
			x ^= x << 13; x ^= x >> 7; x ^= x << 17;
			uint64_t v = round % 3 ? x : x & 0x0000003f0001ffffull;  // small values too
			mem_copy(mem + i, &v, 8);
		}
		uint64_t info = MEM_BASE + ((x >> 20) % MEM_SIZE & ~3ull);
		parse(bi, round % 2 ? MB1_BOOT_MAGIC : MB2_BOOT_MAGIC, info);
		assert_true(bi->nmmap <= BOOTINFO_MMAP_MAX);
		assert_true(str_len(bi->cmdline) < BOOTINFO_CMDLINE_MAX);
		assert_true(str_len(bi->loader) < BOOTINFO_NAME_MAX);
	}
	free(bi);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mb1),
		cmocka_unit_test(test_mb2),
		cmocka_unit_test(test_mb2_efi_mmap),
		cmocka_unit_test(test_cmdline_too_long),
		cmocka_unit_test(test_mb2_top),
		cmocka_unit_test(test_fuzz),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
