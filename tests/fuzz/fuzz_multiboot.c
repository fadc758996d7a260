// SPDX-License-Identifier: GPL-2.0-or-later
// The fuzz target of lib/boot/multiboot.c and of mmap_normalize
// (lib/range.c), which turns the loader's map into the RAM to test: a
// physical memory image whose first byte is the information structure, at
// the bottom or the very top of the address space so that sizes and
// pointers wrap; every pointer inside the image leads to bytes of the
// input, everything else is unreadable. After the parse what multiboot.h and
// range.h promise is checked (fail.h's FAIL_IF if not); the input format and
// the checks are above LLVMFuzzerTestOneInput. Built by clang with
// -fsanitize=fuzzer (make fuzz-multiboot), or by gcc with
// tests/fuzz/replay.c's main (make check-fuzz-corpus).
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "boot/multiboot.h"
#include "capacity.h"
#include "range.h"
#include "fail.h"
#include "warnings.h"

#define IMAGE_LOW	0x10000u
#define IMAGE_MAX	0x10000u

#define CTL_MB2		0x01
#define CTL_TOP		0x02
#define CTL_SKEW_SHIFT	2

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint8_t *image;
static size_t image_len;
static uint64_t image_base;
static struct fuzz_warnings warnings = { BOOTINFO_WARNING_LEN, 0 };

static bool read_image(void *ctx, uint64_t addr, void *buf, size_t n)
{
	(void)ctx;
	if (addr < image_base || addr - image_base > image_len || n > image_len - (addr - image_base))
		return false;
	memcpy(buf, image + (addr - image_base), n);
	return true;
}

static void check_string(const char *s, size_t cap)
{
	FAIL_IF(strnlen(s, cap) == cap);
}

// The end of entry e as mmap_normalize reads it: clipped to RANGE_MAX_ADDR.
static uint64_t entry_end(const struct mmap_entry *e)
{
	uint64_t end = e->base + e->len;
	return end < e->base || end > RANGE_MAX_ADDR ? RANGE_MAX_ADDR : end;
}

// The page at p: covered by usable entries (one, or several that meet) and
// meeting no other.
static bool page_usable(const struct bootinfo *bi, uint64_t p)
{
	uint64_t covered = p;	// [p, covered) lies in usable entries
	bool grew = true;
	for (size_t i = 0; i < bi->nmmap; i++) {
		const struct mmap_entry *e = &bi->mmap[i];
		if (e->len && e->base < RANGE_MAX_ADDR && e->type != MMAP_USABLE && e->base < p + PAGE_SIZE &&
		    p < entry_end(e))
			return false;
	}
	while (grew && covered < p + PAGE_SIZE) {
		grew = false;
		for (size_t i = 0; i < bi->nmmap; i++) {
			const struct mmap_entry *e = &bi->mmap[i];
			if (e->len && e->base < RANGE_MAX_ADDR && e->type == MMAP_USABLE && e->base <= covered &&
			    covered < entry_end(e)) {
				covered = entry_end(e);
				grew = true;
			}
		}
	}
	return covered >= p + PAGE_SIZE;
}

static void check_ram(const struct bootinfo *bi)
{
	static struct range ram[RAM_RANGES_MAX];
	size_t n = mmap_normalize(bi->mmap, bi->nmmap, ram, RAM_RANGES_MAX, NULL, NULL);

	FAIL_IF(n > RAM_RANGES_MAX);
	for (size_t i = 0; i < n; i++) {
		const struct range *r = &ram[i];
		FAIL_IF(r->start >= r->end || r->end > RANGE_MAX_ADDR || r->start % PAGE_SIZE ||
			r->end % PAGE_SIZE || (i > 0 && r->start <= ram[i - 1].end));
		FAIL_IF(!page_usable(bi, r->start) || !page_usable(bi, r->end - PAGE_SIZE));
	}
}

// An input is one control byte, then the memory image. The control byte:
//   bit 0     the magic a Multiboot 2 loader passes (else Multiboot 1's);
//   bit 1     the image lies at the top of the address space (its last
//             byte is 2^64 - 1) instead of at IMAGE_LOW;
//   bits 2-3  added to the information's address (a misaligned pointer).
// Checked: the map's entries within BOOTINFO_MMAP_MAX and counted when
// dropped, the strings terminated, the copies' lengths within their
// buffers, the result true exactly when there is a map, every warning a
// terminated sentence; then the usable RAM is sorted, disjoint, merged,
// page-aligned and below RANGE_MAX_ADDR, and the first and last page of
// each range are covered by usable entries of the loader's map and meet no
// other entry.
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct bootinfo bi;

	if (size == 0)
		return 0;
	uint8_t ctl = data[0];
	image = data + 1;
	image_len = size - 1 < IMAGE_MAX ? size - 1 : IMAGE_MAX;
	image_base = ctl & CTL_TOP ? (uint64_t)0 - IMAGE_MAX : IMAGE_LOW;
	uint64_t info = image_base + ((ctl >> CTL_SKEW_SHIFT) & 3);
	uint32_t magic = ctl & CTL_MB2 ? MB2_BOOT_MAGIC : MB1_BOOT_MAGIC;

	bool map = bootinfo_parse(&bi, magic, info, read_image, fuzz_warning, &warnings);

	FAIL_IF(map != (bi.nmmap > 0) || bi.nmmap > BOOTINFO_MMAP_MAX ||
		(bi.mmap_dropped && bi.nmmap != BOOTINFO_MMAP_MAX) || bi.protocol != (ctl & CTL_MB2 ? 2u : 1u) ||
		(bi.from_meminfo && bi.nmmap != 2) || bi.acpi_old.len > BOOTINFO_RSDP_MAX ||
		bi.acpi_new.len > BOOTINFO_RSDP_MAX || bi.smbios.len > BOOTINFO_SMBIOS_MAX ||
		bi.fb.kind > FB_INDEXED || (bi.fb.kind != FB_NONE && bi.fb.addr == 0) ||
		(bi.fb.kind != FB_RGB && (bi.fb.red_size | bi.fb.green_size | bi.fb.blue_size)) ||
		(bi.efi_systab && !bi.efi));
	check_string(bi.cmdline, sizeof(bi.cmdline));
	check_string(bi.loader, sizeof(bi.loader));
	check_ram(&bi);
	return 0;
}
