// SPDX-License-Identifier: GPL-2.0-or-later
// The diagnosis of a run's failing words (diagnose.h has the rules): each
// cell's bank, row and column under the map (or the guessed geometry), the
// distinct rows, columns and banks and the largest of each, counted by
// sorting keys in the caller's scratch; then the shape, and its words.

#include "dram/diagnose.h"
#include "dram/decode.h"
#include "fmt.h"

// A key packs the bank above the row or column, so that the same row
// number in two banks is two rows.
#define BANK_SHIFT 56

enum key { KEY_ROW, KEY_COLUMN, KEY_BANK };

// Heapsort: in place, O(n log n), a constant stack.
static void sift_down(uint64_t *a, size_t root, size_t n)
{
	for (size_t child; (child = 2 * root + 1) < n; root = child) {
		if (child + 1 < n && a[child + 1] > a[child])
			child++;
		if (a[root] >= a[child])
			return;
		uint64_t t = a[root];
		a[root] = a[child];
		a[child] = t;
	}
}

static void sort(uint64_t *a, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift_down(a, i, n);
	for (size_t end = n; end-- > 1;) {
		uint64_t t = a[0];
		a[0] = a[end];
		a[end] = t;
		sift_down(a, 0, end);
	}
}

// Over sorted keys: how many distinct, and the most frequent (the lowest
// of a tie) with its count.
struct tally {
	uint32_t distinct;
	uint64_t top;
	uint32_t top_count;
};

static struct tally tally(const uint64_t *a, size_t n)
{
	struct tally t = { 0, 0, 0 };

	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && a[j] == a[i]; j++)
			;
		t.distinct++;
		if (j - i > t.top_count) {
			t.top = a[i];
			t.top_count = (uint32_t)(j - i);
		}
	}
	return t;
}

static uint64_t key_of(const struct dram_map *map, uint64_t addr, enum key k)
{
	if (!map) {
		if (k == KEY_ROW)
			return addr >> DRAM_DIAG_GUESS_ROW_SHIFT;
		return k == KEY_COLUMN ? addr & DRAM_DIAG_GUESS_COLUMN_MASK : 0;
	}
	struct dram_addr a;
	dram_decode(map, addr, &a);
	uint64_t bank = (uint64_t)a.bank << BANK_SHIFT;
	// The row with the bits above row_hi, so that no two rows merge.
	if (k == KEY_ROW)
		return bank | addr >> map->row_lo;
	return k == KEY_COLUMN ? bank | a.column : a.bank;
}

// Tally the keys of kind k of the cells, or only of those whose key of
// kind only->kind is only->key (the rows of one column or bank).
struct only {
	enum key kind;
	uint64_t key;
};

static struct tally tally_keys(const uint64_t *cells, size_t n, uint64_t *scratch,
			       const struct dram_map *map, enum key k, const struct only *only)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (!only || key_of(map, cells[i], only->kind) == only->key)
			scratch[m++] = key_of(map, cells[i], k);
	sort(scratch, m);
	return tally(scratch, m);
}

// Sort, align to words and drop duplicates; returns the distinct count.
static size_t distinct_words(uint64_t *addrs, size_t n)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		addrs[i] &= ~7ull;
	sort(addrs, n);
	for (size_t i = 0; i < n; i++)
		if (m == 0 || addrs[i] != addrs[m - 1])
			addrs[m++] = addrs[i];
	return m;
}

// At least 3/4 of the cells.
static bool most(uint32_t count, uint32_t cells)
{
	return 4ull * count >= 3ull * cells;
}

