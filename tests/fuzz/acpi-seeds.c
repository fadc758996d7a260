// SPDX-License-Identifier: GPL-2.0-or-later
// Writes the seed corpus of tests/fuzz/fuzz_acpi.c into the folder named on
// the command line (make fuzz-acpi-seeds: tests/fuzz/corpus/acpi/): QEMU's
// pc and q35 tables (tests/unit/fixtures) moved into one image at 0xE0000
// with the RSDP first, and hand-made ones for what QEMU 7.2 never produces:
// an ACPI 2.0 RSDP with an XSDT, x2APIC entries, a Local APIC Address
// Override, online-capable CPUs, more CPUs than a small capacity; a
// revision 5 FADT with its 64-bit fields, a reset register in PCI space and
// a DSDT whose \_S5 takes the root prefix and byte constants. The
// images' checksums are right, and their control bytes ask the target to
// keep them right (see fuzz_acpi.c for the input format).
// usage: acpi-seeds DIR
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/fixtures/acpi_fixture.h"
#include "../unit/fixtures/acpi_qemu_pc_smp4.h"
#include "../unit/fixtures/acpi_qemu_q35_smp4.h"

#define IMAGE_BASE	0xe0000u
#define IMAGE_MAX	32768

static uint8_t img[IMAGE_MAX];
static size_t used;

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

static uint32_t get32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void fix_sum(uint8_t *p, size_t n, size_t where)
{
	uint8_t s = 0;
	p[where] = 0;
	for (size_t i = 0; i < n; i++)
		s += p[i];
	p[where] = (uint8_t)-s;
}

// Room for n bytes in the image, 16-aligned; returns the offset.
static size_t place(size_t n)
{
	size_t off = (used + 15) & ~(size_t)15;
	if (off + n > IMAGE_MAX) {
		fprintf(stderr, "acpi-seeds: image full\n");
		exit(1);
	}
	used = off + n;
	return off;
}

