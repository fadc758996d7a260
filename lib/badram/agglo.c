// SPDX-License-Identifier: GPL-2.0-or-later
// Bottom-up merging (see agglo.h). Candidate pairs sit in a heap (heap.h)
// by cost; a merge bumps the merged cube's version, which makes its old
// pairs stale (skipped when popped), and pushes its pairs with every live
// cube. Costs are computed in 128-bit arithmetic and clamped, since lambda
// times a hole count can pass 2^64.
#include <stdbool.h>

#include "badram/agglo.h"
#include "badram/heap.h"

// A candidate merge of cubes i and j, pushed when their versions were vi
// and vj; a heap item's what holds it, 16 bits a field.
struct pair {
	uint16_t i, j, vi, vj;
};

struct agglo {
	struct cube c[AGGLO_MAX_START];
	uint16_t ver[AGGLO_MAX_START];
	bool alive[AGGLO_MAX_START];
	size_t n, live;
	struct heap heap;
	uint64_t lambda;
};

size_t agglo_bytes(size_t n)
{
	// Every first pair, then n pairs per merge, at most n merges.
	return sizeof(struct agglo) + (n * (n - 1) / 2 + n * n) * sizeof(struct heap_item);
}

// Holes of c in the whole domain: 2^(free bits above its lowest fixed bit).
static uint64_t domain_runs(struct cube c)
{
	unsigned f = cube_free_bits(c);
	unsigned t = c.care ? (unsigned)__builtin_ctzll(c.care) : f;
	return 1ULL << (f - (t < f ? t : f));
}

static int64_t merge_cost(const struct agglo *g, size_t i, size_t j)
{
	struct cube a = g->c[i], b = g->c[j], m = cube_join(a, b);
	__int128 pages = (__int128)(1ULL << cube_free_bits(m)) -
			 (1ULL << cube_free_bits(a)) - (1ULL << cube_free_bits(b));
	__int128 holes = (__int128)domain_runs(m) - domain_runs(a) - domain_runs(b);
	__int128 c = pages + (__int128)g->lambda * holes;

	return c > INT64_MAX ? INT64_MAX : c < INT64_MIN ? INT64_MIN : (int64_t)c;
}

static uint64_t pair_pack(struct pair p)
{
	return p.i | (uint64_t)p.j << 16 | (uint64_t)p.vi << 32 | (uint64_t)p.vj << 48;
}

static struct pair pair_unpack(uint64_t what)
{
	return (struct pair){ (uint16_t)what, (uint16_t)(what >> 16), (uint16_t)(what >> 32),
			      (uint16_t)(what >> 48) };
}

static void push(struct agglo *g, size_t i, size_t j)
{
	struct pair p = { (uint16_t)i, (uint16_t)j, g->ver[i], g->ver[j] };

	heap_push(&g->heap, merge_cost(g, i, j), pair_pack(p));
}

static bool fresh(const struct agglo *g, struct pair p)
{
	return g->alive[p.i] && g->alive[p.j] && g->ver[p.i] == p.vi &&
	       g->ver[p.j] == p.vj;
}

// Merge from start at the given lambda; the cover goes to c.
static bool candidate(struct agglo *g, const struct cube *start, size_t n,
		      const struct dp_params *p, struct dp_cover *c)
{
	g->n = g->live = n;
	g->heap.n = 0;
	for (size_t i = 0; i < n; i++) {
		g->c[i] = start[i];
		g->ver[i] = 0;
		g->alive[i] = true;
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			push(g, i, j);
	while (g->heap.n > 0) {
		struct heap_item top = heap_pop(&g->heap);
		struct pair q = pair_unpack(top.what);

		if (!fresh(g, q))
			continue;
		if (g->live <= p->pairs && top.cost >= 0)
			break;
		g->c[q.i] = cube_join(g->c[q.i], g->c[q.j]);
		g->ver[q.i]++;
		g->alive[q.j] = false;
		g->live--;
		for (size_t k = 0; k < n; k++) {
			if (k != q.i && g->alive[k] && cube_contains(g->c[q.i], g->c[k])) {
				g->alive[k] = false;
				g->live--;
			}
		}
		for (size_t k = 0; k < n && g->heap.n + n <= g->heap.cap; k++)
			if (k != q.i && g->alive[k])
				push(g, q.i, k);
	}
	if (g->live > p->pairs)
		return false;
	c->n = 0;
	for (size_t i = 0; i < n; i++)
		if (g->alive[i])
			c->cube[c->n++] = g->c[i];
	return cube_measure(c->cube, c->n, p->u, p->holes, p->max_steps, &c->m) &&
	       c->m.runs <= p->holes;
}

static void keep(struct dp_cover *out, const struct dp_cover *c)
{
	if (out->found && (out->m.pages < c->m.pages ||
			   (out->m.pages == c->m.pages && out->n <= c->n)))
		return;
	*out = *c;
	out->found = true;
}

void agglo_choose(const struct cube *start, size_t n, const struct dp_params *p,
		void *mem, size_t bytes, struct dp_cover *out)
{
	struct agglo *g = mem;
	struct dp_cover c;
	uint64_t lo = 0, hi = 1;

	out->found = false;
	if (n == 0 || n > AGGLO_MAX_START || bytes < agglo_bytes(n))
		return;
	g->heap.item = (struct heap_item *)(g + 1);
	g->heap.cap = (bytes - sizeof(*g)) / sizeof(struct heap_item);
	g->lambda = 0;
	if (candidate(g, start, n, p, &c)) {
		keep(out, &c);
		return;
	}
	for (size_t i = 0; i < p->u->nram; i++)
		hi += p->u->ram[i].end - p->u->ram[i].start;
	g->lambda = hi;
	if (!candidate(g, start, n, p, &c))
		return;
	keep(out, &c);
	// Bisect to within 1/16 of lambda: a finer one seldom changes the
	// merges, and each probe redoes them all.
	while (hi - lo > 1 && hi - lo > hi / 16) {
		g->lambda = lo + (hi - lo) / 2;
		if (candidate(g, start, n, p, &c)) {
			keep(out, &c);
			hi = g->lambda;
		} else {
			lo = g->lambda;
		}
	}
}
