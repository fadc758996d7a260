// SPDX-License-Identifier: GPL-2.0-or-later
// The fold's driver (see fold.h). Order of work: copy the table's
// pages out and sort them; set the overflow cubes aside (they are kept as
// they are, and their pairs and holes come off the budgets); compute the
// memmap ranges; then gather candidate covers of the remaining pages (the
// exact search, the address tree, the structure tree, which reorders the
// page array and so comes last) and keep the one excluding fewest pages.
// If none fits, or scratch is short, the answer is the aligned block around
// every failure: one pair, as few holes as any single cube can have.
#include "badram/agglo.h"
#include "badram/dp.h"
#include "badram/exact.h"
#include "badram/badram.h"
#include "badram/holes.h"
#include "badram/merge.h"
#include "badram/order.h"
#include "badram/sort.h"
#include "badram/tree.h"
#include "memstr.h"

#define TREE_MAX_LEAVES 4096
#define MEASURE_STEPS (1ULL << 22)      // cube_measure work cap per candidate

struct arena {
	uint8_t *p;
	size_t left;
};

static void *take(struct arena *a, size_t bytes)
{
	size_t pad = (8 - ((uintptr_t)a->p & 7)) & 7;
	void *q;

	if (a->left < pad || a->left - pad < bytes)
		return NULL;
	q = a->p + pad;
	a->p += pad + bytes;
	a->left -= pad + bytes;
	return q;
}

struct badram_budget badram_budget_default(void)
{
	struct badram_budget b = { BADRAM_DEFAULT_PAIRS, BADRAM_DEFAULT_HOLES,
				   BADRAM_DEFAULT_MEMMAP_CHARS, false };
	return b;
}

struct fold {
	struct universe u;
	uint64_t *page, *tmp;           // pages outside the overflow cubes
	size_t n;
	struct cube ovf[BADRAM_OVF_MAX];
	size_t novf;
	unsigned pairs;                 // K
	uint64_t holes;                 // H
	bool uefi_only;                 // GRUB-on-BIOS safety does not count
	struct arena rest;
};

// A candidate answer and whether GRUB 2.06 on BIOS applies all of it.
struct cand {
	struct dp_cover c;
	bool safe;
};

// Page [lo, hi] spans of a cube.
static uint64_t cube_last(struct cube c)
{
	return c.val | (~c.care & CUBE_DOMAIN);
}

// The aligned block around every page of the table and overflow cubes.
static struct cube hull(const struct badram_table *t)
{
	uint64_t a = ~0ULL, o = 0, diff;
	struct cube c;

	for (uint64_t i = 0; i <= t->mask; i++) {
		if (t->slot[i] != BADRAM_TABLE_EMPTY) {
			a &= t->slot[i];
			o |= t->slot[i];
		}
	}
	for (unsigned k = 0; k < t->novf; k++) {
		a &= t->ovf[k].val;
		o |= cube_last(t->ovf[k]);
	}
	diff = a ^ o;
	c.care = CUBE_DOMAIN & (diff ? ~((2ULL << (63 - __builtin_clzll(diff))) - 1)
				   : ~0ULL);
	c.val = a & c.care;
	return c;
}

// RAM pages and holes of the interval [lo, hi) of pages, against byte
// ranges (a page counts as RAM when any of its bytes is; no ranges: all).
static void interval_measure(uint64_t lo, uint64_t hi, const struct range *ram,
			     size_t nram, struct cube_measure *m)
{
	m->pages = m->runs = 0;
	for (size_t i = 0; i < nram; i++) {
		uint64_t s = ram[i].start >> PAGE_SHIFT;
		uint64_t e = (ram[i].end + (1u << PAGE_SHIFT) - 1) >> PAGE_SHIFT;
		if (s < lo)
			s = lo;
		if (e > hi)
			e = hi;
		if (s < e) {
			m->pages += e - s;
			m->runs++;
		}
	}
	if (nram == 0) {
		m->pages = hi - lo;
		m->runs = 1;
	}
}

// The one-pair answer when nothing fits the budgets: the hull, measured
// exactly against RAM (a single cube's holes are what cube_ram_runs says).
static void answer_hull(const struct badram_table *t, const struct universe *u,
			struct badram_result *r)
{
	struct cube c = hull(t);

