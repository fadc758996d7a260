// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/dram/diagnose.c: fault sets of each shape (cells, a
// row, a column, a bank, several banks, the module), generated seeded as
// tests/faults/faultgen.c does but under several maps through
// dram_encode(), with stray cells, duplicates and byte offsets mixed in, are
// classified right with their map and from the address bits alone; the
// thresholds at their edges; random-seeded cases; and the words.
//
// The maps are plausible controller mappings in the style of the DRAMA
// paper (Pessl et al., USENIX Security 2016), not its tables; "faultgen" is
// tests/faults/faultgen.c's model.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "dram/decode.h"
#include "dram/diagnose.h"
#include "memstr.h"
#include "xorshift.h"

#define B(n) (1ull << (n))
#define MAXN 4096

struct named_map {
	const char *name;
	struct dram_map map;
	bool guess_column;      // no pivot that moves with the row in bits 3-12
};

static const struct named_map maps[] = {
	{ "faultgen", { { B(7) | B(16), B(14) | B(17), B(15) | B(18) }, 3, 16, 33 }, true },
	{ "sandy-like 1ch 2rank",
	  { { B(13) | B(17), B(14) | B(18), B(15) | B(19), B(16) | B(20) }, 4, 17, 32 }, true },
	{ "sandy-like 2ch (channel bit 6)",
	  { { B(6), B(14) | B(18), B(15) | B(19), B(16) | B(20), B(17) | B(21) }, 5, 18, 33 },
	  true },
	{ "haswell-like 2ch 2rank",
	  { { B(7) | B(8) | B(9) | B(12) | B(13) | B(18) | B(19) | B(20) | B(21),
	      B(14) | B(18), B(15) | B(19), B(16) | B(20), B(17) | B(21) }, 5, 18, 34 }, true },
	// Pivot 8 flips with row bits 18 and 19: no column from bits alone.
	{ "skylake-like ddr4 2ch",
	  { { B(8) | B(9) | B(12) | B(13) | B(18) | B(19), B(7) | B(14), B(15) | B(19),
	      B(16) | B(20), B(17) | B(21), B(18) | B(22) }, 6, 19, 35 }, false },
};

#define NMAPS (sizeof(maps) / sizeof(maps[0]))

static uint64_t rng_state;

static uint64_t rng(void)
{
	return xorshift64(&rng_state);
}

// A fault set: the failing word addresses, as the run would list them.
struct set {
	uint64_t a[MAXN];
	size_t n;
};

static struct set set;
static uint64_t scratch[MAXN];

static unsigned words_per_row(const struct dram_map *m)
{
	return 1u << (dram_column_bits(m) - 3);
}

static uint64_t row_count(const struct dram_map *m)
{
	return B(m->row_hi - m->row_lo + 1);
}

// The word at (bank, row, column word) under m.
static void add_cell(const struct dram_map *m, uint32_t bank, uint64_t row, uint64_t word)
{
	struct dram_addr d = { bank, row, word << 3 };
	uint64_t addr;

	if (set.n == MAXN)
		fail_msg("fault set full");
	if (!dram_encode(m, &d, &addr))
		fail_msg("no address for bank %u row %#llx word %#llx", bank,
			 (unsigned long long)row, (unsigned long long)word);
	set.a[set.n++] = addr;
}

static void gen_cells(const struct dram_map *m, unsigned k)
{
	for (unsigned i = 0; i < k; i++)
		add_cell(m, (uint32_t)(rng() % B(m->nfuncs)), rng() % row_count(m),
			 rng() % words_per_row(m));
}

// count distinct words of one row (a stride of 7 visits them all).
static void gen_row(const struct dram_map *m, uint32_t bank, uint64_t row, unsigned count)
{
	uint64_t start = rng();

	for (unsigned i = 0; i < count; i++)
		add_cell(m, bank, row, (start + 7ull * i) % words_per_row(m));
}

