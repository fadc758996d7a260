// SPDX-License-Identifier: GPL-2.0-or-later
// bench-fold: ramsift's BadRAM fold against a plain agglomerative greedy on
// seeded synthetic failure sets shaped like real DRAM faults (single cells,
// a row, a column across a bank under XOR bank hashing, a whole bank) and
// random scatter. Prints markdown tables: failing pages, pairs, holes, pages
// excluded, good pages wasted and fold time, first under the default
// budgets, then with the hole budget lifted (K = 10) and pair order free
// (UEFI) to compare cube quality alone. Every cover is checked to match
// every failing page.
// Usage: bench-fold [--quick] (quick: small scenarios only, for make check).
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "badram/cube.h"
#include "badram/badram.h"
#include "badram/heap.h"
#include "badram/merge.h"
#include "memtest/prng.h"

#define MIB (1ULL << 20)
#define GIB (1ULL << 30)

// ---- synthetic DRAM geometry ------------------------------------------------
// 256 MiB: 16 KiB rows (column = address bits 3-13), 8 banks in bits 14-16
// hashed with row bits 17-19, rows in bits 17-27 (2048 rows).
// 8 GiB: 8 KiB rows (bits 3-12), 16 banks in bits 13-16 hashed with row bits
// 17-20, rows in bits 17-31, rank in bit 32.
struct geometry {
	const char *name;
	uint64_t size;
	unsigned col_lo, col_bits, bank_lo, bank_bits, row_lo, row_bits;
	unsigned rank_bit;      // 0: single rank
};

static const struct geometry g256 = { "256 MiB", 256 * MIB, 3, 11, 14, 3, 17, 11, 0 };
static const struct geometry g8g = { "8 GiB", 8 * GIB, 3, 10, 13, 4, 17, 15, 32 };

static uint64_t dram_addr(const struct geometry *g, unsigned rank,
			  uint64_t bank, uint64_t row, uint64_t col)
{
	uint64_t hashed = bank ^ (row & ((1ULL << g->bank_bits) - 1));

	return (col << g->col_lo) | (hashed << g->bank_lo) | (row << g->row_lo) |
	       (g->rank_bit ? (uint64_t)rank << g->rank_bit : 0);
}

static uint64_t rng_state;

static uint64_t rng(void)
{
	return prng_splitmix64(&rng_state);
}

// A PC-like usable map: the low 640 KiB and 1 MiB up to the top. The same as
// tests/unit/test_badram_fold.c's: the bench builds without the test suite.
static size_t pc_ram(uint64_t size, struct range *r)
{
	r[0].start = 0;
	r[0].end = 640 * 1024;
	r[1].start = MIB;
	r[1].end = size;
	return 2;
}

static bool in_ram(uint64_t a, const struct range *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a >= r[i].start && a < r[i].end)
			return true;
	return false;
}

// Failing addresses of a scenario (errors within a page repeat, as a tester
// sees them). Returns the count written to out.
typedef size_t gen_fn(const struct geometry *g, uint64_t *out, size_t cap,
		      size_t param);

static size_t gen_cells(const struct geometry *g, uint64_t *out, size_t cap,
			size_t param)
{
	size_t n = 0;
	for (size_t i = 0; i < param && n < cap; i++)
		out[n++] = (rng() % g->size) & ~7ULL;
	return n;
}

static size_t gen_row(const struct geometry *g, uint64_t *out, size_t cap,
		      size_t param)
{
	uint64_t bank = rng() % (1u << g->bank_bits), row = rng() % (1u << g->row_bits);
	size_t n = 0;
	(void)param;
	for (uint64_t c = 0; c < (1ULL << g->col_bits) && n < cap; c += 7)
		out[n++] = dram_addr(g, 0, bank, row, c);
	return n;
}

static size_t gen_column(const struct geometry *g, uint64_t *out, size_t cap,
			 size_t param)
{
	uint64_t bank = rng() % (1u << g->bank_bits), col = rng() % (1u << g->col_bits);
	unsigned rank = g->rank_bit ? (unsigned)(rng() & 1) : 0;
	size_t n = 0;
	(void)param;
	for (uint64_t row = 0; row < (1ULL << g->row_bits) && n < cap; row++)
		out[n++] = dram_addr(g, rank, bank, row, col);
	return n;
}

static size_t gen_bank(const struct geometry *g, uint64_t *out, size_t cap,
		       size_t param)
{
	uint64_t bank = rng() % (1u << g->bank_bits);
	size_t n = 0;
	(void)param;
	// Every row, one address per page-sized column chunk.
	for (uint64_t row = 0; row < (1ULL << g->row_bits); row++)
		for (uint64_t c = 0; c < (1ULL << g->col_bits) && n < cap; c += 512)
			out[n++] = dram_addr(g, 0, bank, row, c);
	return n;
}

