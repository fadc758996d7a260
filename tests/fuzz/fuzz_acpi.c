// SPDX-License-Identifier: GPL-2.0-or-later
// The fuzz target of lib/boot/acpi.c: a BIOS area image with the RSDP at its
// start, every table pointer inside the image leading to bytes of the input
// and everything else (the EBDA pointer included) unreadable, so that
// mutations reach the RSDT, XSDT, MADT, FADT and DSDT walks. After the parse
// what acpi.h promises is checked (abort() if not); the input format and the
// checks are above LLVMFuzzerTestOneInput. Built by clang with
// -fsanitize=fuzzer (make fuzz-acpi), or by gcc with tests/fuzz/replay.c's
// main to replay a corpus (make check-fuzz-corpus).
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "boot/acpi.h"
#include "memstr.h"	// lib's (lib/ is on the quote path only)
#include "warnings.h"

#define IMAGE_BASE	0xe0000u
#define IMAGE_MAX	0x20000u	// to the end of the BIOS area

#define CTL_FIX_SUMS	0x01
#define CTL_TAG_NEW	0x02
#define CTL_TAG_OLD	0x04
#define CTL_CAP_SHIFT	3

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t image[IMAGE_MAX];
static size_t image_len;
static struct fuzz_warnings warnings = { ACPI_WARNING_LEN, 0 };

static bool read_image(void *ctx, uint64_t addr, void *buf, size_t n)
{
	(void)ctx;
	if (addr < IMAGE_BASE || addr - IMAGE_BASE > image_len || n > image_len - (addr - IMAGE_BASE))
		return false;
	mem_copy(buf, image + (addr - IMAGE_BASE), n);
	return true;
}

static uint64_t le(const uint8_t *p, size_t n)
{
	uint64_t v = 0;
	while (n--)
		v = v << 8 | p[n];
	return v;
}

// The image's bytes at physical addr, if n of them are there.
static uint8_t *at(uint64_t addr, size_t n)
{
	if (addr < IMAGE_BASE || addr - IMAGE_BASE > image_len || n > image_len - (addr - IMAGE_BASE))
		return NULL;
	return image + (addr - IMAGE_BASE);
}

static void fix_sum(uint8_t *p, size_t n, size_t where)
{
	uint8_t s = 0;
	p[where] = 0;
	for (size_t i = 0; i < n; i++)
		s += p[i];
	p[where] = (uint8_t)-s;
}

// Fix the checksum of the table at addr if it lies whole in the image;
// returns its length then, else 0.
static uint32_t fix_table(uint64_t addr)
{
	uint8_t *t = at(addr, 36);
	uint32_t len = t ? (uint32_t)le(t + 4, 4) : 0;
	if (!t || len < 36 || !at(addr, len))
		return 0;
	fix_sum(t, len, 9);
	return len;
}

static void fix_root(uint64_t root, size_t esize)
{
	uint8_t *t = at(root, 36);
	uint32_t len = t ? (uint32_t)le(t + 4, 4) : 0;
	if (!t || len < 36 || !at(root, len))
		return;
	for (uint32_t off = 36; off + esize <= len; off += esize) {
		uint64_t table = le(t + off, esize);
		uint8_t *f = at(table, 36);
		uint32_t flen = f ? (uint32_t)le(f + 4, 4) : 0;
		// An FADT's DSDT (X_DSDT and DSDT) before the FADT itself.
		if (f && f[0] == 'F' && f[1] == 'A' && f[2] == 'C' && f[3] == 'P' && flen >= 44 &&
		    at(table, flen)) {
			if (flen >= 148)
				fix_table(le(f + 140, 8));
			fix_table(le(f + 40, 4));
		}
		fix_table(table);
	}
	fix_table(root);
}

static void fix_sums(void)
{
	if (image_len < 20)
		return;
	if (image[15] >= 2 && image_len >= 36) {
		fix_root(le(image + 24, 8), 8);
	}
	fix_root(le(image + 16, 4), 4);
	fix_sum(image, 20, 8);
	if (image[15] >= 2 && image_len >= 36)
		fix_sum(image, 36, 32);
}

