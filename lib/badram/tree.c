// SPDX-License-Identifier: GPL-2.0-or-later
// Split-tree construction (see tree.h). Node slices live in one page
// array: a TREE_ADDRESS split is a binary search in the sorted slice, a
// TREE_STRUCTURE split a stable partition (so every slice stays sorted, which
// the symmetry test needs). Split gains are measured in whole-domain pages
// (a popcount) rather than RAM pages: cheap, and the budgeted fold measures
// what it finally picks against RAM anyway.
#include <stdbool.h>

#include "badram/exact.h"
#include "badram/tree.h"
#include "memstr.h"

struct cube tree_supercube(const struct tree_node *v)
{
	struct cube c;

	c.care = ~(v->and_bits ^ v->or_bits) & CUBE_DOMAIN;
	c.val = v->and_bits & c.care;
	return c;
}

size_t tree_build_bytes(size_t leaves)
{
	return (2 * leaves - 1) * sizeof(struct tree_node) +
	       leaves * sizeof(struct heap_item);
}

// RAM pages the node's one-hole cube wastes (TREE_ADDRESS: the aligned block
// holding the subset) or its supercube wastes (TREE_STRUCTURE); 0 when the
// node cannot or need not split. An address node whose block is not inside
// one RAM range counts at least 1, so it splits: GRUB may not apply such a
// cube whole (order.h).
static uint64_t node_waste(enum tree_policy pol, const struct tree_node *v,
			   const struct universe *u)
{
	uint64_t diff = v->and_bits ^ v->or_bits;
	struct cube c = tree_supercube(v);

	if (v->hi - v->lo < 2 || diff == 0)
		return 0;
	if (pol == TREE_ADDRESS) {
		uint64_t low = (2ULL << (63 - __builtin_clzll(diff))) - 1;
		c.care &= ~low;
		c.val &= ~low;
	}
	uint64_t ram = cube_ram_pages(c, u);
	uint64_t waste = ram > v->hi - v->lo ? ram - (v->hi - v->lo) : 0;
	if (pol == TREE_ADDRESS && waste == 0 && !cube_in_one_range(c, u))
		waste = 1;
	return waste;
}

static void fold_bits(const uint64_t *page, size_t lo, size_t hi,
		      struct tree_node *v)
{
	v->and_bits = ~0ULL;
	v->or_bits = 0;
	for (size_t i = lo; i < hi; i++) {
		v->and_bits &= page[i];
		v->or_bits |= page[i];
	}
	v->lo = (uint32_t)lo;
	v->hi = (uint32_t)hi;
	v->kid[0] = v->kid[1] = 0;
}

// TREE_ADDRESS: split at the highest bit where the slice differs.
static void split_address(const uint64_t *page, const struct tree_node *v,
			  struct tree_node *a, struct tree_node *b)
{
	uint64_t bit = 1ULL << (63 - __builtin_clzll(v->and_bits ^ v->or_bits));
	size_t lo = v->lo, hi = v->hi;

	// Pages share every bit above, so those with the bit clear come first.
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (page[mid] & bit)
			hi = mid;
		else
			lo = mid + 1;
	}
	fold_bits(page, v->lo, lo, a);
	fold_bits(page, lo, v->hi, b);
}