static size_t gen_scatter(const struct geometry *g, uint64_t *out, size_t cap,
			  size_t param)
{
	return gen_cells(g, out, cap, param);
}

// ---- the greedy baseline ----------------------------------------------------
// Start from one cube per failing page; repeatedly merge the pair whose
// supercube adds the fewest pages (whole-domain count), until at most K
// cubes remain, then keep merging while the union has more than H holes.
// Candidate pairs: all pairs while at most 2048 cubes are alive; above
// that, each cube's 16 nearest alive neighbours in address order (all pairs
// would be n^2).
#define GREEDY_ALL 2048
#define GREEDY_WINDOW 16

// The baseline uses the fold's heap (lib/badram/heap.h): test_badram_heap
// checks it on its own, so a fault there fails that test instead of
// hiding in a comparison of two folds that share it.
//
// A candidate sits in a heap item's what: cubes i and j, GREEDY_INDEX_BITS
// each, and in the bits above them the merges done when it was pushed. It
// is stale once either cube has been merged into since (changed[] holds
// the merge that last changed each), or is gone.
#define GREEDY_INDEX_BITS 21
#define GREEDY_INDEX_MASK ((1ULL << GREEDY_INDEX_BITS) - 1)

struct gcand {
	uint32_t i, j, pushed;
};

struct greedy {
	struct cube *c;
	uint32_t *changed, *prev, *next;
	bool *alive;
	size_t n, nalive;
	uint32_t merges;
	struct heap heap;
	bool all_pairs;
};

static uint64_t merge_cost(struct cube a, struct cube b)
{
	uint64_t sa = 1ULL << cube_free_bits(a), sb = 1ULL << cube_free_bits(b);
	uint64_t sm = 1ULL << cube_free_bits(cube_join(a, b));
	return sm > sa + sb ? sm - sa - sb : 0;
}

static uint64_t gcand_pack(struct gcand c)
{
	return c.i | (uint64_t)c.j << GREEDY_INDEX_BITS |
	       (uint64_t)c.pushed << 2 * GREEDY_INDEX_BITS;
}

static struct gcand gcand_unpack(uint64_t what)
{
	return (struct gcand){ (uint32_t)(what & GREEDY_INDEX_MASK),
			       (uint32_t)(what >> GREEDY_INDEX_BITS & GREEDY_INDEX_MASK),
			       (uint32_t)(what >> 2 * GREEDY_INDEX_BITS) };
}

static bool stale(const struct greedy *g, struct gcand c)
{
	return !g->alive[c.i] || !g->alive[c.j] || g->changed[c.i] > c.pushed ||
	       g->changed[c.j] > c.pushed;
}

static void hpush(struct greedy *g, uint32_t i, uint32_t j)
{
	if (g->heap.n == g->heap.cap) {
		g->heap.cap = g->heap.cap ? 2 * g->heap.cap : 1024;
		g->heap.item = realloc(g->heap.item, g->heap.cap * sizeof(*g->heap.item));
	}
	// A cost counts pages, fewer than 2^CUBE_BITS: it fits an int64_t.
	heap_push(&g->heap, (int64_t)merge_cost(g->c[i], g->c[j]),
		  gcand_pack((struct gcand){ i, j, g->merges }));
}

static void push_neighbours(struct greedy *g, uint32_t i)
{
	if (g->all_pairs) {
		for (uint32_t j = 0; j < g->n; j++)
			if (j != i && g->alive[j])
				hpush(g, i, j);
		return;
	}
	uint32_t k = g->prev[i];
	for (int s = 0; s < GREEDY_WINDOW && k != UINT32_MAX; s++, k = g->prev[k])
		hpush(g, i, k);
	k = g->next[i];
	for (int s = 0; s < GREEDY_WINDOW && k != UINT32_MAX; s++, k = g->next[k])
		hpush(g, i, k);
}

static void kill(struct greedy *g, uint32_t j)
{
	g->alive[j] = false;
	g->nalive--;
	if (g->prev[j] != UINT32_MAX)
		g->next[g->prev[j]] = g->next[j];
	if (g->next[j] != UINT32_MAX)
		g->prev[g->next[j]] = g->prev[j];
}

static void rebuild_all_pairs(struct greedy *g)
{
	g->all_pairs = true;
	g->heap.n = 0;
	for (uint32_t i = 0; i < g->n; i++)
		if (g->alive[i])
			for (uint32_t j = i + 1; j < g->n; j++)
				if (g->alive[j])
					hpush(g, i, j);
}

