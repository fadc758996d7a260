// SPDX-License-Identifier: GPL-2.0-or-later
// The budgeted fold over one split tree (tree.h): pick at most K
// nodes whose cubes cover every page, minimising the good RAM pages they
// waste, such that the union cuts at most H holes into RAM. Each node may
// be covered by its supercube or by a coarser cube with its low bits freed
// (fewer, larger holes). A tree knapsack DP gives the least waste for every
// pair count; the hole budget enters by Lagrangian relaxation (each hole
// costs lambda pages), lambda found by binary search on the measured holes
// of the resulting union. The answer is always verified by cube_measure.
#ifndef RAMSIFT_LIB_BADRAM_DP_H
#define RAMSIFT_LIB_BADRAM_DP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "badram/cube.h"
#include "badram/tree.h"

struct dp_params {
	const struct universe *u;
	unsigned pairs;                 // K: 1..CUBE_MAX_CUBES
	uint64_t holes;                 // H: >= 1
	uint64_t max_steps;             // cube_measure work cap per candidate
	bool one_range;                 // each cube within one RAM range
};

struct dp_cover {
	bool found;                     // a cover within K and H was found
	unsigned n;                     // cubes in cube[]
	struct cube cube[CUBE_MAX_CUBES];
	struct cube_measure m;            // its union, measured against RAM
	bool holes_bound;               // the least-waste cover, holes ignored
					// (lambda = 0), cut more holes than allowed
};

// Bytes of scratch dp_choose needs at most for a tree of nnodes nodes.
size_t dp_bytes(size_t nnodes, unsigned pairs);

// Choose the cover for the tree node[0..nnodes) (built over page slices of
// the same failing pages) within p's budgets, using scratch mem[0..bytes)
// (at least dp_bytes(nnodes, p->pairs)). When no cover fits, out->found is
// false. The cover matches every page of every leaf's slice; its cubes are
// the chosen nodes' (not simplified: see merge_simplify). With p->one_range,
// only cubes that lie in one RAM range (cube_in_one_range) are used.
void dp_choose(const struct tree_node *node, size_t nnodes,
		const struct dp_params *p, void *mem, size_t bytes,
		struct dp_cover *out);

#endif