	r->npairs = 1;
	r->pair[0].addr = c.val << PAGE_SHIFT;
	r->pair[0].mask = c.care << PAGE_SHIFT;
	r->excluded_pages = cube_ram_pages(c, u);
	r->holes = cube_ram_runs(c, u);
	r->grub_safe = cube_in_one_range(c, u);
	if (r->holes > r->holes_budget)
		r->holes_budget = (unsigned)r->holes;
}

// Too little scratch even to sort the pages: the hull as the one pair and
// the one memmap range, measured against the byte ranges directly.
static void answer_degraded(const struct badram_table *t,
			    const struct range *ram, size_t nram,
			    struct badram_result *r)
{
	struct cube c = hull(t);
	struct cube_measure m;

	interval_measure(c.val, cube_last(c) + 1, ram, nram, &m);
	r->degraded = true;
	r->npairs = 1;
	r->pair[0].addr = c.val << PAGE_SHIFT;
	r->pair[0].mask = c.care << PAGE_SHIFT;
	r->excluded_pages = m.pages;
	r->holes = m.runs;
	r->grub_safe = m.runs <= 1;     // meets one RAM range at most
	if (r->holes > r->holes_budget)
		r->holes_budget = (unsigned)r->holes;
	r->nmemmap = 1;
	r->memmap[0].start = c.val << PAGE_SHIFT;
	r->memmap[0].end = (cube_last(c) + 1) << PAGE_SHIFT;
	// No RAM given: RAM is from 0 to the last page the pair covers.
	r->ram_pages = nram ? range_total(ram, nram) >> PAGE_SHIFT : cube_last(c) + 1;
	r->sacrificed_pages = r->excluded_pages > r->failing_pages
				      ? r->excluded_pages - r->failing_pages : 0;
	r->memmap_sacrificed = r->sacrificed_pages;
	r->limit = r->sacrificed_pages ? BADRAM_LIMIT_PAIRS : BADRAM_LIMIT_NONE;
}

// Usable RAM in pages, merged where rounding makes ranges touch; nram == 0
// means [0, top). Returns the count.
static size_t ram_pages(const struct range *ram, size_t nram, uint64_t top,
			struct range *out)
{
	size_t m = 0;

	if (nram == 0) {
		out[0].start = 0;
		out[0].end = top;
		return 1;
	}
	for (size_t i = 0; i < nram; i++) {
		uint64_t s = ram[i].start >> PAGE_SHIFT;
		uint64_t e = (ram[i].end + (1u << PAGE_SHIFT) - 1) >> PAGE_SHIFT;
		if (s >= e)
			continue;
		if (m > 0 && s <= out[m - 1].end) {
			if (e > out[m - 1].end)
				out[m - 1].end = e;
		} else {
			out[m].start = s;
			out[m++].end = e;
		}
	}
	return m;
}

// Failing pages in RAM, and the runs they form there (an exact cover's
// holes): one merge-like pass over the sorted pages and ranges.
static uint64_t pages_in_ram(const struct fold *f, uint64_t *runs)
{
	uint64_t in = 0;
	size_t r = 0;

	*runs = 0;
	for (size_t i = 0; i < f->n; i++) {
		while (r < f->u.nram && f->u.ram[r].end <= f->page[i])
			r++;
		if (r == f->u.nram || f->page[i] < f->u.ram[r].start)
			continue;
		in++;
		if (i == 0 || f->page[i - 1] + 1 != f->page[i] ||
		    f->page[i - 1] < f->u.ram[r].start)
			(*runs)++;
	}
	return in;
}

static uint64_t ram_in(const struct universe *u, uint64_t lo, uint64_t hi)
{
	uint64_t n = 0;

	for (size_t i = 0; i < u->nram; i++) {
		uint64_t a = u->ram[i].start > lo ? u->ram[i].start : lo;
		uint64_t b = u->ram[i].end < hi ? u->ram[i].end : hi;
		if (a < b)
			n += b - a;
	}
	return n;
}

