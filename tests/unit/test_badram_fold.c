// SPDX-License-Identifier: GPL-2.0-or-later
// Property tests for lib/badram/fold.c, the whole fold through its public
// API. Every result, for random and adversarial sets, budgets and RAM maps,
// must: match every failing address with a pair; keep K and H; give only
// GRUB-safe pairs (bit 63 clear, mask >= 0x400, low 12 bits clear, addr &
// ~mask == 0, every bit from 12 to the top of RAM fixed, line < 8192 chars);
// report pages excluded and holes exactly as a brute-force scan of RAM finds
// them; and give memmap ranges that cover every failure within the line
// budget (at most 4 when one lies below Linux's kernel window). Constructed sets with a known minimum exact cover (single pages,
// aligned blocks, rows, hashed columns, a bank) must come back exactly, with
// that many pairs.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "badram/badram.h"
#include "badram/holes.h"
#include "memstr.h"
#include "contains.h"
#include "xorshift.h"

#define MIB (1ULL << 20)
#define MAX_ADDRS 70000

static uint64_t rng_state = 0xabcdef12345ULL;

static uint64_t rng(void)
{
	return xorshift64(&rng_state);
}

static uint64_t slots[1 << 17];
static uint8_t scratch[BADRAM_FOLD_SCRATCH_BYTES(1 << 17)];

struct fold_case {
	const char *name;
	const uint64_t *addr;
	size_t n;
	const struct range *ram;
	size_t nram;
	struct badram_budget b;
	size_t slots;           // table size (power of two)
};

static bool matched(const struct badram_result *r, uint64_t a)
{
	for (unsigned k = 0; k < r->npairs; k++)
		if ((a & r->pair[k].mask) == r->pair[k].addr)
			return true;
	return false;
}

static uint64_t ram_top(const struct fold_case *c)
{
	uint64_t top = 0;
	for (size_t i = 0; i < c->nram; i++)
		if (c->ram[i].end > top)
			top = c->ram[i].end;
	for (size_t i = 0; i < c->n; i++)
		if (c->addr[i] + 1 > top)
			top = c->addr[i] + 1;
	return top;
}

static void check_pairs(const struct fold_case *c, const struct badram_result *r)
{
	uint64_t top = ram_top(c);
	// Every bit from 12 up that some RAM address can have set... and all
	// above it, up to 62, must be fixed.
	uint64_t high = top <= PAGE_SIZE ? 0x7ffffffffffff000ULL
				    : 0x7fffffffffffffffULL & ~((1ULL << (64 - __builtin_clzll(top - 1))) - 1);
	char line[BADRAM_LINE_MAX];

	for (unsigned k = 0; k < r->npairs; k++) {
		uint64_t a = r->pair[k].addr, m = r->pair[k].mask;
		if ((m >> 63) || m < 0x400 || (m & 0xfff) || (a & ~m) || (m & high) != high)
			fail_msg("%s: pair %u 0x%llx,0x%llx is not GRUB-safe (high bits %#llx)",
				 c->name, k, (unsigned long long)a, (unsigned long long)m,
				 (unsigned long long)high);
	}
	int len = badram_format_grub(line, sizeof(line), r);
	if (len >= 8192 || len >= (int)sizeof(line))
		fail_msg("%s: GRUB_BADRAM line is %d chars", c->name, len);
	for (int i = (int)sizeof("GRUB_BADRAM=\"") - 1; i < len; i++)
		if ((line[i] >= 'A' && line[i] <= 'F') || line[i] == 'X')
			fail_msg("%s: upper-case hex in %s", c->name, line);
}

// Scan RAM page by page: the pages the pairs exclude and the runs they form.
static void brute_measure(const struct fold_case *c, const struct badram_result *r,
			  uint64_t *pages, uint64_t *runs)
{
	*pages = *runs = 0;
	for (size_t i = 0; i < c->nram; i++) {
		bool prev = false;
		for (uint64_t p = c->ram[i].start / PAGE_SIZE; p < c->ram[i].end / PAGE_SIZE; p++) {
			bool in = matched(r, p * PAGE_SIZE);
			*pages += in;
			*runs += in && !prev;
			prev = in;
		}
	}
}

