// SPDX-License-Identifier: GPL-2.0-or-later
// Split trees over a failing-page set, the candidates the budgeted fold
// (dp.h) chooses from. Each node holds a subset of the pages; its
// natural cube is the subset's supercube (bits on which all its pages
// agree fixed). A node splits its subset in two by one bit:
//   TREE_ADDRESS    the highest free bit (a binary trie: nodes are aligned
//                 blocks, good when holes are scarce);
//   TREE_STRUCTURE  the bit whose split shrinks the children's supercubes most,
//                 preferring bits the subset is not symmetric in (so a
//                 hashed column splits on its bank/row XOR bits and ends in
//                 a few exact cubes, whatever its row count).
// Nodes are expanded best first (largest waste first) up to a leaf budget,
// so the tree stays small however many pages there are.
#ifndef RAMSIFT_LIB_BADRAM_TREE_H
#define RAMSIFT_LIB_BADRAM_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "badram/cube.h"
#include "badram/heap.h"

enum tree_policy {
	TREE_ADDRESS,
	TREE_STRUCTURE,
};

struct tree_node {
	uint64_t and_bits, or_bits;     // AND and OR of the subset's pages
	uint32_t lo, hi;                // the subset: page[lo..hi)
	uint32_t kid[2];                // children, or 0 for a leaf
};


// The supercube of a node's subset.
struct cube tree_supercube(const struct tree_node *v);

// Bytes of scratch tree_build needs for a tree of at most leaves leaves.
size_t tree_build_bytes(size_t leaves);

// Build the split tree of the pages page[0..n) (n >= 1; sorted ascending
// and distinct) under policy pol into node[] (room for 2 * leaves - 1
// nodes), with at most leaves leaves (>= 1). Node 0 is the root and every
// child has a larger index than its parent. TREE_STRUCTURE reorders page[]
// (each node's slice stays sorted) using tmp[0..n) as scratch; TREE_ADDRESS
// leaves page[] as it is and does not touch tmp. heap is scratch for leaves
// items. Returns the node count.
size_t tree_build(enum tree_policy pol, uint64_t *page, size_t n, uint64_t *tmp,
		const struct universe *u, size_t leaves, struct tree_node *node,
		struct heap_item *heap);

#endif