static void gen_column(const struct dram_map *m, uint32_t bank, uint64_t word, uint64_t row0,
		       unsigned rows)
{
	for (unsigned i = 0; i < rows; i++)
		add_cell(m, bank, row0 + i, word);
}

// k cells spread over the banks first .. first + nb - 1 (mod the map's).
static void gen_banks(const struct dram_map *m, uint32_t first, unsigned nb, unsigned k)
{
	for (unsigned i = 0; i < k; i++)
		add_cell(m, (uint32_t)((first + rng() % nb) % B(m->nfuncs)), rng() % row_count(m),
			 rng() % words_per_row(m));
}

// What the run adds: the same word again, at another byte, in any order.
static void add_duplicates(unsigned k)
{
	size_t n = set.n;

	for (unsigned i = 0; i < k && n > 0 && set.n < MAXN; i++)
		set.a[set.n++] = set.a[rng() % n] | (rng() & 7);
	for (size_t i = set.n; i > 1; i--) {
		size_t j = rng() % i;
		uint64_t t = set.a[i - 1];
		set.a[i - 1] = set.a[j];
		set.a[j] = t;
	}
}

static size_t distinct_words(void)
{
	static uint64_t w[MAXN];
	size_t d = 0;

	for (size_t i = 0; i < set.n; i++)
		w[i] = set.a[i] & ~7ull;
	for (size_t i = 0; i < set.n; i++) {
		size_t j = 0;
		while (j < i && w[j] != w[i])
			j++;
		d += j == i;
	}
	return d;
}

enum kind { CELLS, ROW, COLUMN, BANK, BANKS, MODULE };

// One generated fault set: its kind and sizes; strays are random cells
// added beside it.
struct shape_case {
	const char *what;
	enum kind kind;
	unsigned size;          // cells (CELLS, BANK, BANKS, MODULE), row cells, column rows
	unsigned nbanks;        // BANKS: over this many banks (MODULE: all)
	unsigned strays;
	enum dram_shape want;   // with the map
	enum dram_shape want_unmapped;
};

static const enum dram_shape shape_of_kind[] = {
	DRAM_SHAPE_CELLS, DRAM_SHAPE_ROW, DRAM_SHAPE_COLUMN,
	DRAM_SHAPE_BANK, DRAM_SHAPE_BANKS, DRAM_SHAPE_MODULE,
};

// The generated place, to check the diagnosis names it.
struct place {
	uint32_t bank;
	uint64_t row, word, first_addr;
};

static struct place generate(const struct dram_map *m, const struct shape_case *c)
{
	struct place p = { (uint32_t)(rng() % B(m->nfuncs)), 0, rng() % words_per_row(m), 0 };

	p.row = rng() % (row_count(m) - c->size);
	set.n = 0;
	switch (c->kind) {
	case CELLS: gen_cells(m, c->size); break;
	case ROW: gen_row(m, p.bank, p.row, c->size); break;
	case COLUMN: gen_column(m, p.bank, p.word, p.row, c->size); break;
	case BANK: gen_banks(m, p.bank, 1, c->size); break;
	case BANKS: gen_banks(m, p.bank, c->nbanks, c->size); break;
	case MODULE: gen_banks(m, 0, (unsigned)B(m->nfuncs), c->size); break;
	}
	p.first_addr = set.a[0];
	gen_cells(m, c->strays);
	add_duplicates(5);
	return p;
}

static void fail_shape(const char *what, const char *map, const char *tag,
		       const struct dram_diagnosis *d, enum dram_shape want)
{
	char text[160];
	dram_diagnosis_format(d, text, sizeof(text));
	fail_msg("%s, map %s%s: got %s, want %s (\"%s\")", what, map, tag,
		 dram_shape_name(d->shape), dram_shape_name(want), text);
}