// Apply the pairs as GRUB 2.06 on BIOS does when it works at all: a
// pattern is applied whole only if its pages all lie in one region of the
// map as earlier patterns left it (a maximal run of RAM not yet cut). False
// when some pattern would straddle regions.
static bool grub_applies_all(const struct fold_case *c, const struct badram_result *r)
{
	static uint8_t cut[1 << 17];
	uint64_t top = ram_top(c) / PAGE_SIZE;

	if (top > sizeof(cut))
		return true;    // too large to simulate here
	for (uint64_t p = 0; p < top; p++)
		cut[p] = 0;
	for (unsigned k = 0; k < r->npairs; k++) {
		uint64_t first = UINT64_MAX, last = 0;
		bool any_ram = false, any_other = false;
		for (uint64_t p = 0; p < top; p++) {
			if (((p * PAGE_SIZE) & r->pair[k].mask) != r->pair[k].addr)
				continue;
			bool ram = false;
			for (size_t i = 0; i < c->nram; i++)
				ram |= p * PAGE_SIZE >= c->ram[i].start && p * PAGE_SIZE < c->ram[i].end;
			any_ram |= ram;
			any_other |= !ram;
			if (first == UINT64_MAX)
				first = p;
			last = p;
		}
		if (any_ram && any_other)
			return false;
		for (uint64_t p = first; any_ram && p <= last; p++) {
			bool ram = false;
			for (size_t i = 0; i < c->nram; i++)
				ram |= p * PAGE_SIZE >= c->ram[i].start && p * PAGE_SIZE < c->ram[i].end;
			if (!ram || cut[p])
				return false;
		}
		for (uint64_t p = first; any_ram && p <= last; p++)
			cut[p] |= ((p * PAGE_SIZE) & r->pair[k].mask) == r->pair[k].addr;
	}
	return true;
}

static void check_memmap(const struct fold_case *c, const struct badram_result *r)
{
	char line[BADRAM_LINE_MAX];
	unsigned chars = c->b.memmap_chars ? c->b.memmap_chars : BADRAM_DEFAULT_MEMMAP_CHARS;
	int len = badram_format_memmap(line, sizeof(line), r);

	if (len > (int)(chars < BADRAM_MEMMAP_MIN_CHARS ? BADRAM_MEMMAP_MIN_CHARS : chars))
		fail_msg("%s: memmap line %d chars, budget %u", c->name, len, chars);
	for (size_t i = 0; i < r->nmemmap; i++) {
		if (r->memmap[i].start >= r->memmap[i].end ||
		    (i > 0 && r->memmap[i].start <= r->memmap[i - 1].end) ||
		    (r->memmap[i].start | r->memmap[i].end) % PAGE_SIZE)
			fail_msg("%s: memmap range %zu [%#llx, %#llx) bad", c->name, i,
				 (unsigned long long)r->memmap[i].start,
				 (unsigned long long)r->memmap[i].end);
	}
	for (size_t k = 0; k < c->n; k++) {
		bool in = true;
		for (size_t i = 0; i < c->nram && in; i++)     // memmap is for RAM only
			in = c->addr[k] < c->ram[i].start || c->addr[k] >= c->ram[i].end;
		if (!in && c->addr[k] < HOLES_LINUX_KERNEL_WINDOW_END &&
		    r->nmemmap > HOLES_LINUX_MAX_MEMMAP_REGIONS)
			fail_msg("%s: %zu memmap ranges with a failure at %#llx: KASLR off",
				 c->name, r->nmemmap, (unsigned long long)c->addr[k]);
		for (size_t i = 0; i < r->nmemmap && !in; i++)
			in = c->addr[k] >= r->memmap[i].start && c->addr[k] < r->memmap[i].end;
		if (!in)
			fail_msg("%s: memmap misses %#llx", c->name, (unsigned long long)c->addr[k]);
	}
	if (r->memmap_kaslr && r->nmemmap > HOLES_LINUX_MAX_MEMMAP_REGIONS)
		fail_msg("%s: KASLR cap reported, %zu ranges", c->name, r->nmemmap);
}

