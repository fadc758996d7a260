// SPDX-License-Identifier: GPL-2.0-or-later
// Budgeted cover selection (see dp.h). Every node's options (one
// cube each) are measured against RAM once; a DP pass for a given lambda is
// then pure arithmetic: cost[v][k] is the least waste + lambda * holes of
// covering node v's pages with at most k cubes, from v's own options or by
// sharing k between its children. Holes are added per cube, an upper bound
// on the union's (touching cubes share a hole), so the binary search checks
// each candidate with the exact union measure.
#include "badram/dp.h"

#define DP_OPTS 8      // cube options kept per node

struct option {
	uint64_t waste;
	uint32_t holes;
	uint8_t t;              // bits below t freed in the node's supercube
};

struct dp_node {
	uint32_t off;           // first entry of this node's table
	uint32_t size;          // table entries: min(K, leaves below)
	uint8_t nopt, pick;     // options; the one the last pass chose
	struct option opt[DP_OPTS];
};

struct dp {
	const struct tree_node *node;
	struct dp_node *d;
	size_t nnodes;
	uint64_t *cost;         // cost[d[v].off + k - 1]: at most k cubes
	uint8_t *choice;        // 0: v's own cube; else cubes for kid[0]
	const struct dp_params *p;
};

size_t dp_bytes(size_t nnodes, unsigned pairs)
{
	return nnodes * (sizeof(struct dp_node) +
			 pairs * (sizeof(uint64_t) + sizeof(uint8_t)));
}

// The node's supercube with every bit below t freed.
static struct cube coarsen(struct cube c, unsigned t)
{
	uint64_t low = (1ULL << t) - 1;

	c.care &= ~low;
	c.val &= ~low;
	return c;
}

// Holes of c in the whole domain: 2^(free bits above its lowest fixed bit).
static unsigned log2_domain_runs(struct cube c)
{
	unsigned t = (unsigned)__builtin_ctzll(c.care | (1ULL << CUBE_BITS));
	return cube_free_bits(c) - (t < CUBE_BITS ? t : cube_free_bits(c));
}

// Measure the options of node v: t = 0 (the supercube) and t = j + 1 for
// each fixed bit j below the highest free bit (the last is the aligned
// block around the subset, one hole). Options over the hole budget are
// dropped; of the rest, t = 0 and the coarsest DP_OPTS - 1 are kept.
static void measure_options(const struct dp *dp, size_t v)
{
	const struct tree_node *nv = &dp->node[v];
	const struct universe *u = dp->p->u;
	struct dp_node *d = &dp->d[v];
	struct cube sc = tree_supercube(nv);
	uint64_t freebits = nv->and_bits ^ nv->or_bits;
	unsigned cand[CUBE_BITS + 1], ncand = 0;
	uint64_t count = nv->hi - nv->lo;

	cand[ncand++] = 0;
	if (freebits) {
		unsigned hb = 63 - (unsigned)__builtin_clzll(freebits);
		for (unsigned j = 0; j < hb; j++)
			if (sc.care >> j & 1)
				cand[ncand++] = j + 1;
	}
	d->nopt = 0;
	for (unsigned i = 0; i < ncand; i++) {
		struct cube c = coarsen(sc, cand[i]);
		unsigned lr = log2_domain_runs(c);

		// Skip, unmeasured, a cube with far more holes in the whole
		// domain than the budget: its RAM holes could only fit if its
		// blocks nearly all missed RAM. Measuring every option of every
		// node against RAM would cost more than the rest of the fold.
		if (lr < 63 && (1ULL << lr) > dp->p->holes + u->nram)
			continue;
		if (dp->p->one_range && !cube_in_one_range(c, u))
			continue;
		uint64_t holes = cube_ram_runs(c, u);
		if (holes > dp->p->holes || holes > UINT32_MAX)
			continue;
		if (d->nopt > 0 && d->opt[d->nopt - 1].holes == holes)
			continue;       // as many holes, no less waste
		if (d->nopt == DP_OPTS)  // keep t = 0, shift out the next
			for (unsigned k = 2; k < DP_OPTS; k++)
				d->opt[k - 1] = d->opt[k];
		unsigned slot = d->nopt < DP_OPTS ? d->nopt++ : DP_OPTS - 1;
		uint64_t ram = cube_ram_pages(c, u);
		d->opt[slot].waste = ram > count ? ram - count : 0;
		d->opt[slot].holes = (uint32_t)holes;
		d->opt[slot].t = (uint8_t)cand[i];
	}
}