// The distinct cells of one bank, << 20, and their distinct rows, by brute
// force.
static uint64_t bank_cells_rows(const struct dram_map *m, uint32_t bank)
{
	static struct dram_addr cell[MAXN];
	uint64_t cells = 0, rows = 0;

	for (size_t i = 0; i < set.n; i++) {
		struct dram_addr a;
		bool new_cell = true, new_row = true;
		dram_decode(m, set.a[i], &a);
		if (a.bank != bank)
			continue;
		for (size_t j = 0; j < cells; j++) {
			new_cell &= !(cell[j].row == a.row && cell[j].column >> 3 == a.column >> 3);
			new_row &= cell[j].row != a.row;
		}
		if (new_cell)
			cell[cells++] = a;
		rows += new_cell && new_row;
	}
	return cells << 20 | rows;
}

// The mapped diagnosis names the generated place and counts right.
static void check_mapped(const char *what, const struct named_map *m,
			 const struct dram_diagnosis *d, const struct shape_case *c,
			 const struct place *p)
{
	bool replace = d->shape >= DRAM_SHAPE_COLUMN;
	uint64_t got = 0, want = 0;

	if (d->cells != distinct_words() || d->replace != replace || !d->mapped)
		fail_msg("%s, map %s: cells %u want %zu, replace %d want %d, mapped %d", what,
			 m->name, d->cells, distinct_words(), d->replace, replace, d->mapped);
	switch (d->shape) {
	case DRAM_SHAPE_ROW:
		got = (uint64_t)d->bank << 40 | d->row;
		want = (uint64_t)p->bank << 40 | p->row;
		break;
	case DRAM_SHAPE_COLUMN:
		got = (uint64_t)d->bank << 40 | d->column << 20 | d->shape_rows;
		want = (uint64_t)p->bank << 40 | p->word << 23 | c->size;
		break;
	case DRAM_SHAPE_BANK:
		got = (uint64_t)d->bank << 40 | (uint64_t)d->in_shape << 20 | d->shape_rows;
		want = (uint64_t)p->bank << 40 | bank_cells_rows(&m->map, p->bank);
		break;
	case DRAM_SHAPE_MODULE:
		got = c->kind == MODULE ? d->fixed_funcs : 0;
		break;
	default:
		break;
	}
	if (got != want)
		fail_msg("%s, map %s: %s at bank<<40|place %#llx, want %#llx", what, m->name,
			 dram_shape_name(d->shape), (unsigned long long)got, (unsigned long long)want);
}

static void run_case(const struct named_map *m, const struct shape_case *c, enum dram_shape want_u)
{
	struct place p = generate(&m->map, c);
	static struct set copy;
	struct dram_diagnosis d;

	copy = set;
	dram_diagnose(copy.a, copy.n, scratch, &m->map, &d);
	if (d.shape != c->want)
		fail_shape(c->what, m->name, "", &d, c->want);
	check_mapped(c->what, m, &d, c, &p);
	copy = set;
	dram_diagnose(copy.a, copy.n, scratch, NULL, &d);
	if (d.shape != want_u || d.mapped || d.cells != distinct_words())
		fail_shape(c->what, m->name, " unmapped", &d, want_u);
	if (d.shape == DRAM_SHAPE_ROW && d.row != p.first_addr >> DRAM_DIAG_GUESS_ROW_SHIFT)
		fail_msg("%s, map %s unmapped: row %#llx, want %#llx", c->what, m->name,
			 (unsigned long long)d.row,
			 (unsigned long long)(p.first_addr >> DRAM_DIAG_GUESS_ROW_SHIFT));
}