// Fold c and check every property; returns the result for further checks.
static void run_case(const struct fold_case *c, struct badram_result *r)
{
	struct badram_table t;
	unsigned k = c->b.pairs < 1 ? 1 : c->b.pairs > 64 ? 64 : c->b.pairs;
	unsigned h = c->b.holes < 1 ? 1 : c->b.holes;

	badram_table_init(&t, slots, c->slots ? c->slots : sizeof(slots) / sizeof(slots[0]));
	for (size_t i = 0; i < c->n; i++)
		badram_table_add(&t, c->addr[i]);
	assert_true(badram_fold(&t, c->ram, c->nram, c->b, scratch, sizeof(scratch), r));
	if ((r->npairs == 0) != (c->n == 0))
		fail_msg("%s: %u pairs for %zu addresses", c->name, r->npairs, c->n);
	if (r->npairs > k)
		fail_msg("%s: %u pairs, budget %u", c->name, r->npairs, k);
	for (size_t i = 0; i < c->n; i++)
		if (!matched(r, c->addr[i]))
			fail_msg("%s: address %#llx matches no pair", c->name,
				 (unsigned long long)c->addr[i]);
	if (r->holes > r->holes_budget || (r->holes_budget != h && r->npairs != 1))
		fail_msg("%s: %llu holes, budget %u (asked %u)", c->name,
			 (unsigned long long)r->holes, r->holes_budget, h);
	check_pairs(c, r);
	if (c->n > 0)
		check_memmap(c, r);
	if (r->grub_safe && !grub_applies_all(c, r))
		fail_msg("%s: claims GRUB-safe pairs, but GRUB would skip some", c->name);
	uint64_t ram = 0;
	for (size_t i = 0; i < c->nram; i++)
		ram += (c->ram[i].end - c->ram[i].start) / PAGE_SIZE;
	if (ram <= (1u << 17) && c->n > 0) {
		uint64_t pages, runs;
		brute_measure(c, r, &pages, &runs);
		if (pages != r->excluded_pages || runs != r->holes)
			fail_msg("%s: reports %llu pages %llu holes, RAM scan finds %llu pages %llu holes",
				 c->name, (unsigned long long)r->excluded_pages,
				 (unsigned long long)r->holes, (unsigned long long)pages,
				 (unsigned long long)runs);
	}
}

// ---- random and adversarial sets --------------------------------------------

static uint64_t addr_buf[MAX_ADDRS];

static size_t pc_ram(uint64_t size, struct range *r)
{
	r[0].start = 0;
	r[0].end = 640 * 1024;
	r[1].start = MIB;
	r[1].end = size;
	return 2;
}

// 1..3 ranges of 1..96 MiB, page-aligned, gaps between them.
static size_t random_ram(struct range *r)
{
	size_t n = 1 + rng() % 3;
	uint64_t at = (rng() % 64) * PAGE_SIZE;
	for (size_t i = 0; i < n; i++) {
		r[i].start = at;
		r[i].end = at + (1 + rng() % (96 * 256)) * PAGE_SIZE;
		at = r[i].end + (1 + rng() % 4096) * PAGE_SIZE;
	}
	return n;
}

// A random page of RAM (or, rarely, just outside it).
static uint64_t random_addr(const struct range *r, size_t n)
{
	const struct range *x = &r[rng() % n];
	uint64_t pages = (x->end - x->start) / PAGE_SIZE;
	uint64_t a = x->start + (rng() % pages) * PAGE_SIZE + (rng() & 0xfff);
	if (rng() % 50 == 0)
		a = x->end + (rng() & 0xfff);   // a failure the map says is not RAM
	return a;
}

// Fill addr_buf with a random mix of fault shapes; returns the count.
static size_t random_faults(const struct range *r, size_t nram)
{
	size_t n = 0, shapes = 1 + rng() % 4;
	for (size_t s = 0; s < shapes; s++) {
		uint64_t base = random_addr(r, nram) & ~(PAGE_SIZE - 1);
		switch (rng() % 6) {
		case 0:         // scattered cells
			for (size_t i = rng() % 300; i > 0 && n < MAX_ADDRS; i--)
				addr_buf[n++] = random_addr(r, nram);
			break;
		case 1: {       // an aligned block
			uint64_t size = PAGE_SIZE << (rng() % 8);
			base &= ~(size - 1);
			for (uint64_t a = base; a < base + size && n < MAX_ADDRS; a += PAGE_SIZE)
				addr_buf[n++] = a + 8;
			break;
		}
		case 2:         // a column: stride 2^k pages
		case 3: {       // a hashed column: bits 2-4 = bits 5-7 ^ bank
			unsigned rows = 1u << (2 + rng() % 8);
			uint64_t bank = rng() % 8, lowpage = (base / PAGE_SIZE) & 3;
			for (uint64_t row = 0; row < rows && n < MAX_ADDRS; row++) {
				uint64_t p = (row << 5) | lowpage |
					     ((s % 2 ? (row & 7) ^ bank : bank) << 2);
				addr_buf[n++] = (p * PAGE_SIZE) % (r[nram - 1].end) + 0x40;
			}
			break;
		}
		case 4:         // a cluster inside 1 MiB
			for (size_t i = 1 + rng() % 100; i > 0 && n < MAX_ADDRS; i--)
				addr_buf[n++] = base + (rng() % 256) * PAGE_SIZE;
			break;
		default:        // every other page of a stretch
			for (size_t i = 0; i < 1 + rng() % 200 && n < MAX_ADDRS; i++)
				addr_buf[n++] = base + 2 * i * PAGE_SIZE;
			break;
		}
	}
	return n;
}

