// SPDX-License-Identifier: GPL-2.0-or-later
// The fuzz target of the BadRAM fold (lib/badram): random failing pages,
// usable RAM and budgets, folded as the image folds them; then every
// guarantee badram.h and docs/badram.md give is checked (fail.h's FAIL_IF
// if not). Everything lies in a window of WINDOW_PAGES pages, at 0, at
// 1 TiB or just below the 52-bit limit, so that what the pairs exclude can
// be counted page by page. The input format is above LLVMFuzzerTestOneInput,
// the checks in the check_ functions. Built by clang with -fsanitize=fuzzer
// (make fuzz-fold), or by gcc with tests/fuzz/replay.c's main (make
// check-fuzz-corpus).
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "badram/badram.h"
#include "badram/holes.h"
#include "json.h"
#include "fail.h"

#define WINDOW_PAGES	8192u
#define SLOTS_MAX	(16u << 7)
#define ADDRS_MAX	4096u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t slots[SLOTS_MAX];
static uint8_t scratch[BADRAM_FOLD_SCRATCH_BYTES(SLOTS_MAX)];
static uint64_t addr[ADDRS_MAX];
static size_t naddr;
static struct range ram[8];
static size_t nram;
static uint64_t base;		// the window's first byte

static bool matched(const struct badram_result *r, uint64_t a)
{
	for (unsigned k = 0; k < r->npairs; k++)
		if ((a & r->pair[k].mask) == r->pair[k].addr)
			return true;
	return false;
}

static bool in_ram(uint64_t a)
{
	for (size_t i = 0; i < nram; i++)
		if (a >= ram[i].start && a < ram[i].end)
			return true;
	return false;
}

static void check_masks(const struct badram_result *r)
{
	uint64_t top = nram ? ram[nram - 1].end : 0;
	for (size_t i = 0; i < naddr; i++)
		if (addr[i] + 1 > top)
			top = addr[i] + 1;
	uint64_t high = 0x7fffffffffffffffULL & ~((1ULL << (64 - __builtin_clzll(top - 1))) - 1);
	for (unsigned k = 0; k < r->npairs; k++) {
		uint64_t a = r->pair[k].addr, m = r->pair[k].mask;
		FAIL_IF((m >> 63) || m < 0x400 || (m & 0xfff) || (a & ~m) || (m & high) != high);
	}
}

// The pages the pairs exclude from RAM and the runs they form, counted.
static void check_measure(const struct badram_result *r)
{
	uint64_t pages = 0, runs = 0, failing = 0;
	for (size_t i = 0; i < nram; i++) {
		bool prev = false;
		for (uint64_t p = ram[i].start; p < ram[i].end; p += PAGE_SIZE) {
			bool in = matched(r, p);
			pages += in;
			runs += in && !prev;
			prev = in;
		}
	}
	FAIL_IF(pages != r->excluded_pages || runs != r->holes);
	// Failing pages in RAM, when the table holds them all.
	if (r->overflow)
		return;
	for (size_t i = 0; i < naddr; i++) {
		bool first = true;
		for (size_t j = 0; j < i && first; j++)
			first = addr[j] >> PAGE_SHIFT != addr[i] >> PAGE_SHIFT;
		failing += first && in_ram(addr[i]);
	}
	FAIL_IF(r->sacrificed_pages != r->excluded_pages - failing);
}

// GRUB 2.06 on BIOS applies a pair whole when its span (lowest to highest
// matching page) lies in one RAM range that no earlier pair cut inside the
// span; a pair meeting no RAM changes nothing.
static void check_grub_safe(const struct badram_result *r)
{
	static uint8_t cut[WINDOW_PAGES];
	memset(cut, 0, sizeof(cut));
	for (unsigned k = 0; k < r->npairs; k++) {
		uint64_t first = UINT64_MAX, last = 0;
		bool any_ram = false;
		for (uint64_t p = 0; p < WINDOW_PAGES; p++)
			if (((base + p * PAGE_SIZE) & r->pair[k].mask) == r->pair[k].addr) {
				any_ram |= in_ram(base + p * PAGE_SIZE);
				first = first == UINT64_MAX ? p : first;
				last = p;
			}
		if (!any_ram)
			continue;
		for (uint64_t p = first; p <= last; p++)
			FAIL_IF(!in_ram(base + p * PAGE_SIZE) || cut[p]);
		for (uint64_t p = first; p <= last; p++)
			cut[p] |= ((base + p * PAGE_SIZE) & r->pair[k].mask) == r->pair[k].addr;
	}
}