// Every map; unmapped, a column shows only when the map's pivots allow.
static const struct shape_case shape_cases[] = {
	{ "5 cells", CELLS, 5, 0, 0, DRAM_SHAPE_CELLS, DRAM_SHAPE_CELLS },
	{ "16 cells", CELLS, 16, 0, 0, DRAM_SHAPE_CELLS, DRAM_SHAPE_CELLS },
	{ "a full row", ROW, 1024, 0, 0, DRAM_SHAPE_ROW, DRAM_SHAPE_ROW },
	{ "37 cells of a row, 3 strays", ROW, 37, 0, 3, DRAM_SHAPE_ROW, DRAM_SHAPE_ROW },
	{ "a column of 1024 rows", COLUMN, 1024, 0, 0, DRAM_SHAPE_COLUMN, DRAM_SHAPE_COLUMN },
	{ "a column of 256 rows, 20 strays", COLUMN, 256, 0, 20, DRAM_SHAPE_COLUMN,
	  DRAM_SHAPE_COLUMN },
	{ "a bank, 500 cells", BANK, 500, 1, 0, DRAM_SHAPE_BANK, DRAM_SHAPE_MODULE },
	{ "a bank, 300 cells, 50 strays", BANK, 300, 1, 50, DRAM_SHAPE_BANK, DRAM_SHAPE_MODULE },
	{ "2 banks, 500 cells", BANKS, 500, 2, 0, DRAM_SHAPE_BANKS, DRAM_SHAPE_MODULE },
	{ "3 banks, 500 cells", BANKS, 500, 3, 0, DRAM_SHAPE_BANKS, DRAM_SHAPE_MODULE },
	{ "the module, 2000 cells", MODULE, 2000, 0, 0, DRAM_SHAPE_MODULE, DRAM_SHAPE_MODULE },
};

static void test_shapes(void **state)
{
	(void)state;
	for (size_t k = 0; k < NMAPS; k++) {
		for (size_t j = 0; j < sizeof(shape_cases) / sizeof(shape_cases[0]); j++) {
			const struct shape_case *c = &shape_cases[j];
			enum dram_shape want_u = c->want_unmapped;
			if (want_u == DRAM_SHAPE_COLUMN && !maps[k].guess_column)
				want_u = DRAM_SHAPE_MODULE;
			rng_state = 0x9e3779b97f4a7c15ull + 1000 * k + j;
			run_case(&maps[k], c, want_u);
		}
	}
}

// The thresholds at their edges, under faultgen's map (8 banks).
static const struct shape_case edge_cases[] = {
	{ "3 cells of a row", ROW, 3, 0, 0, DRAM_SHAPE_CELLS, DRAM_SHAPE_CELLS },
	{ "4 cells of a row", ROW, 4, 0, 0, DRAM_SHAPE_ROW, DRAM_SHAPE_ROW },
	{ "6 cells of a row, 2 strays (3/4)", ROW, 6, 0, 2, DRAM_SHAPE_ROW, DRAM_SHAPE_ROW },
	{ "5 cells of a row, 2 strays", ROW, 5, 0, 2, DRAM_SHAPE_CELLS, DRAM_SHAPE_CELLS },
	{ "3 rows of a column", COLUMN, 3, 0, 0, DRAM_SHAPE_CELLS, DRAM_SHAPE_CELLS },
	{ "4 rows of a column", COLUMN, 4, 0, 0, DRAM_SHAPE_COLUMN, DRAM_SHAPE_COLUMN },
	{ "17 cells", CELLS, 17, 0, 0, DRAM_SHAPE_MODULE, DRAM_SHAPE_MODULE },
	{ "17 cells of a bank", BANK, 17, 1, 0, DRAM_SHAPE_BANK, DRAM_SHAPE_MODULE },
	{ "3 banks of 8", BANKS, 200, 3, 0, DRAM_SHAPE_BANKS, DRAM_SHAPE_MODULE },
	{ "4 banks of 8 (half)", BANKS, 200, 4, 0, DRAM_SHAPE_MODULE, DRAM_SHAPE_MODULE },
	{ "a column of 64 rows, 21 strays (3/4)", COLUMN, 64, 0, 21, DRAM_SHAPE_COLUMN,
	  DRAM_SHAPE_COLUMN },
};