static void test_random_sets(void **state)
{
	(void)state;
	for (int iter = 0; iter < 120; iter++) {
		struct range ram[3];
		char name[64];
		struct badram_result r;
		struct fold_case c = { name, addr_buf, 0, ram, random_ram(ram), { 0, 0, 0, false }, 0 };
		c.n = random_faults(ram, c.nram);
		c.b.pairs = rng() % 3 ? 1 + rng() % 24 : (unsigned)(rng() % 70);
		c.b.holes = rng() % 3 ? (unsigned)(rng() % 100) : 1 + (unsigned)(rng() % 5000);
		c.b.memmap_chars = (unsigned)(rng() % 1100);
		snprintf(name, sizeof(name), "random set %d (K=%u H=%u)", iter, c.b.pairs,
			 c.b.holes);
		run_case(&c, &r);
	}
}

struct adversarial {
	const char *name;
	size_t (*make)(uint64_t *a);
	unsigned pairs, holes;
};

static size_t adv_page0(uint64_t *a)
{
	a[0] = 0;
	return 1;
}

static size_t adv_last_page(uint64_t *a)
{
	a[0] = 256 * MIB - 1;
	return 1;
}

static size_t adv_range_edges(uint64_t *a)
{
	a[0] = 640 * 1024 - 8;          // last page below the 640 KiB hole
	a[1] = MIB;                     // first page above it
	a[2] = 256 * MIB - PAGE_SIZE;
	return 3;
}

static size_t adv_all_pages(uint64_t *a)
{
	size_t n = 0;
	for (uint64_t x = 0; x < 640 * 1024; x += PAGE_SIZE)
		a[n++] = x;
	for (uint64_t x = MIB; x < 256 * MIB; x += PAGE_SIZE)
		a[n++] = x;
	return n;
}

static size_t adv_even_pages(uint64_t *a)
{
	size_t n = 0;
	for (uint64_t x = MIB; x < 64 * MIB; x += 2 * PAGE_SIZE)
		a[n++] = x;
	return n;
}

static size_t adv_far_apart(uint64_t *a)
{
	a[0] = PAGE_SIZE;
	a[1] = 255 * MIB;
	return 2;
}

static size_t adv_repeats(uint64_t *a)
{
	for (size_t i = 0; i < 50000; i++)
		a[i] = 0x1234000 + (i % 7) * 8;   // one page, many errors
	return 50000;
}

static const struct adversarial adversarial[] = {
	{ "page 0", adv_page0, 20, 48 },
	{ "last page of RAM", adv_last_page, 20, 48 },
	{ "pages at range edges, K=1", adv_range_edges, 1, 48 },
	{ "pages at range edges, K=1 H=1", adv_range_edges, 1, 1 },
	{ "every page of RAM", adv_all_pages, 20, 48 },
	{ "every other page, K=64 H=1", adv_even_pages, 64, 1 },
	{ "every other page, K=1", adv_even_pages, 1, 48 },
	{ "two far apart, K=1 H=1", adv_far_apart, 1, 1 },
	{ "two far apart, K=1 H=2", adv_far_apart, 1, 2 },
	{ "one page repeated", adv_repeats, 20, 48 },
};