// An input is one control byte, then a physical memory image loaded at
// 0xE0000, the start of the BIOS area. The control byte:
//   bit 0     make the checksums right first (the RSDP's two, and those of
//             the RSDT, the XSDT, each table they list and the DSDT an FADT
//             among them points to, when inside the image), so that
//             mutations get past the checksums;
//   bit 1     also hand the image's first 36 bytes over as the loader's
//             Multiboot 2 tag 15 copy; bit 2, its first 20 as tag 14;
//   bits 3-4  the CPU table's capacity: ACPI_CPUS_MAX, 0, 1 or 4.
// Checked: no CPU beyond the capacity or the entries written, no APIC ID
// twice, counts that agree, every warning a terminated sentence, the
// description terminated; then the FADT's power registers are read
// (acpi_find_power): an S5 has its PM1a block, a DSDT and 3-bit sleep types,
// a reset its register, the warnings are counted right, the power line is
// terminated.
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t caps[4] = { ACPI_CPUS_MAX, 0, 1, 4 };
	static struct acpi_cpu cpus[ACPI_CPUS_MAX + 1];
	static struct bootinfo bi;
	struct acpi_result res;
	char line[200];

	if (size == 0)
		return 0;
	uint8_t ctl = data[0];
	size_t cap = caps[(ctl >> CTL_CAP_SHIFT) & 3];
	image_len = size - 1 < IMAGE_MAX ? size - 1 : IMAGE_MAX;
	mem_copy(image, data + 1, image_len);
	if (ctl & CTL_FIX_SUMS)
		fix_sums();
	mem_set(&bi.acpi_new, 0, sizeof(bi.acpi_new));
	mem_set(&bi.acpi_old, 0, sizeof(bi.acpi_old));
	if (ctl & CTL_TAG_NEW) {
		bi.acpi_new.len = image_len < 36 ? (uint8_t)image_len : 36;
		mem_copy(bi.acpi_new.bytes, image, bi.acpi_new.len);
	}
	if (ctl & CTL_TAG_OLD) {
		bi.acpi_old.len = image_len < 20 ? (uint8_t)image_len : 20;
		mem_copy(bi.acpi_old.bytes, image, bi.acpi_old.len);
	}
	mem_set(cpus, 0xa5, sizeof(cpus));
	warnings.count = 0;

	enum acpi_status st = acpi_find_cpus(&bi, read_image, fuzz_warning, &warnings, cpus, cap, &res);

	size_t enabled = 0;
	if (st != res.status || res.ncpus > cap || res.nenabled > res.ncpus || res.warnings != warnings.count ||
	    (st == ACPI_CPUS_FOUND) != (res.nenabled > 0) || res.cap != cap)
		abort();
	for (size_t i = 0; i < res.ncpus; i++) {
		enabled += cpus[i].enabled;
		if (!cpus[i].enabled && !cpus[i].online_capable)
			abort();
		for (size_t j = 0; j < i; j++)
			if (cpus[i].apic_id == cpus[j].apic_id)
				abort();
	}
	if (enabled != res.nenabled)
		abort();
	// The entry after the last written, and everything past the capacity,
	// untouched.
	const uint8_t *rest = (const uint8_t *)&cpus[res.ncpus];
	for (size_t i = 0; i < sizeof(cpus) - res.ncpus * sizeof(cpus[0]); i++)
		if (rest[i] != 0xa5)
			abort();
	if (str_len(acpi_describe_cpus(line, sizeof(line), cpus, &res)) >= sizeof(line) ||
	    str_len(acpi_status_text(st)) == 0)
		abort();
	struct acpi_power pw;
	warnings.count = 0;
	bool any = acpi_find_power(read_image, fuzz_warning, &warnings, &res, &pw);
	if (any != (pw.s5 || pw.reset) || pw.warnings != warnings.count || (res.fadt == 0 && any) ||
	    (pw.s5 && (pw.pm1a_cnt.address == 0 || pw.dsdt == 0 || pw.slp_typ_a > 7 ||
		       pw.slp_typ_b > 7 || pw.hw_reduced)) ||
	    (pw.reset && pw.reset_reg.address == 0) || (!pw.s5 && !pw.s5_why) ||
	    (!pw.reset && !pw.reset_why))
		abort();
	char power[300];
	if (str_len(acpi_describe_power(power, sizeof(power), &pw)) >= sizeof(power))
		abort();
	// To see what an input does: FUZZ_ACPI_VERBOSE=1 (with replay or libFuzzer).
	if (getenv("FUZZ_ACPI_VERBOSE"))
		fprintf(stderr, "fuzz_acpi: %s; %zu warnings; %s; power: %s\n", st == ACPI_CPUS_FOUND ?
			line : acpi_status_text(st), res.warnings, res.xsdt ? "XSDT" : "RSDT", power);
	return 0;
}
