// SPDX-License-Identifier: GPL-2.0-or-later
// Writes the seed corpus of tests/fuzz/fuzz_multiboot.c into the folder
// named on the command line (make fuzz-multiboot-seeds:
// tests/fuzz/corpus/multiboot/): the information structures that ramsift's
// loaders hand over, laid out as they lay them out, with the memory map of
// QEMU 7.2's pc machine with 256 MiB (SeaBIOS's e820) or an OVMF-like one:
// QEMU -kernel's Multiboot 1 (memory, command line, map, loader name),
// GRUB's Multiboot 1 with an RGB framebuffer, GRUB's Multiboot 2 on BIOS
// (an EGA text framebuffer, the ACPI 1.0 RSDP and SMBIOS 2.8 copies) and on
// UEFI (the EFI system table, an RGB framebuffer, the ACPI 2.0 RSDP). Each
// is placed at the harness's IMAGE_LOW with the control byte that selects
// its protocol (see fuzz_multiboot.c for the input format).
// usage: multiboot-seeds DIR
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IMAGE_LOW	0x10000u
#define IMAGE_MAX	0x2000u
#define CTL_MB1		0x00
#define CTL_MB2		0x01

static uint8_t img[IMAGE_MAX];
static size_t used;

static void put32(size_t off, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		img[off + i] = (uint8_t)(v >> 8 * i);
}

static void put64(size_t off, uint64_t v)
{
	put32(off, (uint32_t)v);
	put32(off + 4, (uint32_t)(v >> 32));
}

static void put_bytes(size_t off, const void *p, size_t n)
{
	if (off + n > IMAGE_MAX) {
		fprintf(stderr, "multiboot-seeds: image full\n");
		exit(1);
	}
	memcpy(img + off, p, n);
	if (off + n > used)
		used = off + n;
}

static void save(const char *dir, const char *name, uint8_t ctl)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	if (!f || fputc(ctl, f) == EOF || fwrite(img, 1, used, f) != used || fclose(f) != 0) {
		perror(path);
		exit(1);
	}
}

static void start(size_t n)
{
	memset(img, 0, sizeof(img));
	used = n;
}

struct e820 {
	uint64_t base, len;
	uint32_t type;
};

// QEMU 7.2, -M pc -m 256: SeaBIOS's e820.
static const struct e820 qemu_pc[] = {
	{ 0, 0x9fc00, 1 },        { 0x9fc00, 0x400, 2 },      { 0xf0000, 0x10000, 2 },
	{ 0x100000, 0xfee0000, 1 }, { 0xffe0000, 0x20000, 2 }, { 0xfeffc000, 0x4000, 2 },
	{ 0xfffc0000, 0x40000, 2 },
};