static void test_adversarial(void **state)
{
	struct range ram[2];
	(void)state;
	for (size_t i = 0; i < sizeof(adversarial) / sizeof(adversarial[0]); i++) {
		const struct adversarial *a = &adversarial[i];
		struct badram_result r;
		struct fold_case c = { a->name, addr_buf, a->make(addr_buf), ram,
				       pc_ram(256 * MIB, ram),
				       { a->pairs, a->holes, 0, false }, 0 };
		run_case(&c, &r);
	}
}

// ---- exact round trips -------------------------------------------------------

// The fold must give back exactly the failing pages with want pairs.
static void expect_exact(const struct fold_case *c, unsigned want)
{
	struct badram_result r;

	run_case(c, &r);
	if (r.sacrificed_pages != 0 || r.limit != BADRAM_LIMIT_NONE || r.npairs != want)
		fail_msg("%s: %u pairs, %llu good pages sacrificed; want exact with %u pairs",
			 c->name, r.npairs, (unsigned long long)r.sacrificed_pages, want);
	if (!c->b.uefi_only && !r.grub_safe)
		fail_msg("%s: exact pairs not in a GRUB-safe order", c->name);
}

static void test_exact_single_pages(void **state)
{
	struct range ram[2];
	size_t nram = pc_ram(256 * MIB, ram);
	(void)state;
	for (int iter = 0; iter < 20; iter++) {
		// Pages differing pairwise in >= 2 bits: no cube holds two of
		// them without a good page, so the minimum is one pair each.
		size_t n = 0, want = 1 + rng() % 20;
		while (n < want) {
			uint64_t p = (256 + rng() % (65536 - 256));
			bool ok = true;
			for (size_t k = 0; k < n && ok; k++)
				ok = __builtin_popcountll(p ^ (addr_buf[k] / PAGE_SIZE)) >= 2;
			if (ok)
				addr_buf[n++] = p * PAGE_SIZE + (rng() & 0xff8);
		}
		struct fold_case c = { "single pages", addr_buf, n, ram, nram,
				       { 20, 48, 0, false }, 0 };
		expect_exact(&c, (unsigned)n);
	}
}

static void test_exact_aligned_blocks(void **state)
{
	struct range ram[2];
	size_t nram = pc_ram(256 * MIB, ram);
	(void)state;
	for (int iter = 0; iter < 20; iter++) {
		// Blocks of distinct sizes (no two unite into one cube), each in
		// its own 16 MiB region so none touch.
		size_t n = 0;
		unsigned nblocks = 1 + (unsigned)(rng() % 8);
		for (unsigned b = 0; b < nblocks; b++) {
			uint64_t size = PAGE_SIZE << b, region = (1 + b) * 16 * MIB;
			uint64_t base = region + (rng() % (16 * MIB / size)) * size;
			for (uint64_t a = base; a < base + size; a += PAGE_SIZE)
				addr_buf[n++] = a + 0x10;
		}
		struct fold_case c = { "aligned blocks", addr_buf, n, ram, nram,
				       { 20, 48, 0, false }, 0 };
		expect_exact(&c, nblocks);
	}
}

// 256 MiB, 16 KiB rows (columns in address bits 3-13), 8 banks in bits
// 14-16 hashed with row bits 17-19, 2048 rows in bits 17-27.
static uint64_t dram(uint64_t bank, uint64_t row, uint64_t col)
{
	return (col << 3) | ((bank ^ (row & 7)) << 14) | (row << 17);
}

static void test_exact_rows(void **state)
{
	struct range ram[2];
	size_t nram = pc_ram(256 * MIB, ram);
	(void)state;
	for (int iter = 0; iter < 10; iter++) {
		size_t n = 0;
		uint64_t bank = rng() % 8, row = 8 + rng() % 2040;
		for (uint64_t col = 0; col < 2048; col += 1 + rng() % 64)
			addr_buf[n++] = dram(bank, row, col);
		addr_buf[n++] = dram(bank, row, 0);
		addr_buf[n++] = dram(bank, row, 2047);
		struct fold_case c = { "one row", addr_buf, n, ram, nram, { 20, 48, 0, false }, 0 };
		expect_exact(&c, 1);
	}
}