static void check_memmap(const struct badram_result *r, unsigned chars)
{
	char line[BADRAM_LINE_MAX];
	int len = badram_format_memmap(line, sizeof(line), r);

	FAIL_IF(len < 0 || len > (int)chars);
	for (size_t i = 0; i < r->nmemmap; i++)
		FAIL_IF(r->memmap[i].start >= r->memmap[i].end || (i > 0 && r->memmap[i].start <= r->memmap[i - 1].end) ||
			(r->memmap[i].start | r->memmap[i].end) % PAGE_SIZE);
	FAIL_IF(r->memmap_kaslr && r->nmemmap > HOLES_LINUX_MAX_MEMMAP_REGIONS);
	for (size_t k = 0; k < naddr; k++) {
		if (!in_ram(addr[k]))
			continue;
		FAIL_IF(addr[k] < HOLES_LINUX_KERNEL_WINDOW_END && r->nmemmap > HOLES_LINUX_MAX_MEMMAP_REGIONS);
		bool in = false;
		for (size_t i = 0; i < r->nmemmap && !in; i++)
			in = addr[k] >= r->memmap[i].start && addr[k] < r->memmap[i].end;
		FAIL_IF(!in);
	}
}

static void check_line(int (*format)(char *, size_t, const struct badram_result *),
		       const struct badram_result *r)
{
	char line[BADRAM_LINE_MAX];
	int len = format(line, sizeof(line), r);
	FAIL_IF(len < 0 || len >= (int)sizeof(line) || strlen(line) != (size_t)len);
	for (const char *p = strstr(line, "0x"); p; p = strstr(p + 2, "0x"))
		for (const char *h = p + 2; *h && strchr("0123456789abcdefABCDEF", *h); h++)
			FAIL_IF(*h >= 'A' && *h <= 'F');
}

static void check_lines(const struct badram_result *r)
{
	static char json[64 * 1024], buf[BADRAM_LINE_MAX];
	struct json j;

	if (r->npairs) {
		check_line(badram_format_badram, r);
		check_line(badram_format_grub, r);
		check_line(badram_format_summary, r);
	}
	json_init(&j, json, sizeof(json));
	badram_json(&j, r, "bios", buf);
	FAIL_IF(!json_end(&j));
}

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