static void test_edges(void **state)
{
	(void)state;
	for (size_t j = 0; j < sizeof(edge_cases) / sizeof(edge_cases[0]); j++) {
		rng_state = 0xed9e + j;
		run_case(&maps[0], &edge_cases[j], edge_cases[j].want_unmapped);
	}
}

// Random maps, kinds and sizes, each well inside its shape's rules; the
// seed is in the case's name.
static void test_random(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 60; seed++) {
		char what[64];
		rng_state = seed * 0x2545f4914f6cdd1dull;
		const struct named_map *m = &maps[rng() % NMAPS];
		struct shape_case c = { what, (enum kind)(rng() % 6), 0, 0, 0, 0, 0 };
		unsigned banks = (unsigned)B(m->map.nfuncs);
		switch (c.kind) {
		case CELLS: c.size = 1 + rng() % DRAM_DIAG_FEW_ROWS; break;
		case ROW: c.size = 4 + rng() % 1021; c.strays = rng() % (c.size / 3 + 1); break;
		case COLUMN: c.size = 64 + rng() % 961; c.strays = rng() % (c.size / 4 + 1); break;
		case BANK: c.size = 50 + rng() % 500; c.strays = rng() % (c.size / 4 + 1); break;
		case BANKS: c.size = 100 + rng() % 1000; c.nbanks = 2 + rng() % (banks / 2 - 2); break;
		case MODULE: c.size = 500 + rng() % 2000; break;
		}
		c.want = shape_of_kind[c.kind];
		c.want_unmapped = c.kind == CELLS || c.kind == ROW ? c.want :
				  c.kind == COLUMN && m->guess_column ? DRAM_SHAPE_COLUMN :
				  DRAM_SHAPE_MODULE;
		snprintf(what, sizeof(what), "seed %llu: %s of %u, %u strays",
			 (unsigned long long)seed, dram_shape_name(c.want), c.size, c.strays);
		run_case(m, &c, c.want_unmapped);
	}
}

// Address bits above row_hi are no part of the row that is named, but they
// keep apart rows that differ only there.
static void test_above_row_hi(void **state)
{
	static const struct shape_case c = { "a row", ROW, 100, 0, 0, 0, 0 };
	const struct dram_map *m = &maps[0].map;
	struct dram_diagnosis d;
	(void)state;
	rng_state = 34;
	struct place p = generate(m, &c);
	for (size_t i = 0; i < set.n; i++)
		set.a[i] |= B(m->row_hi + 3);
	dram_diagnose(set.a, set.n, scratch, m, &d);
	if (d.shape != DRAM_SHAPE_ROW || d.row != p.row || d.rows != 1)
		fail_msg("row %#llx above row_hi: got %s row %#llx (%u rows)",
			 (unsigned long long)p.row, dram_shape_name(d.shape),
			 (unsigned long long)d.row, d.rows);
	for (size_t i = 0; i < 50; i++)
		set.a[i] &= ~B(m->row_hi + 3);
	dram_diagnose(set.a, d.cells, scratch, m, &d);
	if (d.shape != DRAM_SHAPE_CELLS || d.rows != 2)
		fail_msg("a row split above row_hi: got %s in %u rows, want cells in 2",
			 dram_shape_name(d.shape), d.rows);
}