// TREE_STRUCTURE: the bit whose split shrinks the children's supercubes most
// (ties: a bit the slice is not symmetric in, then the highest), with the
// children's AND/OR bits.
static unsigned pick_structure_bit(const uint64_t *page, const struct tree_node *v,
				   uint64_t and_side[2][CUBE_BITS],
				   uint64_t or_side[2][CUBE_BITS])
{
	uint64_t freebits = v->and_bits ^ v->or_bits;
	uint64_t best_gain = 0, zero_gain = 0;
	unsigned best = 63 - __builtin_clzll(freebits);
	uint64_t parent = 1ULL << __builtin_popcountll(freebits);

	for (uint64_t f = freebits; f; f &= f - 1) {
		unsigned i = (unsigned)__builtin_ctzll(f);
		and_side[0][i] = and_side[1][i] = ~0ULL;
		or_side[0][i] = or_side[1][i] = 0;
	}
	for (size_t k = v->lo; k < v->hi; k++) {
		uint64_t x = page[k];
		for (uint64_t f = freebits; f; f &= f - 1) {
			unsigned i = (unsigned)__builtin_ctzll(f);
			unsigned side = (x >> i) & 1;
			and_side[side][i] &= x;
			or_side[side][i] |= x;
		}
	}
	for (uint64_t f = freebits; f; f &= f - 1) {
		unsigned i = (unsigned)__builtin_ctzll(f);
		uint64_t kids =
			(1ULL << __builtin_popcountll(and_side[0][i] ^ or_side[0][i])) +
			(1ULL << __builtin_popcountll(and_side[1][i] ^ or_side[1][i]));
		uint64_t gain = parent - kids;
		if (gain == 0)
			zero_gain |= 1ULL << i;
		if (gain > best_gain || (gain == best_gain && i > best &&
					 best_gain > 0)) {
			best_gain = gain;
			best = i;
		}
	}
	if (best_gain > 0)
		return best;
	// No split shrinks anything yet (e.g. a parity of three bits): split
	// a bit the set is not symmetric in, so the next level can gain.
	for (uint64_t f = zero_gain; f;) {
		unsigned i = 63 - (unsigned)__builtin_clzll(f);
		if (!exact_symmetric(page + v->lo, v->hi - v->lo, 1ULL << i))
			return i;
		f &= ~(1ULL << i);
	}
	return best;
}

static void split_structure(uint64_t *page, uint64_t *tmp,
			    const struct tree_node *v, struct tree_node *a,
			    struct tree_node *b)
{
	uint64_t and_side[2][CUBE_BITS], or_side[2][CUBE_BITS];
	unsigned i = pick_structure_bit(page, v, and_side, or_side);
	uint64_t bit = 1ULL << i;
	size_t z = v->lo, o = 0;

	// Stable partition: pages with the bit clear first.
	for (size_t k = v->lo; k < v->hi; k++) {
		if (page[k] & bit)
			tmp[o++] = page[k];
		else
			page[z++] = page[k];
	}
	mem_copy(page + z, tmp, o * sizeof(*page));
	a->and_bits = and_side[0][i];
	a->or_bits = or_side[0][i];
	a->lo = v->lo;
	a->hi = (uint32_t)z;
	b->and_bits = and_side[1][i];
	b->or_bits = or_side[1][i];
	b->lo = (uint32_t)z;
	b->hi = v->hi;
	a->kid[0] = a->kid[1] = b->kid[0] = b->kid[1] = 0;
}

size_t tree_build(enum tree_policy pol, uint64_t *page, size_t n, uint64_t *tmp,
		const struct universe *u, size_t leaves, struct tree_node *node,
		struct heap_item *heap)
{
	// The leaf of most waste splits first: the heap holds least cost
	// first, so each leaf goes in at minus its waste (waste counts pages,
	// far below 2^63).
	struct heap leaf = { heap, 0, leaves };
	size_t count = 1, nleaves = 1;
	uint64_t w;

	fold_bits(page, 0, n, &node[0]);
	if ((w = node_waste(pol, &node[0], u)) > 0)
		heap_push(&leaf, -(int64_t)w, 0);
	while (leaf.n > 0 && nleaves < leaves) {
		uint32_t v = (uint32_t)heap_pop(&leaf).what;
		struct tree_node *a = &node[count], *b = &node[count + 1];

		if (pol == TREE_ADDRESS)
			split_address(page, &node[v], a, b);
		else
			split_structure(page, tmp, &node[v], a, b);
		node[v].kid[0] = (uint32_t)count;
		node[v].kid[1] = (uint32_t)count + 1;
		for (int k = 0; k < 2; k++)
			if ((w = node_waste(pol, &node[count + k], u)) > 0)
				heap_push(&leaf, -(int64_t)w, count + k);
		count += 2;
		nleaves++;
	}
	return count;
}
