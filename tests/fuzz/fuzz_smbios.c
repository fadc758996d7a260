// SPDX-License-Identifier: GPL-2.0-or-later
// The fuzz target of lib/boot/smbios.c: an image of the SMBIOS scan's area
// with the entry point at its start, reached by the scan, the Multiboot 2
// tag or an EFI system table, a table pointer inside the image leading to
// bytes of the input and everything else unreadable. After the parse what
// smbios.h promises is checked (abort() if not); the input format and the
// checks are above LLVMFuzzerTestOneInput. Built by clang with
// -fsanitize=fuzzer (make fuzz-smbios), or by gcc with tests/fuzz/replay.c's
// main to replay a corpus (make check-fuzz-corpus).
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "boot/smbios.h"
#include "memstr.h"	// lib's (lib/ is on the quote path only)
#include "warnings.h"

#define IMAGE_BASE	0xf0000u
#define IMAGE_MAX	0x10000u
#define SYSTAB_AT	0x7f000000u
#define CTL_FIX_SUMS	0x01
#define CTL_TAG		0x02
#define CTL_EFI		0x04
#define CTL_EFI32	0x08

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t image[IMAGE_MAX];
static size_t image_len;
static uint8_t systab[120 + 24];	// the system table, then one configuration entry
static bool efi32;
static struct fuzz_warnings warnings = { SMBIOS_WARNING_LEN, 0 };

static bool read_image(void *ctx, uint64_t addr, void *buf, size_t n)
{
	(void)ctx;
	if (addr >= IMAGE_BASE && addr - IMAGE_BASE <= image_len && n <= image_len - (addr - IMAGE_BASE)) {
		mem_copy(buf, image + (addr - IMAGE_BASE), n);
		return true;
	}
	if (addr >= SYSTAB_AT && addr - SYSTAB_AT <= sizeof(systab) &&
	    n <= sizeof(systab) - (addr - SYSTAB_AT)) {
		mem_copy(buf, systab + (addr - SYSTAB_AT), n);
		return true;
	}
	return false;
}

static void fix_sum(uint8_t *p, size_t n, size_t where)
{
	uint8_t s = 0;
	p[where] = 0;
	for (size_t i = 0; i < n; i++)
		s += p[i];
	p[where] = (uint8_t)-s;
}

static void fix_sums(void)
{
	if (image_len >= 0x18 && mem_cmp(image, "_SM3_", 5) == 0 && image[6] >= 0x18 &&
	    image[6] <= 0x20 && image[6] <= image_len)
		fix_sum(image, image[6], 5);
	if (image_len >= 0x1f && mem_cmp(image, "_SM_", 4) == 0 && image[5] >= 0x1e &&
	    image[5] <= 0x20 && image[5] <= image_len) {
		fix_sum(image + 16, 15, 5);
		fix_sum(image, image[5], 4);
	}
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

static void make_systab(bool bits32)
{
	static const uint8_t guid3[16] = { 0x44, 0x15, 0xfd, 0xf2, 0x94, 0x97, 0x2c, 0x4a,
					   0x99, 0x2e, 0xe5, 0xbb, 0xcf, 0x20, 0xe3, 0x94 };
	mem_set(systab, 0, sizeof(systab));
	mem_copy(systab, "IBI SYST", 8);
	if (bits32) {
		systab[64] = 1;
		put64(systab + 68, SYSTAB_AT + 120);	// the upper half overwritten below
		mem_set(systab + 72, 0, 4);
		mem_copy(systab + 120, guid3, 16);
		put64(systab + 136, IMAGE_BASE);
	} else {
		systab[104] = 1;
		put64(systab + 112, SYSTAB_AT + 120);
		mem_copy(systab + 120, guid3, 16);
		put64(systab + 136, IMAGE_BASE);
	}
}

static void check_string(const char *s)
{
	size_t n = 0;
	while (n <= SMBIOS_STRING_MAX && s[n])
		n++;
	if (n > SMBIOS_STRING_MAX)
		abort();
}

// An input is one control byte, then a physical memory image loaded at
// 0xF0000. The control byte:
//   bit 0     make the entry point's checksums right first (3.0: over its
//             length; 2.x: the _DMI_ part's and the whole one's), so that
//             mutations get past them;
//   bit 1     also hand the image's first 32 bytes over as the loader's
//             Multiboot 2 tag 13 copy;
//   bit 2     also give an EFI system table (64-bit; bit 3: 32-bit) outside
//             the image whose configuration table points to the image's start
//             under the SMBIOS 3 GUID.
// Checked: no DIMM beyond the capacity, every string terminated within its
// bound, warnings counted right and each a terminated sentence, the lines'
// lengths as their functions say.
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct smbios_info s;
	static struct bootinfo bi;
	static char line[2048];

	if (size == 0)
		return 0;
	uint8_t ctl = data[0];
	image_len = size - 1 < IMAGE_MAX ? size - 1 : IMAGE_MAX;
	mem_copy(image, data + 1, image_len);
	if (ctl & CTL_FIX_SUMS)
		fix_sums();
	mem_set(&bi, 0, sizeof(bi));
	if (ctl & CTL_TAG) {
		bi.smbios.len = image_len < BOOTINFO_SMBIOS_MAX ? (uint8_t)image_len : BOOTINFO_SMBIOS_MAX;
		mem_copy(bi.smbios.bytes, image, bi.smbios.len);
	}
	efi32 = ctl & CTL_EFI32;
	if (ctl & (CTL_EFI | CTL_EFI32)) {
		make_systab(efi32);
		bi.efi = true;
		bi.efi64 = !efi32;
		bi.efi_systab = SYSTAB_AT;
	}
	warnings.count = 0;
	enum smbios_status st = smbios_find(&bi, read_image, fuzz_warning, &warnings, &s);

	if (st != s.status || s.warnings != warnings.count || s.ndimms > SMBIOS_DIMMS_MAX ||
	    (st == SMBIOS_NO_ENTRY) != (s.from == SMBIOS_FROM_NONE) ||
	    (st != SMBIOS_FOUND && (s.structures || s.system || s.ndimms)))
		abort();
	check_string(s.manufacturer);
	check_string(s.product);
	check_string(s.version);
	check_string(s.serial);
	int n = smbios_describe_system(line, sizeof(line), &s);
	if (n < 0 || (size_t)n >= sizeof(line) || str_len(line) != (size_t)n)
		abort();
	for (size_t i = 0; i < s.ndimms; i++) {
		const struct smbios_dimm *d = &s.dimm[i];
		check_string(d->locator);
		check_string(d->bank);
		check_string(d->manufacturer);
		check_string(d->serial);
		check_string(d->part_number);
		if (!d->installed && d->size_mib)
			abort();
		n = smbios_describe_dimm(line, sizeof(line), d);
		if (n < 0 || (size_t)n >= sizeof(line) || str_len(line) != (size_t)n)
			abort();
	}
	// To see what an input does: FUZZ_SMBIOS_VERBOSE=1 (with replay or libFuzzer).
	if (getenv("FUZZ_SMBIOS_VERBOSE")) {
		smbios_describe_system(line, sizeof(line), &s);
		fprintf(stderr, "fuzz_smbios: %s; %zu DIMMs; %zu warnings; %s\n",
			st == SMBIOS_FOUND ? line : smbios_status_text(st), s.ndimms, warnings.count,
			s.from == SMBIOS_FROM_TAG ? "tag" : s.from == SMBIOS_FROM_EFI ? "efi" : "scan");
	}
	return 0;
}