static void test_exact_hashed_column(void **state)
{
	struct range ram[2];
	size_t nram = pc_ram(256 * MIB, ram), n = 0;
	struct badram_result r;
	(void)state;
	uint64_t bank = 3, col = 1234;
	// A full column has rows in the 640 KiB - 1 MiB hole: for the exact
	// round trip, RAM is one flat range.
	struct range flat[1] = { { 0, 256 * MIB } };
	for (uint64_t row = 0; row < 2048; row++)
		addr_buf[n++] = dram(bank, row, col);
	// Its exact cover interleaves 8 cubes over all RAM: only for UEFI.
	struct fold_case exact = { "hashed column, holes=4096, UEFI", addr_buf, n, flat, 1,
				   { 8, 4096, 0, true }, 0 };
	expect_exact(&exact, 8);
	struct fold_case bios = { "hashed column, holes=4096, BIOS", addr_buf, n, flat, 1,
				  { 8, 4096, 0, false }, 0 };
	run_case(&bios, &r);
	if (!r.grub_safe || r.sacrificed_pages == 0)
		fail_msg("hashed column, holes=4096, BIOS: safe %d, %llu sacrificed",
			 r.grub_safe, (unsigned long long)r.sacrificed_pages);
	// Under the default budgets it cannot be exact: the hole budget binds.
	struct fold_case tight = { "hashed column, default budgets", addr_buf, n, ram,
				   nram, { 20, 48, 0, false }, 0 };
	run_case(&tight, &r);
	if (r.limit != BADRAM_LIMIT_HOLES || r.exact_holes < 2000 || r.holes > 48)
		fail_msg("hashed column, default budgets: limit %d exact_holes %llu holes %llu",
			 r.limit, (unsigned long long)r.exact_holes, (unsigned long long)r.holes);
	assert_true(badram_replace_advised(&r));
	// With K = 4 and no hole limit the best cover wastes the column again:
	// four cubes, each freeing one hashed bit pair.
	struct fold_case four = { "hashed column, K=4, UEFI", addr_buf, n, flat, 1,
				  { 4, 1000000, 0, true }, 0 };
	run_case(&four, &r);
	if (r.npairs != 4 || r.sacrificed_pages != 2048)
		fail_msg("hashed column, K=4: %u pairs, %llu sacrificed; want 4, 2048",
			 r.npairs, (unsigned long long)r.sacrificed_pages);
}

// 80 pages scattered over 1 GiB, the hole budget far above what any cover
// needs: patterns= binds, and the verdict must say so (it once blamed holes=).
static void test_limit_names_patterns(void **state)
{
	static const struct range ram[1] = { { 0, 1024 * MIB } };
	struct badram_result r;
	(void)state;
	for (uint64_t i = 0; i < 80; i++)
		addr_buf[i] = (i * 2654435761u % 262144) * PAGE_SIZE;
	struct fold_case c = { "80 scattered pages, holes=100000", addr_buf, 80, ram, 1,
			       { 20, 100000, 0, false }, 0 };
	run_case(&c, &r);
	if (r.sacrificed_pages == 0 || r.limit != BADRAM_LIMIT_PAIRS)
		fail_msg("%s: limit %d (want %d, patterns), %llu sacrificed", c.name, r.limit,
			 BADRAM_LIMIT_PAIRS, (unsigned long long)r.sacrificed_pages);
}

static void test_exact_bank(void **state)
{
	struct range flat[1] = { { 0, 256 * MIB } };
	size_t n = 0;
	(void)state;
	for (uint64_t row = 0; row < 2048; row++)
		for (uint64_t col = 0; col < 2048; col += 512)   // one per page
			addr_buf[n++] = dram(5, row, col);
	struct fold_case c = { "whole bank, UEFI", addr_buf, n, flat, 1, { 20, 100000, 0, true }, 0 };
	expect_exact(&c, 8);
}

// ---- Linux's KASLR limit on memmap= -------------------------------------------

