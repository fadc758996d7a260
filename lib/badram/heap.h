// SPDX-License-Identifier: GPL-2.0-or-later
// A binary min-heap of (cost, what) items in the caller's array: the one
// priority queue of the fold (tree.c's leaves waiting to split, agglo.c's
// candidate merges) and of bench/fold.c's greedy baseline. what is the
// caller's, an index or fields packed into 64 bits. Among items of equal
// cost, which comes out first depends only on the pushes and pops before,
// so a fold is the same on every build.
#ifndef RAMSIFT_LIB_BADRAM_HEAP_H
#define RAMSIFT_LIB_BADRAM_HEAP_H

#include <stddef.h>
#include <stdint.h>

struct heap_item {
	int64_t cost;
	uint64_t what;
};

struct heap {
	struct heap_item *item;	// item[0..cap), the caller's
	size_t n, cap;		// items held, room
};

// Add an item; requires h->n < h->cap.
void heap_push(struct heap *h, int64_t cost, uint64_t what);

// Remove and return an item of least cost; requires h->n > 0.
struct heap_item heap_pop(struct heap *h);

#endif