static enum dram_shape shape_of(const struct dram_diagnosis *d, const struct tally *row,
				const struct tally *col, const struct tally *bank)
{
	if (d->cells == 0)
		return DRAM_SHAPE_NONE;
	if (col->top_count >= DRAM_DIAG_LINE_MIN && most(col->top_count, d->cells))
		return DRAM_SHAPE_COLUMN;
	if (row->top_count >= DRAM_DIAG_LINE_MIN && most(row->top_count, d->cells))
		return DRAM_SHAPE_ROW;
	if (d->rows <= DRAM_DIAG_FEW_ROWS)
		return DRAM_SHAPE_CELLS;
	if (!d->mapped)
		return DRAM_SHAPE_MODULE;
	if (most(bank->top_count, d->cells))
		return DRAM_SHAPE_BANK;
	return 2ull * d->banks >= d->map_banks ? DRAM_SHAPE_MODULE : DRAM_SHAPE_BANKS;
}

// The first cell whose key of kind k is key.
static uint64_t cell_with(const uint64_t *cells, size_t n, const struct dram_map *map,
			  enum key k, uint64_t key)
{
	size_t i = 0;

	while (i + 1 < n && key_of(map, cells[i], k) != key)
		i++;
	return cells[i];
}

// Fill the row, column or bank concerned by the shape.
static void name_place(struct dram_diagnosis *d, const uint64_t *cells, uint64_t *scratch,
		       const struct dram_map *map, const struct tally *row, const struct tally *col,
		       const struct tally *bank)
{
	uint64_t low = (1ull << BANK_SHIFT) - 1;
	struct only in_col = { KEY_COLUMN, col->top }, in_bank = { KEY_BANK, bank->top };
	struct dram_addr a;

	switch (d->shape) {
	case DRAM_SHAPE_ROW:
		d->in_shape = row->top_count;
		d->shape_rows = 1;
		d->bank = (uint32_t)(row->top >> BANK_SHIFT);
		d->row = row->top & low;
		if (map) {
			dram_decode(map, cell_with(cells, d->cells, map, KEY_ROW, row->top), &a);
			d->row = a.row;
		}
		break;
	case DRAM_SHAPE_COLUMN:
		d->in_shape = col->top_count;
		d->shape_rows = tally_keys(cells, d->cells, scratch, map, KEY_ROW, &in_col).distinct;
		d->bank = (uint32_t)(col->top >> BANK_SHIFT);
		d->column = col->top & low;
		break;
	case DRAM_SHAPE_BANK:
		d->in_shape = bank->top_count;
		d->shape_rows = tally_keys(cells, d->cells, scratch, map, KEY_ROW, &in_bank).distinct;
		d->bank = (uint32_t)bank->top;
		break;
	default:
		break;
	}
}

static void find_fixed(const uint64_t *cells, size_t n, const struct dram_map *map,
		       struct dram_diagnosis *d)
{
	uint32_t all = UINT32_MAX, any = 0;

	if (!map || n == 0)
		return;
	for (size_t i = 0; i < n; i++) {
		uint32_t bank = (uint32_t)key_of(map, cells[i], KEY_BANK);
		all &= bank;
		any |= bank;
	}
	d->fixed_funcs = ~(all ^ any) & (d->map_banks - 1);
	d->fixed_values = all & d->fixed_funcs;
}

void dram_diagnose(uint64_t *addrs, size_t n, uint64_t *scratch, const struct dram_map *map,
		   struct dram_diagnosis *out)
{
	size_t cells = distinct_words(addrs, n);
	struct tally row = tally_keys(addrs, cells, scratch, map, KEY_ROW, NULL);
	struct tally col = tally_keys(addrs, cells, scratch, map, KEY_COLUMN, NULL);
	struct tally bank = tally_keys(addrs, cells, scratch, map, KEY_BANK, NULL);

	*out = (struct dram_diagnosis){
		.mapped = map != NULL,
		.cells = (uint32_t)cells,
		.rows = row.distinct,
		.columns = col.distinct,
		.banks = map ? bank.distinct : 0,
		.map_banks = map ? 1u << map->nfuncs : 0,
	};
	find_fixed(addrs, cells, map, out);
	out->shape = shape_of(out, &row, &col, &bank);
	out->replace = out->shape != DRAM_SHAPE_NONE && out->shape != DRAM_SHAPE_CELLS &&
		       out->shape != DRAM_SHAPE_ROW;
	name_place(out, addrs, scratch, map, &row, &col, &bank);
}