// The failures a Debian 6.1 boot caught: with 5 memmap= ranges KASLR went
// off and the kernel's rodata landed on the page at 40 MiB.
static void test_memmap_kaslr(void **state)
{
	static const struct range ram[2] = { { 0, 640 << 10 }, { MIB, 512 * MIB } };
	static const struct range ram1g[2] = { { 0, 640 << 10 }, { MIB, 1024 * MIB } };
	static const uint64_t low[] = { 0x2815000, 0x97c0000, 0x97c1000, 0x97c2000,
					0x97c3000, 0xd48e000, 0xeb58000, 0x1a8e6000 };
	uint64_t high[8];
	struct badram_result r;
	char line[BADRAM_LINE_MAX];
	(void)state;
	struct fold_case c = { "Debian 6.1 boot", low, 8, ram, 2,
			       badram_budget_default(), 0 };
	run_case(&c, &r);
	if (r.nmemmap > HOLES_LINUX_MAX_MEMMAP_REGIONS || !r.memmap_kaslr)
		fail_msg("%s: %zu memmap ranges, capped %d", c.name, r.nmemmap,
			 r.memmap_kaslr);
	badram_format_summary(line, sizeof(line), &r);
	if (!contains(line, "memmap= kept to 4 ranges so Linux's KASLR stays on"))
		fail_msg("%s: summary \"%s\"", c.name, line);
	// The same shape above the kernel window (1 GiB of RAM): one range per
	// run.
	for (size_t i = 0; i < 8; i++)
		high[i] = low[i] + 256 * MIB;
	c.name = "above the kernel window";
	c.addr = high;
	c.ram = ram1g;
	run_case(&c, &r);
	if (r.nmemmap != 5 || r.memmap_kaslr || r.memmap_sacrificed != 0)
		fail_msg("%s: %zu memmap ranges, capped %d, %llu good pages", c.name,
			 r.nmemmap, r.memmap_kaslr, (unsigned long long)r.memmap_sacrificed);
}

// ---- online overflow, tiny scratch, nothing failed -----------------------------

static void test_overflow(void **state)
{
	struct range ram[2];
	size_t nram = pc_ram(256 * MIB, ram);
	struct badram_result r;
	(void)state;
	for (int iter = 0; iter < 10; iter++) {
		size_t n = 100 + rng() % 2000;
		for (size_t i = 0; i < n; i++)
			addr_buf[i] = random_addr(ram, nram);
		struct fold_case c = { "overflowing 16-slot table", addr_buf, n, ram, nram,
				       { 1 + (unsigned)(rng() % 30), 1 + (unsigned)(rng() % 60), 0, false },
				       16 };
		run_case(&c, &r);
		assert_true(r.overflow);
	}
}

static void test_degraded(void **state)
{
	struct badram_table t;
	struct badram_result r;
	struct range ram[2];
	size_t nram = pc_ram(256 * MIB, ram);
	static const uint64_t a[] = { 0x1234567, 0x7654321, 0x2000000 };
	(void)state;
	badram_table_init(&t, slots, 1024);
	for (size_t i = 0; i < 3; i++)
		badram_table_add(&t, a[i]);
	assert_false(badram_fold(&t, ram, nram, badram_budget_default(), scratch, 64, &r));
	assert_true(r.degraded);
	assert_int_equal(r.npairs, 1);
	for (size_t i = 0; i < 3; i++)
		assert_true(matched(&r, a[i]));
	// Without RAM ranges, RAM is from 0 up to the pages folded (found by
	// fuzz_fold: it was the pair's own pages, 100 % of RAM).
	badram_table_init(&t, slots, 1024);
	badram_table_add(&t, 0x1a09200);
	assert_false(badram_fold(&t, NULL, 0, badram_budget_default(), scratch, 64, &r));
	assert_int_equal(r.excluded_pages, 1);
	assert_int_equal(r.ram_pages, 0x1a0a);
}

static void test_nothing_failed(void **state)
{
	struct badram_table t;
	struct badram_result r;
	(void)state;
	badram_table_init(&t, slots, 1024);
	assert_int_equal(badram_table_add(&t, RANGE_MAX_ADDR), BADRAM_ADD_INVALID);
	assert_true(badram_fold(&t, NULL, 0, badram_budget_default(), scratch,
				sizeof(scratch), &r));
	assert_int_equal(r.npairs, 0);
	assert_int_equal(r.nmemmap, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_sets),
		cmocka_unit_test(test_adversarial),
		cmocka_unit_test(test_exact_single_pages),
		cmocka_unit_test(test_exact_aligned_blocks),
		cmocka_unit_test(test_exact_rows),
		cmocka_unit_test(test_exact_hashed_column),
		cmocka_unit_test(test_exact_bank),
		cmocka_unit_test(test_limit_names_patterns),
		cmocka_unit_test(test_memmap_kaslr),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_degraded),
		cmocka_unit_test(test_nothing_failed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
