// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for the chunk walker of lib/memtest/sweep.c (no memory is touched):
// the exact chunks, in order, ascending and descending, over ranges that are
// empty, shorter than a chunk, longer than one, at address 0 and at the top
// of the 64-bit address space; progress reported once per chunk with its
// size; an abort ends the walk.
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "memtest/sweep.h"

#define C ((uint64_t)MT_CHUNK_BYTES)
#define TOP 0xfffffffffffffff8ull // the highest 8-byte aligned end

static const struct range ranges[] = {
	{ 0, 16 },                 // short, at address 0
	{ 0x1000, 0x1000 },        // empty
	{ 0x100000, 0x100000 + 2 * C + 8 }, // two chunks and a word
	{ TOP - C - 8, TOP },      // ends at the top
};

struct chunk {
	uint64_t lo, hi;
};

static const struct chunk up[] = {
	{ 0, 16 },
	{ 0x100000, 0x100000 + C },
	{ 0x100000 + C, 0x100000 + 2 * C },
	{ 0x100000 + 2 * C, 0x100000 + 2 * C + 8 },
	{ TOP - C - 8, TOP - 8 },
	{ TOP - 8, TOP },
};

static const struct chunk down[] = {
	{ TOP - C, TOP },
	{ TOP - C - 8, TOP - C },
	{ 0x100000 + C + 8, 0x100000 + 2 * C + 8 },
	{ 0x100000 + 8, 0x100000 + C + 8 },
	{ 0x100000, 0x100000 + 8 },
	{ 0, 16 },
};

struct rec {
	uint64_t reported[8];
	unsigned calls, stop_at;
};

static bool on_progress(void *cb, uint64_t bytes)
{
	struct rec *r = cb;

	if (r->calls < 8)
		r->reported[r->calls] = bytes;
	return ++r->calls != r->stop_at;
}

static void walk_and_compare(enum mt_dir dir, const struct chunk *want,
			     size_t nwant)
{
	struct rec r = { 0 };
	struct mt_ctx ctx = { .ranges = ranges, .nranges = 4,
			      .progress = on_progress, .cb_ctx = &r };
	struct mt_walk w;
	size_t n = 0;

	mt_walk_begin(&w, &ctx, dir);
	while (mt_walk_next(&w)) {
		if (n >= nwant || w.lo != want[n].lo || w.hi != want[n].hi)
			fail_msg("%s chunk %zu: [0x%llx, 0x%llx), want "
				 "[0x%llx, 0x%llx)", dir == MT_UP ? "up" : "down",
				 n, (unsigned long long)w.lo,
				 (unsigned long long)w.hi,
				 n < nwant ? (unsigned long long)want[n].lo : 0,
				 n < nwant ? (unsigned long long)want[n].hi : 0);
		if (r.calls != n)
			fail_msg("chunk %zu: %u progress calls before it", n,
				 r.calls);
		n++;
	}
	assert_false(w.aborted);
	assert_int_equal(n, nwant);
	assert_int_equal(r.calls, nwant);
	for (size_t i = 0; i < nwant; i++)
		if (r.reported[i] != want[i].hi - want[i].lo)
			fail_msg("progress call %zu: %llu bytes, want %llu", i,
				 (unsigned long long)r.reported[i],
				 (unsigned long long)(want[i].hi - want[i].lo));
}

static void test_walk_up(void **state)
{
	(void)state;
	walk_and_compare(MT_UP, up, sizeof(up) / sizeof(up[0]));
}

static void test_walk_down(void **state)
{
	(void)state;
	walk_and_compare(MT_DOWN, down, sizeof(down) / sizeof(down[0]));
}

static void test_walk_abort(void **state)
{
	struct rec r = { .stop_at = 3 };
	struct mt_ctx ctx = { .ranges = ranges, .nranges = 4,
			      .progress = on_progress, .cb_ctx = &r };
	struct mt_walk w;
	unsigned n = 0;

	(void)state;
	mt_walk_begin(&w, &ctx, MT_UP);
	while (mt_walk_next(&w))
		n++;
	assert_true(w.aborted);
	assert_int_equal(n, 3);
	assert_int_equal(r.calls, 3);
}

static void test_walk_nothing(void **state)
{
	static const struct range empty[] = { { 8, 8 } };
	struct rec r = { 0 };
	struct mt_ctx ctx = { .ranges = empty, .nranges = 1,
			      .progress = on_progress, .cb_ctx = &r };
	struct mt_walk w;

	(void)state;
	for (int d = 0; d < 2; d++) {
		mt_walk_begin(&w, &ctx, d ? MT_DOWN : MT_UP);
		assert_false(mt_walk_next(&w));
		assert_false(w.aborted);
		ctx.nranges = 0;
	}
	assert_int_equal(r.calls, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_walk_up),
		cmocka_unit_test(test_walk_down),
		cmocka_unit_test(test_walk_abort),
		cmocka_unit_test(test_walk_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
