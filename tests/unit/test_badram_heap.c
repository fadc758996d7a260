// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/badram/heap.c, the fold's priority queue (and the
// greedy baseline's in bench/fold.c, which trusts it through these tests):
// random pushes and pops, with many equal costs and the extremes of
// int64_t, held against a plain list of the items held. Every pop must
// return an item held, of the least cost held.
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "badram/heap.h"
#include "xorshift.h"

#define MAX_ITEMS 512

static uint64_t rng_state = 0x4eab;

static int64_t random_cost(void)
{
	uint64_t r = xorshift64(&rng_state);

	switch (r % 8) {
	case 0:
		return INT64_MIN;
	case 1:
		return INT64_MAX;
	case 2:
		return (int64_t)(r >> 3);		// any value
	default:
		return (int64_t)(r >> 3) % 9 - 4;	// ties around 0
	}
}

struct case_params {
	const char *name;
	unsigned push_percent;	// chance that a step pushes, when it may
	unsigned steps;
};

static const struct case_params cases[] = {
	{ "mostly pushes", 80, 4000 },
	{ "balanced", 50, 4000 },
	{ "mostly pops", 30, 4000 },
};

// Pop h and check the item against held[0..*n), the items pushed and not
// yet popped; the item leaves held.
static void pop_and_check(const char *name, unsigned step, struct heap *h,
			  struct heap_item *held, size_t *n)
{
	struct heap_item got = heap_pop(h);
	size_t at = *n;

	for (size_t i = 0; i < *n; i++) {
		if (held[i].cost < got.cost)
			fail_msg("%s, step %u: popped cost %lld, but %lld is held", name, step,
				 (long long)got.cost, (long long)held[i].cost);
		if (held[i].what == got.what)
			at = i;
	}
	if (at == *n || held[at].cost != got.cost)
		fail_msg("%s, step %u: popped (%lld, %llu), which was not pushed", name, step,
			 (long long)got.cost, (unsigned long long)got.what);
	held[at] = held[--*n];
}

static void test_least_first(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		static struct heap_item item[MAX_ITEMS], held[MAX_ITEMS];
		struct heap h = { item, 0, MAX_ITEMS };
		size_t nheld = 0;
		uint64_t next_what = 0;

		for (unsigned step = 0; step < cases[c].steps; step++) {
			bool push = h.n == 0 || (h.n < h.cap &&
						 xorshift64(&rng_state) % 100 < cases[c].push_percent);

			if (push) {
				int64_t cost = random_cost();

				heap_push(&h, cost, next_what);
				held[nheld++] = (struct heap_item){ cost, next_what++ };
			} else {
				pop_and_check(cases[c].name, step, &h, held, &nheld);
			}
			if (h.n != nheld)
				fail_msg("%s, step %u: the heap holds %zu, want %zu", cases[c].name,
					 step, h.n, nheld);
		}
		while (h.n > 0)
			pop_and_check(cases[c].name, cases[c].steps, &h, held, &nheld);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_least_first),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