static bool greedy_holes_ok(struct greedy *g, const struct universe *u,
			    uint64_t holes, struct cube *tmp)
{
	size_t m = 0;
	struct cube_measure me;
	for (uint32_t i = 0; i < g->n; i++)
		if (g->alive[i])
			tmp[m++] = g->c[i];
	return cube_measure(tmp, m, u, holes, 1ULL << 24, &me) && me.runs <= holes;
}

// Fold the sorted distinct pages with the greedy; returns the cube count.
static size_t greedy_fold(const uint64_t *page, size_t n, unsigned pairs,
			  uint64_t holes, const struct universe *u,
			  struct cube *out)
{
	struct greedy g = { 0 };
	struct cube tmp[CUBE_MAX_CUBES];

	if (n > GREEDY_INDEX_MASK + 1) {
		fprintf(stderr, "bench-fold: %zu pages, more than the baseline indexes\n", n);
		exit(1);
	}
	g.n = g.nalive = n;
	g.c = malloc(n * sizeof(*g.c));
	g.changed = calloc(n, sizeof(*g.changed));
	g.prev = malloc(n * sizeof(*g.prev));
	g.next = malloc(n * sizeof(*g.next));
	g.alive = malloc(n * sizeof(*g.alive));
	for (size_t i = 0; i < n; i++) {
		g.c[i] = cube_page(page[i]);
		g.alive[i] = true;
		g.prev[i] = i ? (uint32_t)i - 1 : UINT32_MAX;
		g.next[i] = i + 1 < n ? (uint32_t)i + 1 : UINT32_MAX;
	}
	if (n <= GREEDY_ALL)
		rebuild_all_pairs(&g);
	else
		for (uint32_t i = 0; i < n; i++)
			for (uint32_t k = i + 1, s = 0; k < n && s < GREEDY_WINDOW; k++, s++)
				hpush(&g, i, k);
	while (g.nalive > 1 && g.heap.n > 0 &&
	       (g.nalive > pairs || !greedy_holes_ok(&g, u, holes, tmp))) {
		struct gcand c;
		do {    // skip candidates made stale by earlier merges
			c = gcand_unpack(heap_pop(&g.heap).what);
		} while (g.heap.n > 0 && stale(&g, c));
		if (stale(&g, c))
			break;
		g.c[c.i] = cube_join(g.c[c.i], g.c[c.j]);
		g.changed[c.i] = ++g.merges;
		kill(&g, c.j);
		// Drop what the merged cube now contains.
		for (uint32_t k = 0; g.all_pairs && k < g.n; k++)
			if (k != c.i && g.alive[k] && cube_contains(g.c[c.i], g.c[k]))
				kill(&g, k);
		if (!g.all_pairs && g.nalive <= GREEDY_ALL)
			rebuild_all_pairs(&g);
		else
			push_neighbours(&g, c.i);
	}
	size_t m = 0;
	for (uint32_t i = 0; i < g.n && m < CUBE_MAX_CUBES; i++)
		if (g.alive[i])
			out[m++] = g.c[i];
	free(g.c);
	free(g.changed);
	free(g.prev);
	free(g.next);
	free(g.alive);
	free(g.heap.item);
	return merge_simplify(out, m, NULL);
}

// ---- running and reporting --------------------------------------------------

struct row {
	size_t pages;
	unsigned pairs;
	uint64_t holes, excluded, wasted;
	double ms;
	bool complete, covers;
};

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void measure_row(const struct cube *c, size_t n, const uint64_t *page,
			size_t npages, const struct universe *u, struct row *r)
{
	struct cube_measure m;

	r->pairs = (unsigned)n;
	r->covers = true;
	for (size_t i = 0; i < npages; i++) {
		bool hit = false;
		for (size_t k = 0; k < n && !hit; k++)
			hit = cube_match(c[k], page[i]);
		r->covers &= hit;
	}
	r->complete = cube_measure(c, n, u, UINT64_MAX, 1ULL << 28, &m);
	r->holes = m.runs;
	r->excluded = m.pages;
	r->wasted = m.pages - npages;
}