static size_t put_table(const char *sig, uint8_t rev, const uint8_t *body, size_t n)
{
	size_t off = place(36 + n);
	uint8_t *t = img + off;
	memcpy(t, sig, 4);
	put32(t + 4, (uint32_t)(36 + n));
	t[8] = rev;
	memcpy(t + 10, "RAMSFTSEEDTABL", 14);
	memcpy(t + 36, body, n);
	fix_sum(t, 36 + n, 9);
	return off;
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

// The DSDT that the FADT fadt (len bytes, in the image) points to, moved
// into the image and pointed to again (DSDT and X_DSDT).
static void move_dsdt(const struct acpi_fixture *fx, uint8_t *fadt, size_t len)
{
	uint32_t phys = get32(fadt + 40);
	for (const struct acpi_fixture *f = fx; f->sig; f++)
		if (f->phys == phys && strcmp(f->sig, "DSDT") == 0) {
			size_t off = place(f->len);
			memcpy(img + off, f->bytes, f->len);
			put32(fadt + 40, (uint32_t)(IMAGE_BASE + off));
			if (len >= 148) {
				put32(fadt + 140, (uint32_t)(IMAGE_BASE + off));
				put32(fadt + 144, 0);
			}
			fix_sum(fadt, len, 9);
		}
}

// A fixture moved to the image: its RSDP at the start, then its RSDT, then
// the tables the RSDT lists and the FADT's DSDT, the pointers rewritten.
static void from_fixture(const struct acpi_fixture *fx)
{
	const struct acpi_fixture *rsdp = NULL, *rsdt = NULL;
	for (const struct acpi_fixture *f = fx; f->sig; f++) {
		if (strcmp(f->sig, "RSDP") == 0)
			rsdp = f;
		if (strcmp(f->sig, "RSDT") == 0)
			rsdt = f;
	}
	memset(img, 0, sizeof(img));
	used = 0;
	memcpy(img + place(rsdp->len), rsdp->bytes, rsdp->len);
	size_t root = place(rsdt->len);
	memcpy(img + root, rsdt->bytes, rsdt->len);
	for (size_t e = 36; e + 4 <= rsdt->len; e += 4) {
		uint32_t phys = rsdt->bytes[e] | rsdt->bytes[e + 1] << 8 | rsdt->bytes[e + 2] << 16 |
				(uint32_t)rsdt->bytes[e + 3] << 24;
		for (const struct acpi_fixture *f = fx; f->sig; f++)
			if (f->phys == phys) {
				size_t off = place(f->len);
				memcpy(img + off, f->bytes, f->len);
				put32(img + root + e, (uint32_t)(IMAGE_BASE + off));
				if (strcmp(f->sig, "FACP") == 0)
					move_dsdt(fx, img + off, f->len);
			}
	}
	fix_sum(img + root, rsdt->len, 9);
	put32(img + 16, (uint32_t)(IMAGE_BASE + root));
	fix_sum(img, 20, 8);
}

#define LE32(v) (uint8_t)(v), (uint8_t)((v) >> 8), (uint8_t)((v) >> 16), (uint8_t)((v) >> 24)

// An ACPI 2.0 RSDP, an XSDT and an RSDT listing a revision 5 MADT with
// xAPIC and x2APIC CPUs (one online-capable, one unusable, a duplicate) and
// a Local APIC Address Override.
static void handmade(void)
{
	static const uint8_t madt[] = {
		LE32(0xfee00000), LE32(1),
		0, 8, 0, 0, LE32(1),
		0, 8, 1, 1, LE32(1),
		1, 12, 0, 0, LE32(0xfec00000), LE32(0),
		0, 8, 2, 2, LE32(2),
		0, 8, 3, 3, LE32(0),
		9, 16, 0, 0, LE32(256), LE32(1), LE32(4),
		9, 16, 0, 0, LE32(0x12345), LE32(2), LE32(5),
		9, 16, 0, 0, LE32(1), LE32(1), LE32(6),
		5, 12, 0, 0, LE32(0xfee40000), LE32(0),
		4, 6, 0xff, 0, 0, 1,
	};
	uint8_t rsdt[4], xsdt[8] = { 0 };

	memset(img, 0, sizeof(img));
	used = 0;
	size_t rsdp = place(36);
	size_t m = put_table("APIC", 5, madt, sizeof(madt));
	put32(rsdt, (uint32_t)(IMAGE_BASE + m));
	put32(xsdt, (uint32_t)(IMAGE_BASE + m));
	size_t r = put_table("RSDT", 1, rsdt, sizeof(rsdt));
	size_t x = put_table("XSDT", 1, xsdt, sizeof(xsdt));
	memcpy(img + rsdp, "RSD PTR ", 8);
	memcpy(img + rsdp + 9, "RAMSFT", 6);
	img[rsdp + 15] = 2;
	put32(img + rsdp + 16, (uint32_t)(IMAGE_BASE + r));
	put32(img + rsdp + 20, 36);
	put32(img + rsdp + 24, (uint32_t)(IMAGE_BASE + x));
	fix_sum(img + rsdp, 20, 8);
	fix_sum(img + rsdp, 36, 32);
}

// An ACPI 2.0 RSDP whose XSDT lists a revision 5 FADT (276 bytes: X_DSDT,
// X_PM1a and X_PM1b, the reset register in PCI space) and a small MADT; the
// DSDT's \_S5 is Name (\_S5, Package (2) { 5, 5 }) among other AML.
static void handmade_power(void)
{
	static const uint8_t madt[] = { LE32(0xfee00000), LE32(1), 0, 8, 0, 0, LE32(1) };
	static const uint8_t aml[] = {
		0x10, 0x05, '\\', '_', 'S', 'B', '_',
		0x08, '_', 'S', '4', '_', 0x12, 0x06, 0x02, 0x0a, 0x04, 0x0a, 0x04,
		0x08, '\\', '_', 'S', '5', '_', 0x12, 0x06, 0x02, 0x0a, 0x05, 0x0a, 0x05,
		0x14, 0x08, '_', 'P', 'T', 'S', 0x01, 0x70, 0x68, 0x60,
	};
	uint8_t fadt[276 - 36] = { 0 }, xsdt[16];

	memset(img, 0, sizeof(img));
	used = 0;
	size_t rsdp = place(36);
	size_t d = put_table("DSDT", 2, aml, sizeof(aml));
	put32(fadt + 40 - 36, (uint32_t)(IMAGE_BASE + d));
	put32(fadt + 48 - 36, 0xb2);
	fadt[52 - 36] = 0xa0;
	put32(fadt + 64 - 36, 0x1804);
	put32(fadt + 112 - 36, 1u << 10);
	memcpy(fadt + 116 - 36, (const uint8_t[]){ 2, 8, 0, 1, LE32(0xac), LE32(0x1f) }, 12);
	fadt[128 - 36] = 6;
	put32(fadt + 140 - 36, (uint32_t)(IMAGE_BASE + d));
	memcpy(fadt + 172 - 36, (const uint8_t[]){ 1, 16, 0, 2, LE32(0x1804), LE32(0) }, 12);
	memcpy(fadt + 184 - 36, (const uint8_t[]){ 0, 16, 0, 2, LE32(0xfed80404), LE32(0) }, 12);
	size_t f = put_table("FACP", 5, fadt, sizeof(fadt));
	size_t m = put_table("APIC", 5, madt, sizeof(madt));
	memset(xsdt, 0, sizeof(xsdt));
	put32(xsdt, (uint32_t)(IMAGE_BASE + f));
	put32(xsdt + 8, (uint32_t)(IMAGE_BASE + m));
	size_t x = put_table("XSDT", 1, xsdt, sizeof(xsdt));
	memcpy(img + rsdp, "RSD PTR ", 8);
	memcpy(img + rsdp + 9, "RAMSFT", 6);
	img[rsdp + 15] = 2;
	put32(img + rsdp + 20, 36);
	put32(img + rsdp + 24, (uint32_t)(IMAGE_BASE + x));
	fix_sum(img + rsdp, 20, 8);
	fix_sum(img + rsdp, 36, 32);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	from_fixture(acpi_qemu_pc_smp4);
	save(argv[1], "qemu-pc-smp4", 0x01);
	save(argv[1], "qemu-pc-smp4-tag14", 0x05);
	from_fixture(acpi_qemu_q35_smp4);
	save(argv[1], "qemu-q35-smp4", 0x01);
	save(argv[1], "qemu-q35-smp4-cap1", 0x01 | 2 << 3);
	handmade();
	save(argv[1], "xsdt-x2apic", 0x01);
	save(argv[1], "xsdt-x2apic-tag15", 0x03);
	save(argv[1], "xsdt-x2apic-cap4", 0x01 | 3 << 3);
	save(argv[1], "xsdt-x2apic-unfixed", 0x00);
	handmade_power();
	save(argv[1], "xsdt-fadt5-s5", 0x01);
	save(argv[1], "xsdt-fadt5-s5-tag15", 0x03);
	return 0;
}