// One DIMM of two failing: every bank of one channel (function 0 of the
// Haswell-like map), half the banks, is the module, and the words say
// which channel.
static void test_one_channel(void **state)
{
	const struct named_map *m = &maps[3];
	struct dram_diagnosis d;
	char text[160], want[160];
	(void)state;
	rng_state = 0xc4a;
	set.n = 0;
	for (unsigned i = 0; i < 1500; i++)
		add_cell(&m->map, (uint32_t)(rng() % 16) << 1 | 1, rng() % row_count(&m->map),
			 rng() % words_per_row(&m->map));
	dram_diagnose(set.a, set.n, scratch, &m->map, &d);
	dram_diagnosis_format(&d, text, sizeof(text));
	if (d.shape != DRAM_SHAPE_MODULE || d.banks != 16 || d.fixed_funcs != 1 ||
	    d.fixed_values != 1)
		fail_msg("one channel: got %s, %u banks, fixed %#x = %#x (\"%s\"), want module, "
			 "16 banks, fixed 0x1 = 0x1", dram_shape_name(d.shape), d.banks,
			 d.fixed_funcs, d.fixed_values, text);
	snprintf(want, sizeof(want), "the module (16 of 32 banks, %u rows, %u cells, "
		 "all with bank function 0 = 1): replace the module", d.rows, d.cells);
	assert_string_equal(text, want);
}

// The largest list the image keeps: 4096 entries, each cell listed 4
// times at other bytes.
static void test_full_list(void **state)
{
	const struct dram_map *m = &maps[1].map;
	struct dram_diagnosis d;
	(void)state;
	rng_state = 0x4096409640964096ull;
	struct place p = { (uint32_t)(rng() % B(m->nfuncs)), rng() % 1024, rng() % 1024, 0 };
	set.n = 0;
	gen_column(m, p.bank, p.word, p.row, 1024);
	for (size_t i = 0; i < 3 * 1024; i++)
		set.a[set.n++] = set.a[i % 1024] | (i & 7);
	dram_diagnose(set.a, set.n, scratch, m, &d);
	if (d.shape != DRAM_SHAPE_COLUMN || d.cells != 1024 || d.bank != p.bank ||
	    d.column != p.word << 3)
		fail_msg("4096 entries: got %s of %u cells, bank %u column %#llx, want column of "
			 "1024, bank %u column %#llx", dram_shape_name(d.shape), d.cells, d.bank,
			 (unsigned long long)d.column, p.bank, (unsigned long long)(p.word << 3));
}

static void test_no_failures(void **state)
{
	struct dram_diagnosis d;
	char text[64];
	(void)state;
	dram_diagnose(set.a, 0, scratch, &maps[0].map, &d);
	assert_int_equal(d.shape, DRAM_SHAPE_NONE);
	assert_int_equal(d.cells, 0);
	assert_false(d.replace);
	dram_diagnosis_format(&d, text, sizeof(text));
	assert_string_equal(text, "no failures");
}

// The words: {diagnosis, text}.
struct text_case {
	struct dram_diagnosis d;
	const char *want;
};

static const struct text_case text_cases[] = {
	{ { .shape = DRAM_SHAPE_CELLS, .mapped = true, .cells = 3, .rows = 3 },
	  "3 cells in 3 rows: safe to exclude" },
	{ { .shape = DRAM_SHAPE_CELLS, .mapped = true, .cells = 1, .rows = 1 },
	  "1 cell in 1 row: safe to exclude" },
	{ { .shape = DRAM_SHAPE_ROW, .mapped = true, .bank = 5, .row = 0x1a2b, .in_shape = 37 },
	  "a row of bank 5 (row 0x1a2b, 37 cells): safe to exclude" },
	{ { .shape = DRAM_SHAPE_ROW, .row = 0x123, .in_shape = 1024 },
	  "a row (in the MiB at 0x12300000, 1024 cells): safe to exclude "
	  "(DRAM mapping unknown: from address bits)" },
	{ { .shape = DRAM_SHAPE_COLUMN, .mapped = true, .replace = true, .bank = 5,
	    .column = 0x3f8, .shape_rows = 1024 },
	  "a column of bank 5 (column 0x3f8, 1024 rows): replace the module" },
	{ { .shape = DRAM_SHAPE_COLUMN, .replace = true, .column = 0x1238, .shape_rows = 64 },
	  "a column (offset 0x1238 in 64 rows): replace the module "
	  "(DRAM mapping unknown: from address bits)" },
	{ { .shape = DRAM_SHAPE_BANK, .mapped = true, .replace = true, .bank = 2,
	    .shape_rows = 480, .in_shape = 500 },
	  "bank 2 (480 rows, 500 cells): replace the module" },
	{ { .shape = DRAM_SHAPE_BANKS, .mapped = true, .replace = true, .banks = 3,
	    .map_banks = 32, .rows = 499, .cells = 500 },
	  "3 of 32 banks (499 rows, 500 cells): replace the module" },
	{ { .shape = DRAM_SHAPE_MODULE, .mapped = true, .replace = true, .banks = 8,
	    .map_banks = 8, .rows = 1990, .cells = 2000 },
	  "the module (8 of 8 banks, 1990 rows, 2000 cells): replace the module" },
	{ { .shape = DRAM_SHAPE_BANKS, .mapped = true, .replace = true, .banks = 2,
	    .map_banks = 32, .rows = 99, .cells = 100, .fixed_funcs = 0x19, .fixed_values = 0x8 },
	  "2 of 32 banks (99 rows, 100 cells, all with bank function 0 = 0 and bank function "
	  "3 = 1 and bank function 4 = 0): replace the module" },
	{ { .shape = DRAM_SHAPE_MODULE, .replace = true, .rows = 1990, .cells = 2000 },
	  "2000 cells in 1990 rows, banks unknown: replace the module "
	  "(DRAM mapping unknown: from address bits)" },
};