static void run(const char *name, const struct geometry *g, gen_fn *gen,
		size_t param, unsigned pairs, unsigned holes, bool uefi, size_t slots)
{
	static uint64_t addr[1 << 21], page[1 << 21];
	struct range ram[2], rp[2];
	size_t nram = pc_ram(g->size, ram), n = 0, npages = 0;
	uint64_t *slot = malloc(slots * sizeof(*slot));
	size_t sbytes = BADRAM_FOLD_SCRATCH_BYTES(slots);
	void *scratch = malloc(sbytes);
	struct badram_table t;
	struct badram_result res;
	struct badram_budget b = { pairs, holes, BADRAM_DEFAULT_MEMMAP_CHARS, uefi };
	struct row mine = { 0 }, base = { 0 };
	struct cube cubes[CUBE_MAX_CUBES];

	rng_state = 0x5eed0000 + param + (uint64_t)g->size;
	size_t raw = gen(g, addr, sizeof(addr) / sizeof(addr[0]), param);
	for (size_t i = 0; i < raw; i++)
		if (in_ram(addr[i], ram, nram))
			addr[n++] = addr[i];
	badram_table_init(&t, slot, slots);
	for (size_t i = 0; i < n; i++) {
		badram_table_add(&t, addr[i]);
		page[i] = addr[i] >> 12;
	}
	qsort(page, n, sizeof(*page), cmp_u64);
	for (size_t i = 0; i < n; i++)
		if (npages == 0 || page[npages - 1] != page[i])
			page[npages++] = page[i];
	for (size_t i = 0; i < nram; i++) {
		rp[i].start = ram[i].start >> 12;
		rp[i].end = ram[i].end >> 12;
	}
	struct universe u = { rp, nram };

	double t0 = now_ms();
	badram_fold(&t, ram, nram, b, scratch, sbytes, &res);
	mine.ms = now_ms() - t0;
	for (unsigned k = 0; k < res.npairs; k++) {
		cubes[k].val = res.pair[k].addr >> 12;
		cubes[k].care = res.pair[k].mask >> 12;
	}
	measure_row(cubes, res.npairs, page, npages, &u, &mine);
	mine.pages = npages;

	t0 = now_ms();
	size_t gn = greedy_fold(page, npages, pairs, holes, &u, cubes);
	base.ms = now_ms() - t0;
	measure_row(cubes, gn, page, npages, &u, &base);
	base.pages = npages;

	char label[96];
	snprintf(label, sizeof(label), "%s, %s%s", name, g->name,
		 slots < (1u << 20) ? " (64 Ki table)" : "");
	printf("| %s | %zu | %u / %u | %llu / %llu%s | %llu / %llu | %llu / %llu | %.1f / %.1f |%s\n",
	       label, npages, mine.pairs, base.pairs,
	       (unsigned long long)mine.holes, (unsigned long long)base.holes,
	       base.holes > holes ? " (over H)" : "",
	       (unsigned long long)mine.excluded, (unsigned long long)base.excluded,
	       (unsigned long long)mine.wasted, (unsigned long long)base.wasted,
	       mine.ms, base.ms,
	       mine.covers && base.covers && mine.complete ? "" : " **COVER CHECK FAILED**");
	if (!mine.covers || mine.pairs > pairs || mine.holes > res.holes_budget) {
		fprintf(stderr, "bench-fold: %s: guarantee broken\n", label);
		exit(1);
	}
	free(slot);
	free(scratch);
}

struct scenario {
	const char *name;
	const struct geometry *g;
	gen_fn *gen;
	size_t param;
	bool quick;
};

static const struct scenario scenarios[] = {
	{ "5 single cells", &g8g, gen_cells, 5, true },
	{ "30 single cells", &g8g, gen_cells, 30, true },
	{ "one row", &g256, gen_row, 0, true },
	{ "hashed column", &g256, gen_column, 0, true },
	{ "hashed column", &g8g, gen_column, 0, false },
	{ "whole bank", &g256, gen_bank, 0, false },
	{ "random scatter 10", &g8g, gen_scatter, 10, true },
	{ "random scatter 1000", &g8g, gen_scatter, 1000, true },
	{ "random scatter 100000", &g8g, gen_scatter, 100000, false },
};

static void table(const char *title, unsigned pairs, unsigned holes, bool uefi,
		  bool quick)
{
	printf("\n%s\n\n", title);
	printf("| scenario | failing pages | pairs | holes | pages excluded | good pages wasted | time ms |\n");
	printf("|---|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
		const struct scenario *s = &scenarios[i];
		if (quick && !s->quick)
			continue;
		run(s->name, s->g, s->gen, s->param, pairs, holes, uefi, 1u << 20);
	}
	if (!quick && holes == BADRAM_DEFAULT_HOLES)
		run("random scatter 100000", &g8g, gen_scatter, 100000, pairs, holes,
		    uefi, 1u << 16);
}

int main(int argc, char **argv)
{
	bool quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
	char title[96];

	printf("Each cell: ramsift / greedy baseline.\n");
	snprintf(title, sizeof(title), "Default budgets: patterns=%u holes=%u, pairs in GRUB-safe order",
		 (unsigned)BADRAM_DEFAULT_PAIRS, (unsigned)BADRAM_DEFAULT_HOLES);
	table(title, BADRAM_DEFAULT_PAIRS, BADRAM_DEFAULT_HOLES, false, quick);
	table("Cube quality alone: patterns=10, no hole limit, any order (UEFI)", 10,
	      UINT32_MAX, true, quick);
	return 0;
}