// Lay out the tables and measure every node's options; false when the
// tables do not fit in bytes.
static bool setup(struct dp *dp, void *mem, size_t bytes)
{
	unsigned k = dp->p->pairs;
	size_t total = 0, head = dp->nnodes * sizeof(struct dp_node);

	if (bytes < head)
		return false;
	dp->d = mem;
	// Children have larger indices than parents: a backward sweep sees
	// every child first. d[v].off holds the leaf count until the end.
	for (size_t v = dp->nnodes; v-- > 0;) {
		const struct tree_node *nv = &dp->node[v];
		uint32_t l = nv->kid[0] ? dp->d[nv->kid[0]].off +
					  dp->d[nv->kid[1]].off : 1;
		dp->d[v].off = l;
		dp->d[v].size = l < k ? l : k;
		total += dp->d[v].size;
	}
	if (bytes - head < total * (sizeof(uint64_t) + sizeof(uint8_t)))
		return false;
	dp->cost = (uint64_t *)(dp->d + dp->nnodes);
	dp->choice = (uint8_t *)(dp->cost + total);
	total = 0;
	for (size_t v = 0; v < dp->nnodes; v++) {
		dp->d[v].off = (uint32_t)total;
		total += dp->d[v].size;
		measure_options(dp, v);
	}
	return true;
}

// Costs: INF means "impossible"; finite sums saturate just below it.
#define INF UINT64_MAX

static uint64_t add_cost(uint64_t a, uint64_t b)
{
	if (a == INF || b == INF)
		return INF;
	uint64_t s = cube_sat_add(a, b);
	return s == INF ? INF - 1 : s;
}

// One DP pass at the given lambda; returns the root's cost row.
static const uint64_t *dp_pass(struct dp *dp, uint64_t lambda)
{
	for (size_t v = dp->nnodes; v-- > 0;) {
		const struct tree_node *nv = &dp->node[v];
		struct dp_node *d = &dp->d[v];
		uint64_t *cost = dp->cost + d->off;
		uint8_t *ch = dp->choice + d->off;
		uint64_t leaf = INF;

		for (unsigned i = 0; i < d->nopt; i++) {
			uint64_t c = add_cost(d->opt[i].waste,
					      cube_sat_mul(lambda, d->opt[i].holes));
			if (c == INF)
				c = INF - 1;
			if (c < leaf) {
				leaf = c;
				d->pick = (uint8_t)i;
			}
		}
		cost[0] = leaf;
		ch[0] = 0;
		if (nv->kid[0] == 0)
			continue;
		const struct dp_node *da = &dp->d[nv->kid[0]];
		const struct dp_node *db = &dp->d[nv->kid[1]];
		const uint64_t *ca = dp->cost + da->off, *cb = dp->cost + db->off;
		for (uint32_t k = 2; k <= d->size; k++) {
			uint64_t best = cost[k - 2];
			uint8_t how = ch[k - 2];
			uint32_t k1 = k > db->size ? k - db->size : 1;
			uint32_t k1_end = da->size < k - 1 ? da->size : k - 1;
			for (; k1 <= k1_end; k1++) {
				uint64_t c = add_cost(ca[k1 - 1], cb[k - k1 - 1]);
				if (c < best) {
					best = c;
					how = (uint8_t)k1;
				}
			}
			cost[k - 1] = best;
			ch[k - 1] = how;
		}
	}
	return dp->cost + dp->d[0].off;
}