const char *dram_shape_name(enum dram_shape shape)
{
	static const char *const names[] = {
		[DRAM_SHAPE_NONE] = "none",     [DRAM_SHAPE_CELLS] = "cells",
		[DRAM_SHAPE_ROW] = "row",       [DRAM_SHAPE_COLUMN] = "column",
		[DRAM_SHAPE_BANK] = "bank",     [DRAM_SHAPE_BANKS] = "banks",
		[DRAM_SHAPE_MODULE] = "module",
	};
	return (unsigned)shape < sizeof(names) / sizeof(names[0]) ? names[shape] : "?";
}

static const char *plural(uint32_t n)
{
	return n == 1 ? "" : "s";
}

// The end of a banks or module parenthesis: the functions all its cells
// share, if any.
static void put_fixed(struct fmt_text *t, const struct dram_diagnosis *d)
{
	const char *sep = ", all with";

	for (unsigned i = 0; i < DRAM_MAX_FUNCS; i++) {
		if (!(d->fixed_funcs >> i & 1))
			continue;
		fmt_text_put(t, "%s bank function %u = %u", sep, i, d->fixed_values >> i & 1);
		sep = " and";
	}
	fmt_text_put(t, ")");
}

static void put_place(struct fmt_text *t, const struct dram_diagnosis *d)
{
	unsigned long long row = d->row, column = d->column;

	switch (d->shape) {
	case DRAM_SHAPE_NONE:
		fmt_text_put(t, "no failures");
		break;
	case DRAM_SHAPE_CELLS:
		fmt_text_put(t, "%u cell%s in %u row%s", d->cells, plural(d->cells), d->rows,
		             plural(d->rows));
		break;
	case DRAM_SHAPE_ROW:
		if (d->mapped)
			fmt_text_put(t, "a row of bank %u (row %#llx, %u cells)", d->bank, row,
			             d->in_shape);
		else
			fmt_text_put(t, "a row (in the MiB at %#llx, %u cells)",
			             row << DRAM_DIAG_GUESS_ROW_SHIFT, d->in_shape);
		break;
	case DRAM_SHAPE_COLUMN:
		if (d->mapped)
			fmt_text_put(t, "a column of bank %u (column %#llx, %u rows)", d->bank,
			             column, d->shape_rows);
		else
			fmt_text_put(t, "a column (offset %#llx in %u rows)", column,
			             d->shape_rows);
		break;
	case DRAM_SHAPE_BANK:
		fmt_text_put(t, "bank %u (%u rows, %u cells)", d->bank, d->shape_rows,
		             d->in_shape);
		break;
	case DRAM_SHAPE_BANKS:
		fmt_text_put(t, "%u of %u banks (%u rows, %u cells", d->banks, d->map_banks,
		             d->rows, d->cells);
		put_fixed(t, d);
		break;
	case DRAM_SHAPE_MODULE:
		if (d->mapped) {
			fmt_text_put(t, "the module (%u of %u banks, %u rows, %u cells", d->banks,
			             d->map_banks, d->rows, d->cells);
			put_fixed(t, d);
		} else
			fmt_text_put(t, "%u cells in %u rows, banks unknown", d->cells, d->rows);
		break;
	}
}

int dram_diagnosis_format(const struct dram_diagnosis *d, char *buf, size_t size)
{
	struct fmt_text t = fmt_text_start(buf, size);

	put_place(&t, d);
	if (d->shape == DRAM_SHAPE_NONE)
		return (int)t.used;
	fmt_text_put(&t, d->replace ? ": replace the module" : ": safe to exclude");
	if (!d->mapped)
		fmt_text_put(&t, " (DRAM mapping unknown: from address bits)");
	return (int)t.used;
}