// Leaves of the largest split tree whose build and DP fit in bytes.
static size_t tree_leaves(size_t bytes, unsigned pairs)
{
	size_t lo = 0, hi = TREE_MAX_LEAVES;

	while (lo < hi) {
		size_t mid = (lo + hi + 1) / 2;
		if (tree_build_bytes(mid) + dp_bytes(2 * mid - 1, pairs) + 64 <= bytes)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

// The leaves of the first m leaves' worth of a best-first tree: nodes are
// appended two by two as leaves split, so that tree is node[0 .. 2m - 1).
static size_t first_leaves(const struct tree_node *node, size_t nn, size_t m,
			   struct cube *out)
{
	size_t end = 2 * m - 1 < nn ? 2 * m - 1 : nn, k = 0;

	for (size_t v = 0; v < end; v++)
		if (node[v].kid[0] == 0 || node[v].kid[0] >= end)
			out[k++] = tree_supercube(&node[v]);
	return k;
}

// Fold the pages with one split tree; out->found false if nothing fits.
// With agglo, also merge bottom-up from the tree's first leaves.
static void tree_cover(struct fold *f, enum tree_policy pol,
		       const struct dp_params *p, struct dp_cover *out,
		       struct dp_cover *agglo)
{
	struct arena a = f->rest;
	struct cube *start = take(&a, AGGLO_MAX_START * sizeof(*start));
	struct arena tree_mem = a;      // the merger reuses it after the DP
	size_t leaves = tree_leaves(a.left, p->pairs), nstart = 0;
	struct tree_node *node = take(&a, (2 * leaves - 1) * sizeof(*node));
	struct heap_item *heap = take(&a, leaves * sizeof(*heap));

	out->found = false;
	out->holes_bound = false;
	if (agglo != NULL)
		agglo->found = false;
	if (leaves == 0 || start == NULL || node == NULL || heap == NULL)
		return;
	size_t nn = tree_build(pol, f->page, f->n, f->tmp, &f->u, leaves, node, heap);
	if (agglo != NULL)
		nstart = first_leaves(node, nn, AGGLO_MAX_START, start);
	dp_choose(node, nn, p, take(&a, 0), a.left, out);
	if (agglo != NULL)
		agglo_choose(start, nstart, p, take(&tree_mem, 0), tree_mem.left, agglo);
}

// Merge c's cubes where that keeps GRUB's rules and put them in a GRUB-safe
// order (order.h) if one exists; returns whether it does.
static bool shape(struct dp_cover *c, const struct universe *u)
{
	struct cube raw[CUBE_MAX_CUBES];
	unsigned n = c->n;

	mem_copy(raw, c->cube, n * sizeof(*raw));
	c->n = (unsigned)merge_simplify(c->cube, c->n, u);
	if (order_cubes(c->cube, c->n, u))
		return true;
	if (!order_cubes(raw, n, u))
		return false;
	mem_copy(c->cube, raw, n * sizeof(*raw));   // merging broke the order
	c->n = n;
	return true;
}

// Shape c and keep it in best when it ranks first: GRUB-safe (unless
// uefi_only), then fewer pages excluded, fewer pairs, fewer holes.
static void keep_better(const struct fold *f, struct cand *best,
			struct dp_cover *c)
{
	if (!c->found)
		return;
	bool safe = shape(c, &f->u);
	if (best->c.found) {
		int s = f->uefi_only ? 0 : (int)best->safe - (int)safe;
		if (s > 0 || (s == 0 &&
			      (best->c.m.pages < c->m.pages ||
			       (best->c.m.pages == c->m.pages &&
				(best->c.n < c->n ||
				 (best->c.n == c->n && best->c.m.runs <= c->m.runs))))))
			return;
	}
	bool holes_bound = best->c.holes_bound;
	best->c = *c;
	best->c.holes_bound = holes_bound;
	best->safe = safe;
}

// Set the overflow cubes aside: drop the pages they cover, merge them to at
// most a quarter of the pairs, and take their pairs and holes off the
// budgets. False when they leave no room for the pages.
static bool overflow_budget(struct fold *f, const struct badram_table *t)
{
	size_t m = 0, cap = f->pairs / 4 ? f->pairs / 4 : 1;
	struct cube_measure mo;

	f->novf = t->novf;
	mem_copy(f->ovf, t->ovf, t->novf * sizeof(*f->ovf));
	if (f->novf == 0)
		return true;
	for (size_t i = 0; i < f->n; i++) {
		bool covered = false;
		for (size_t k = 0; k < f->novf; k++)
			covered |= cube_match(f->ovf[k], f->page[i]);
		if (!covered)
			f->page[m++] = f->page[i];
	}
	f->n = m;
	while (f->novf > cap)
		f->novf = merge_closest(f->ovf, f->novf);
	if (!cube_measure(f->ovf, f->novf, &f->u, f->holes, MEASURE_STEPS, &mo) ||
	    mo.runs >= f->holes) {
		while (f->novf > 1)
			f->novf = merge_closest(f->ovf, f->novf);
		if (!cube_measure(f->ovf, f->novf, &f->u, f->holes, MEASURE_STEPS, &mo) ||
		    mo.runs > f->holes || (f->n > 0 && mo.runs == f->holes))
			return false;
	}
	if (f->n > 0 && f->novf >= f->pairs)
		return false;
	f->pairs -= (unsigned)f->novf;
	f->holes -= mo.runs;
	return true;
}

static void set_pairs(struct badram_result *r, const struct cube *c, size_t n)
{
	r->npairs = (unsigned)n;
	for (size_t k = 0; k < n; k++) {
		r->pair[k].addr = c[k].val << PAGE_SHIFT;
		r->pair[k].mask = c[k].care << PAGE_SHIFT;
	}
}

// Gather the candidate covers of f's pages within f's budgets into *best.
// Sets *exact when an exact cover within the pair budget exists (whatever
// its holes) and best->c.holes_bound when a tree's least-waste cover, holes
// ignored, cut more holes than allowed.
static void fold_pages(struct fold *f, uint64_t in_ram, uint64_t runs,
		       struct cand *best, bool *exact)
{
	struct dp_params p = { &f->u, f->pairs, f->holes, MEASURE_STEPS,
				!f->uefi_only };
	struct arena a = f->rest;
	size_t bytes = a.left;
	struct dp_cover c, g;

	c.n = (unsigned)exact_cover(f->page, f->n, f->pairs, c.cube,
				       take(&a, 0), bytes);
	*exact = c.n > 0;
	if (c.n > 0 && runs <= f->holes) {
		c.found = cube_measure(c.cube, c.n, &f->u, f->holes,
				     MEASURE_STEPS, &c.m) && c.m.runs <= f->holes;
		keep_better(f, best, &c);
	}
	if (best->c.found && best->c.m.pages == in_ram &&
	    (best->safe || f->uefi_only))
		return;         // exact with the fewest pairs: nothing beats it
	tree_cover(f, TREE_ADDRESS, &p, &c, NULL);
	best->c.holes_bound = c.holes_bound;
	keep_better(f, best, &c);
	p.one_range = false;
	tree_cover(f, TREE_STRUCTURE, &p, &c, &g);   // reorders f->page
	best->c.holes_bound |= c.holes_bound;
	keep_better(f, best, &c);
	keep_better(f, best, &g);
}

bool badram_fold(const struct badram_table *t, const struct range *ram,
		 size_t nram, struct badram_budget budget, void *scratch,
		 size_t scratch_bytes, struct badram_result *r)
{
	struct fold f = { .rest = { scratch, scratch_bytes } };
	struct cand best = { .c = { .found = false, .holes_bound = false } };
	struct range *rp, *pieces;
	uint64_t top, in_table, in_folded, runs, failing_in_ram, mm = 0;
	bool exact = false, hole_bound = false;

	mem_set(r, 0, sizeof(*r));
	f.pairs = budget.pairs < 1 ? 1 : budget.pairs > BADRAM_MAX_PAIRS
					 ? BADRAM_MAX_PAIRS : budget.pairs;
	f.holes = budget.holes < 1 ? 1 : budget.holes;
	f.uefi_only = budget.uefi_only;
	r->pairs_budget = f.pairs;
	r->holes_budget = (unsigned)f.holes;
	if (badram_table_empty(t))
		return true;
	r->failing_pages = t->n + t->ovf_pages;
	r->overflow = t->novf > 0;

	f.n = t->n;
	f.page = take(&f.rest, f.n * sizeof(uint64_t));
	f.tmp = take(&f.rest, f.n * sizeof(uint64_t));
	rp = take(&f.rest, (nram + 1) * sizeof(*rp));
	pieces = take(&f.rest, BADRAM_OVF_MAX * (nram + 2) * sizeof(*pieces));
	if (f.page == NULL || f.tmp == NULL || rp == NULL || pieces == NULL) {
		answer_degraded(t, ram, nram, r);
		return false;
	}
	// Copy the pages out (the table stays usable) and sort them.
	size_t m = 0;
	for (uint64_t i = 0; i <= t->mask; i++)
		if (t->slot[i] != BADRAM_TABLE_EMPTY)
			f.page[m++] = t->slot[i];
	sort_u64(f.page, f.tmp, f.n);
	top = f.n ? f.page[f.n - 1] + 1 : 0;
	for (unsigned k = 0; k < t->novf; k++)
		if (cube_last(t->ovf[k]) + 1 > top)
			top = cube_last(t->ovf[k]) + 1;
	f.u.ram = rp;
	f.u.nram = ram_pages(ram, nram, top, rp);
	for (size_t i = 0; i < f.u.nram; i++)
		r->ram_pages += rp[i].end - rp[i].start;
	in_table = pages_in_ram(&f, &r->exact_holes);
	failing_in_ram = in_table + t->ovf_pages;

	bool fits = overflow_budget(&f, t);
	unsigned chars = budget.memmap_chars ? budget.memmap_chars
					     : BADRAM_DEFAULT_MEMMAP_CHARS;
	struct holes_request holes = {
		.page = f.page, .npages = f.n, .extra = f.ovf, .nextra = f.novf, .u = &f.u,
		.max_chars = chars < BADRAM_MEMMAP_MAX_CHARS ? chars : BADRAM_MEMMAP_MAX_CHARS,
		.work = pieces, .work_cap = BADRAM_OVF_MAX * (nram + 2),
	};
	r->nmemmap = holes_ranges(&holes, r->memmap, BADRAM_MEMMAP_MAX, &r->memmap_kaslr);
	for (size_t i = 0; i < r->nmemmap; i++)
		mm += ram_in(&f.u, r->memmap[i].start >> PAGE_SHIFT,
			     r->memmap[i].end >> PAGE_SHIFT);
	r->memmap_sacrificed = mm > failing_in_ram ? mm - failing_in_ram : 0;
	in_folded = pages_in_ram(&f, &runs);
	if (fits && f.n > 0) {
		fold_pages(&f, in_folded, runs, &best, &exact);
		fits = best.c.found;
		hole_bound = !fits;     // every cover of the pages broke H
	}
	if (fits) {
		// The answer: the pages' cover plus the overflow cubes.
		mem_copy(best.c.cube + best.c.n, f.ovf, f.novf * sizeof(*f.ovf));
		best.c.n += (unsigned)f.novf;
		best.safe = shape(&best.c, &f.u);
		fits = cube_measure(best.c.cube, best.c.n, &f.u, r->holes_budget,
				  MEASURE_STEPS, &best.c.m);
	}
	if (fits) {
		set_pairs(r, best.c.cube, best.c.n);
		r->grub_safe = best.safe;
		r->excluded_pages = best.c.m.pages;
		r->holes = best.c.m.runs;
		// A cover with less waste broke H: H forced this one. (Not the
		// DP's waste estimate against this cover's measured waste: the
		// estimate can be lower when holes play no part at all.)
		hole_bound |= exact || best.c.holes_bound;
	} else {
		answer_hull(t, &f.u, r);
	}
	r->sacrificed_pages = r->excluded_pages > failing_in_ram
				      ? r->excluded_pages - failing_in_ram : 0;
	if (r->sacrificed_pages == 0)
		r->limit = BADRAM_LIMIT_NONE;
	else
		r->limit = hole_bound ? BADRAM_LIMIT_HOLES : BADRAM_LIMIT_PAIRS;
	return true;
}