static void test_text(void **state)
{
	char text[200];
	(void)state;
	for (size_t k = 0; k < sizeof(text_cases) / sizeof(text_cases[0]); k++) {
		const struct text_case *c = &text_cases[k];
		int n = dram_diagnosis_format(&c->d, text, sizeof(text));
		if (!str_eq(text, c->want) || n != (int)str_len(c->want))
			fail_msg("%s: got \"%s\" (%d), want \"%s\"", dram_shape_name(c->d.shape), text,
				 n, c->want);
	}
}

// A short buffer gets a NUL-terminated start and the full length back.
static void test_text_short(void **state)
{
	const struct text_case *c = &text_cases[3];
	char text[16];
	(void)state;
	mem_set(text, 'x', sizeof(text));
	assert_int_equal(dram_diagnosis_format(&c->d, text, sizeof(text)), str_len(c->want));
	assert_memory_equal(text, c->want, sizeof(text) - 1);
	assert_int_equal(text[sizeof(text) - 1], '\0');
	assert_int_equal(dram_diagnosis_format(&c->d, NULL, 0), str_len(c->want));
}

// Generated cells end to end: the words the person reads.
static void test_cells_words(void **state)
{
	static const struct shape_case c = { "3 cells", CELLS, 3, 0, 0, 0, 0 };
	struct dram_diagnosis d;
	char text[100];
	(void)state;
	rng_state = 3;
	generate(&maps[3].map, &c);
	dram_diagnose(set.a, set.n, scratch, &maps[3].map, &d);
	dram_diagnosis_format(&d, text, sizeof(text));
	assert_string_equal(text, "3 cells in 3 rows: safe to exclude");
	assert_int_equal(set.a[0] & 7, 0);      // the distinct words, ascending
	assert_true(set.a[0] < set.a[1] && set.a[1] < set.a[2]);
}

static void test_shape_names(void **state)
{
	static const char *const want[] = { "none", "cells", "row", "column", "bank", "banks",
					    "module" };
	(void)state;
	for (int s = DRAM_SHAPE_NONE; s <= DRAM_SHAPE_MODULE; s++)
		assert_string_equal(dram_shape_name((enum dram_shape)s), want[s]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shapes),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_above_row_hi),
		cmocka_unit_test(test_one_channel),
		cmocka_unit_test(test_full_list),
		cmocka_unit_test(test_no_failures),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_text_short),
		cmocka_unit_test(test_cells_words),
		cmocka_unit_test(test_shape_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