// Read the cubes of the last pass's solution for the root with at most k
// cubes; returns their count.
static unsigned extract(const struct dp *dp, uint32_t k, struct cube *out)
{
	struct { uint32_t v, k; } stack[CUBE_MAX_CUBES + 1];
	unsigned sp = 0, n = 0;

	stack[sp].v = 0;
	stack[sp++].k = k;
	while (sp > 0) {
		sp--;
		uint32_t v = stack[sp].v, kv = stack[sp].k;
		const struct dp_node *d = &dp->d[v];
		uint8_t how = dp->choice[d->off + kv - 1];
		if (how == 0) {
			out[n++] = coarsen(tree_supercube(&dp->node[v]),
					   d->opt[d->pick].t);
			continue;
		}
		// A choice carried over from a smaller k may leave kid[1] more
		// than its table holds; "at most" lets us clamp.
		uint32_t b = dp->node[v].kid[1];
		stack[sp].v = dp->node[v].kid[0];
		stack[sp++].k = how;
		stack[sp].v = b;
		stack[sp++].k = kv - how < dp->d[b].size ? kv - how : dp->d[b].size;
	}
	return n;
}

// The solution at lambda, simplified and measured. False when it has no
// finite cost or breaks the hole budget. *estimate gets its DP cost (INF
// when there is none).
static bool candidate(struct dp *dp, uint64_t lambda, struct dp_cover *c,
		      uint64_t *estimate)
{
	const struct dp_params *p = dp->p;
	const uint64_t *root = dp_pass(dp, lambda);
	uint32_t size = dp->d[0].size, k = size;

	*estimate = root[size - 1];
	if (root[size - 1] == INF)
		return false;
	while (k > 1 && root[k - 2] == root[size - 1])
		k--;                    // fewest cubes at the least cost
	*estimate = root[k - 1];
	c->n = extract(dp, k, c->cube);
	return cube_measure(c->cube, c->n, p->u, p->holes, p->max_steps, &c->m) &&
	       c->m.runs <= p->holes;
}

static bool better(const struct dp_cover *a, const struct dp_cover *b)
{
	if (!b->found)
		return true;
	if (a->m.pages != b->m.pages)
		return a->m.pages < b->m.pages;
	if (a->n != b->n)
		return a->n < b->n;
	return a->m.runs < b->m.runs;
}

static void keep(struct dp_cover *out, const struct dp_cover *c)
{
	bool holes_bound = out->holes_bound;

	if (better(c, out)) {
		*out = *c;
		out->found = true;
	}
	out->holes_bound = holes_bound;
}

void dp_choose(const struct tree_node *node, size_t nnodes,
		const struct dp_params *p, void *mem, size_t bytes,
		struct dp_cover *out)
{
	struct dp dp = { .node = node, .nnodes = nnodes, .p = p };
	struct dp_cover c = { .found = true };
	uint64_t est, lo = 0, hi = 1;

	out->found = false;
	out->n = 0;
	out->holes_bound = false;
	if (!setup(&dp, mem, bytes))
		return;
	bool ok = candidate(&dp, 0, &c, &est);
	out->holes_bound = !ok && est != INF;
	if (ok) {
		keep(out, &c);
		return;
	}
	// lambda above all RAM makes a hole dearer than any waste: the DP
	// then minimises holes first. Search down from there.
	for (size_t i = 0; i < p->u->nram; i++)
		hi += p->u->ram[i].end - p->u->ram[i].start;
	if (!candidate(&dp, hi, &c, &est))
		return;
	keep(out, &c);
	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (candidate(&dp, mid, &c, &est)) {
			keep(out, &c);
			hi = mid;
		} else {
			lo = mid;
		}
	}
}
