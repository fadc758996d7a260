// SPDX-License-Identifier: GPL-2.0-or-later
// The heap of heap.h, in an array: item k's children are 2k + 1 and
// 2k + 2. A push sifts the new item up from the end; a pop moves the last
// item into the root's place and sifts it down.
#include "badram/heap.h"

void heap_push(struct heap *h, int64_t cost, uint64_t what)
{
	size_t k = h->n++;

	while (k > 0 && h->item[(k - 1) / 2].cost > cost) {
		h->item[k] = h->item[(k - 1) / 2];
		k = (k - 1) / 2;
	}
	h->item[k] = (struct heap_item){ cost, what };
}

struct heap_item heap_pop(struct heap *h)
{
	struct heap_item top = h->item[0], last = h->item[--h->n];
	size_t k = 0;

	for (;;) {
		size_t c = 2 * k + 1;

		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->item[c + 1].cost < h->item[c].cost)
			c++;
		if (h->item[c].cost >= last.cost)
			break;
		h->item[k] = h->item[c];
		k = c;
	}
	if (h->n > 0)
		h->item[k] = last;
	return top;
}