// OVMF with 512 MiB, shortened: boot services data reclaimed, ACPI tables,
// NVS, the flash.
static const struct e820 ovmf[] = {
	{ 0, 0xa0000, 1 },           { 0x100000, 0x700000, 1 },   { 0x800000, 0x8000, 4 },
	{ 0x808000, 0x8000, 1 },     { 0x810000, 0xf0000, 4 },    { 0x900000, 0x1e5e1000, 1 },
	{ 0x1eee1000, 0x20000, 2 },  { 0x1ef01000, 0xb000, 3 },   { 0x1ef0c000, 0x4000, 4 },
	{ 0x1ef10000, 0x10e0000, 1 }, { 0x1fff0000, 0x10000, 2 }, { 0xffc00000, 0x400000, 2 },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

// Multiboot 1 (spec 3.3): the fixed part at 0, the strings and the map
// after it, pointed to by absolute addresses. fb: GRUB's RGB framebuffer.
static void mb1(const char *cmdline, const char *loader, const struct e820 *map, size_t n, int fb)
{
	uint32_t flags = 1u << 0 | 1u << 2 | 1u << 6 | 1u << 9;
	size_t at = 0x100;

	start(116);
	put32(4, 639);                       // mem_lower, KiB
	put32(8, (uint32_t)(map[3].len >> 10)); // mem_upper: from 1 MiB
	put_bytes(at, cmdline, strlen(cmdline) + 1);
	put32(16, IMAGE_LOW + (uint32_t)at);
	at += (strlen(cmdline) + 16) & ~(size_t)15;
	put_bytes(at, loader, strlen(loader) + 1);
	put32(64, IMAGE_LOW + (uint32_t)at);
	at += (strlen(loader) + 16) & ~(size_t)15;
	put32(44, (uint32_t)(n * 24));
	put32(48, IMAGE_LOW + (uint32_t)at);
	for (size_t i = 0; i < n; i++, at += 24) {
		put32(at, 20);
		put64(at + 4, map[i].base);
		put64(at + 12, map[i].len);
		put32(at + 20, map[i].type);
		used = at + 24;
	}
	if (fb) {
		flags |= 1u << 12;
		put64(88, 0xfd000000);
		put32(96, 4096);
		put32(100, 1024);
		put32(104, 768);
		img[108] = 32;
		img[109] = 1;
		memcpy(img + 110, (const uint8_t[6]){ 16, 8, 8, 8, 0, 8 }, 6);
	}
	put32(0, flags);
}

static size_t tag(size_t at, uint32_t type, const void *body, size_t n)
{
	put32(at, type);
	put32(at + 4, (uint32_t)(8 + n));
	if (n)
		put_bytes(at + 8, body, n);
	else
		used = at + 8 > used ? at + 8 : used;
	return at + ((8 + n + 7) & ~(size_t)7);
}

static size_t map_tag(size_t at, const struct e820 *map, size_t n)
{
	uint8_t body[8 + 24 * 16] = { 0 };
	body[0] = 24;
	for (size_t i = 0; i < n; i++) {
		uint8_t *e = body + 8 + 24 * i;
		for (int b = 0; b < 8; b++) {
			e[b] = (uint8_t)(map[i].base >> 8 * b);
			e[8 + b] = (uint8_t)(map[i].len >> 8 * b);
		}
		e[16] = (uint8_t)map[i].type;
	}
	return tag(at, 6, body, 8 + 24 * n);
}

static const uint8_t rsdp_v1[20] = { 'R', 'S', 'D', ' ', 'P', 'T', 'R', ' ', 0x5c, 'B', 'O', 'C',
				     'H', 'S', ' ', 0, 0x38, 0x66, 0xfe, 0x0f };
static const uint8_t smbios28[31] = { '_', 'S', 'M', '_', 0x26, 0x1f, 2, 8, 0x20, 0, 0, 0, 0, 0,
				      0, 0, '_', 'D', 'M', 'I', '_', 0x6b, 0xa3, 0x01, 0x40, 0xf5,
				      0x0f, 0x00, 0x0a, 0x00, 0x28 };

// Multiboot 2 (spec 3.6) as GRUB 2.06 on BIOS gives it.
static void mb2_bios(void)
{
	static const char cmd[] = "/boot/ramsift.elf console=ttyS0,115200 onexit=qemu";
	static const char loader[] = "GRUB 2.06-13+deb12u1";
	uint8_t meminfo[8] = { 0x7f, 0x02, 0, 0, 0x80, 0xfb, 0x03, 0 };
	uint8_t fb[22] = { 0 }, smbios[8 + 31] = { 2, 8 };
	size_t at = 8;

	start(8);
	at = tag(at, 1, cmd, sizeof(cmd));
	at = tag(at, 2, loader, sizeof(loader));
	at = tag(at, 4, meminfo, sizeof(meminfo));
	at = map_tag(at, qemu_pc, N(qemu_pc));
	fb[2] = 0x0b;			// 0xb8000
	fb[1] = 0x80;
	fb[8] = 160;			// pitch
	fb[12] = 80;			// width, height in characters
	fb[16] = 25;
	fb[20] = 16;			// bpp
	fb[21] = 2;			// EGA text
	at = tag(at, 8, fb, sizeof(fb));
	memcpy(smbios + 8, smbios28, sizeof(smbios28));
	at = tag(at, 13, smbios, sizeof(smbios));
	at = tag(at, 14, rsdp_v1, sizeof(rsdp_v1));
	at = tag(at, 0, NULL, 0);
	put32(0, (uint32_t)at);
}

// Multiboot 2 as GRUB 2.06 on UEFI (OVMF) gives it: no meminfo, a 64-bit
// EFI system table, an RGB framebuffer, the ACPI 2.0 RSDP.
static void mb2_uefi(void)
{
	static const char cmd[] = "/ramsift.elf console=ttyS0 tests=march-c";
	static const char loader[] = "GRUB 2.06-13+deb12u1";
	uint8_t fb[30] = { 0 }, systab[8] = { 0x18, 0xe0, 0xb3, 0x7f };
	uint8_t rsdp_v2[36] = { 'R', 'S', 'D', ' ', 'P', 'T', 'R', ' ', 0, 'B', 'O', 'C', 'H', 'S', ' ', 2,
				0, 0, 0, 0, 36, 0, 0, 0, 0x14, 0xe0, 0x7b, 0x1f };
	size_t at = 8;

	start(8);
	at = tag(at, 1, cmd, sizeof(cmd));
	at = tag(at, 2, loader, sizeof(loader));
	at = tag(at, 12, systab, sizeof(systab));
	at = map_tag(at, ovmf, N(ovmf));
	fb[3] = 0x80;			// 0x80000000
	fb[8] = 0x00;			// pitch 5120
	fb[9] = 0x14;
	fb[12] = 0x00;			// 1280 x 800
	fb[13] = 0x05;
	fb[16] = 0x20;
	fb[17] = 0x03;
	fb[20] = 32;
	fb[21] = 1;
	memcpy(fb + 24, (const uint8_t[6]){ 16, 8, 8, 8, 0, 8 }, 6);
	at = tag(at, 8, fb, sizeof(fb));
	at = tag(at, 15, rsdp_v2, sizeof(rsdp_v2));
	at = tag(at, 0, NULL, 0);
	put32(0, (uint32_t)at);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: multiboot-seeds DIR\n");
		return 2;
	}
	mb1("/boot/ramsift.elf console=ttyS0,115200 onexit=qemu", "qemu", qemu_pc, N(qemu_pc), 0);
	save(argv[1], "mb1-qemu-kernel", CTL_MB1);
	mb1("/boot/ramsift.elf", "GRUB 2.06-13+deb12u1", qemu_pc, N(qemu_pc), 1);
	save(argv[1], "mb1-grub-rgb", CTL_MB1);
	mb2_bios();
	save(argv[1], "mb2-grub-bios", CTL_MB2);
	mb2_uefi();
	save(argv[1], "mb2-grub-uefi", CTL_MB2);
	return 0;
}
