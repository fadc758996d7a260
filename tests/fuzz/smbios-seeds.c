// SPDX-License-Identifier: GPL-2.0-or-later
// Writes the seed corpus of tests/fuzz/fuzz_smbios.c into the folder named
// on the command line (make fuzz-smbios-seeds: tests/fuzz/corpus/smbios/):
// QEMU's SMBIOS (tests/unit/fixtures, the 2.x and the 3.0 entry point)
// moved into one image at 0xF0000 with the entry point first and the table
// after it, through each way the target offers (scan, tag, EFI). The
// checksums are right, and the control bytes ask the target to keep them
// right (see fuzz_smbios.c for the input format).
// usage: smbios-seeds DIR
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/fixtures/acpi_fixture.h"
#include "../unit/fixtures/smbios_qemu_pc.h"
#include "../unit/fixtures/smbios_qemu_q35_v3.h"

#define IMAGE_BASE	0xf0000u
#define TABLE_OFF	0x20u

static uint8_t img[4096];
static size_t used;

static void fix_sum(uint8_t *p, size_t n, size_t where)
{
	uint8_t s = 0;
	p[where] = 0;
	for (size_t i = 0; i < n; i++)
		s += p[i];
	p[where] = (uint8_t)-s;
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

static void from_fixture(const struct acpi_fixture *fx)
{
	const struct acpi_fixture *ep = &fx[0], *t = &fx[1];
	uint32_t at = IMAGE_BASE + TABLE_OFF;

	memset(img, 0, sizeof(img));
	if (TABLE_OFF + t->len > sizeof(img)) {
		fprintf(stderr, "smbios-seeds: the table does not fit\n");
		exit(1);
	}
	memcpy(img, ep->bytes, ep->len);
	memcpy(img + TABLE_OFF, t->bytes, t->len);
	used = TABLE_OFF + t->len;
	if (memcmp(ep->bytes, "_SM3_", 5) == 0) {
		memcpy(img + 16, &at, 4);
		memset(img + 20, 0, 4);
		fix_sum(img, img[6], 5);
	} else {
		memcpy(img + 24, &at, 4);
		fix_sum(img + 16, 15, 5);
		fix_sum(img, img[5], 4);
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	from_fixture(smbios_qemu_pc);
	save(argv[1], "qemu-pc-2.8", 0x01);
	save(argv[1], "qemu-pc-2.8-tag", 0x03);
	from_fixture(smbios_qemu_q35_v3);
	save(argv[1], "qemu-q35-3.0", 0x01);
	save(argv[1], "qemu-q35-3.0-efi", 0x05);
	save(argv[1], "qemu-q35-3.0-efi32", 0x09);
	save(argv[1], "qemu-q35-3.0-unfixed", 0x00);
	return 0;
}