// An input is:
//   byte 0    K, the pairs budget (0 and above BADRAM_MAX_PAIRS are clamped);
//   bytes 1-2 H, the holes budget, little-endian (0 is taken as 1);
//   byte 3    bit 0: uefi_only; bits 1-2: memmap_chars (0: the default, 64,
//             1024, 2047); bits 3-5: the table has 16 << n slots (small
//             ones overflow); bits 6-7: the window's place (0, 1 TiB, the
//             top; 3: at 0 with scratch too small, the degraded answer);
//   byte 4    RAM ranges, 0-7 (0: the fold's default, 0 to the highest
//             failing page), each then 2 bytes of gap and 2 of length, in
//             pages, from the end of the previous one;
//   the rest  failing addresses, 2 bytes each: the page (13 bits) and the
//             word in it (3 bits, times 512 bytes).
// Checked: every failing address matches a pair; npairs within K; holes
// within the budget applied, which is H unless one pair had to take more;
// masks GRUB-safe (bit 63 and the low 12 bits clear, every bit from the top
// of RAM and failures up to 62 fixed, addr inside mask); excluded pages and
// holes as a page-by-page scan of RAM counts them; sacrificed pages
// consistent; the memmap ranges sorted, disjoint, page-aligned, covering
// every failing address in RAM, within the characters and KASLR's 4
// ranges; pairs claimed GRUB-safe really applied whole by GRUB 2.06 on BIOS
// (simulated: each pair's span in one untouched RAM range); every line and
// the JSON object complete and in lower-case hex.
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned memmap_chars[4] = { 0, 64, 1024, 2047 };
	static const uint64_t bases[4] = { 0, 1ULL << 40, RANGE_MAX_ADDR - WINDOW_PAGES * PAGE_SIZE, 0 };
	struct badram_budget b;
	struct badram_table t;
	static struct badram_result r;

	if (size < 5)
		return 0;
	b.pairs = data[0];
	b.holes = le16(data + 1);
	b.uefi_only = data[3] & 1;
	b.memmap_chars = memmap_chars[(data[3] >> 1) & 3];
	size_t nslots = 16u << ((data[3] >> 3) & 7);
	base = bases[data[3] >> 6];
	bool degraded = data[3] >> 6 == 3;
	size_t at = 5;
	uint64_t page = 0;
	nram = 0;
	for (size_t i = 0; i < (data[4] & 7u) && at + 4 <= size; i++, at += 4) {
		uint64_t start = page + le16(data + at), end = start + 1 + le16(data + at + 2);
		if (end > WINDOW_PAGES)
			break;
		ram[nram].start = base + start * PAGE_SIZE;
		ram[nram++].end = base + end * PAGE_SIZE;
		page = end + 1;
	}
	badram_table_init(&t, slots, nslots);
	for (naddr = 0; at + 2 <= size && naddr < ADDRS_MAX; at += 2) {
		uint16_t v = le16(data + at);
		addr[naddr] = base + (v & (WINDOW_PAGES - 1)) * PAGE_SIZE + (v >> 13) * 512;
		FAIL_IF(badram_table_add(&t, addr[naddr]) == BADRAM_ADD_INVALID ||
			!badram_table_has(&t, addr[naddr]));
		naddr++;
	}

	bool ok = badram_fold(&t, ram, nram, b, scratch, degraded ? 64 : BADRAM_FOLD_SCRATCH_BYTES(nslots), &r);

	unsigned k = b.pairs < 1 ? 1 : b.pairs > BADRAM_MAX_PAIRS ? BADRAM_MAX_PAIRS : b.pairs;
	unsigned h = b.holes < 1 ? 1 : b.holes;
	FAIL_IF(ok == r.degraded || (degraded && naddr && ok) || (r.npairs == 0) != (naddr == 0) ||
		r.npairs > k || r.pairs_budget != k || r.holes > r.holes_budget ||
		(r.holes_budget != h && r.npairs != 1) || (!r.overflow && r.failing_pages != t.n));
	for (size_t i = 0; i < naddr; i++)
		FAIL_IF(!matched(&r, addr[i]));
	if (naddr == 0)
		return 0;
	if (nram == 0) {
		// The fold's default RAM: from 0 to the highest failing page, or
		// to the last page an overflow cube or the degraded pair covers.
		uint64_t top = 0;
		for (size_t i = 0; i < naddr; i++)
			top = addr[i] > top ? addr[i] : top;
		ram[0].start = 0;
		ram[0].end = r.ram_pages << PAGE_SHIFT;
		FAIL_IF(ram[0].end <= top ||
			(!r.overflow && !degraded && ram[0].end != (top | (PAGE_SIZE - 1)) + 1));
		nram = base == 0;
	}
	check_masks(&r);
	check_lines(&r);
	if (nram == 0)
		return 0;	// RAM from 0 to 1 TiB or more: too much to scan
	if (!degraded)	// the degraded pair is measured as an interval: an upper bound
		check_measure(&r);
	check_memmap(&r, memmap_chars[(data[3] >> 1) & 3] ? memmap_chars[(data[3] >> 1) & 3]
							   : BADRAM_DEFAULT_MEMMAP_CHARS);
	if (r.grub_safe && !degraded)
		check_grub_safe(&r);
	return 0;
}
