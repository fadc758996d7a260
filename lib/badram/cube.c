// SPDX-License-Identifier: GPL-2.0-or-later
// Cube arithmetic for the BadRAM fold (see cube.h). Counting is done
// digit by digit from the top bit, so a cube's size inside any interval costs
// O(CUBE_BITS) however many pages it matches; the common case, a cube whose
// whole span lies inside one RAM range, is a popcount.
#include "badram/cube.h"

struct cube cube_page(uint64_t p)
{
	struct cube c = { p & CUBE_DOMAIN, CUBE_DOMAIN };
	return c;
}

unsigned cube_free_bits(struct cube c)
{
	return (unsigned)__builtin_popcountll(~c.care & CUBE_DOMAIN);
}

struct cube cube_join(struct cube a, struct cube b)
{
	struct cube c;

	c.care = a.care & b.care & ~(a.val ^ b.val);
	c.val = a.val & c.care;
	return c;
}

bool cube_contains(struct cube outer, struct cube inner)
{
	return (outer.care & ~inner.care) == 0 &&
	       (inner.val & outer.care) == outer.val;
}

uint64_t cube_count_below(struct cube c, uint64_t b)
{
	uint64_t count = 0;

	if (b > CUBE_DOMAIN)
		return 1ULL << cube_free_bits(c);
	// Walk b's bits from the top, keeping y's prefix equal to b's: where b
	// has a 1, every y with a 0 there (if c allows it) and any allowed
	// suffix is below b.
	for (int i = CUBE_BITS - 1; i >= 0; i--) {
		uint64_t bit = 1ULL << i;
		bool fixed = c.care & bit, one = c.val & bit;

		if (b & bit) {
			if (!fixed || !one) {
				uint64_t below = ~c.care & (bit - 1);
				count += 1ULL << __builtin_popcountll(below);
			}
			if (fixed && !one)
				return count;
		} else if (fixed && one) {
			return count;
		}
	}
	return count;
}

bool cube_next(struct cube c, uint64_t x, uint64_t *y)
{
	uint64_t diff = (x ^ c.val) & c.care;

	if (diff == 0) {
		*y = x;
		return true;
	}
	int i = 63 - __builtin_clzll(diff);
	uint64_t above_i = ~((2ULL << i) - 1);
	if (c.val >> i & 1) {
		// x has 0 where c needs 1: set it, keep the prefix, and take
		// the smallest suffix.
		*y = (x & above_i) | (1ULL << i) | (c.val & ((1ULL << i) - 1));
		return true;
	}
	// x has 1 where c needs 0: the prefix must grow. Carry into the lowest
	// free bit above i that x has clear.
	uint64_t room = ~c.care & ~x & above_i & CUBE_DOMAIN;
	if (room == 0)
		return false;
	int j = __builtin_ctzll(room);
	*y = (x & ~((2ULL << j) - 1)) | (1ULL << j) | (c.val & ((1ULL << j) - 1));
	return true;
}

// Index of the first RAM range that ends after page x (nram if none).
static size_t first_range_after(const struct universe *u, uint64_t x)
{
	size_t lo = 0, hi = u->nram;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (u->ram[mid].end > x)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static uint64_t count_in(struct cube c, uint64_t lo, uint64_t hi)
{
	return cube_count_below(c, hi) - cube_count_below(c, lo);
}

uint64_t cube_ram_pages(struct cube c, const struct universe *u)
{
	uint64_t lo = c.val, hi = c.val | (~c.care & CUBE_DOMAIN);
	size_t i = first_range_after(u, lo);
	uint64_t n = 0;

	if (i < u->nram && u->ram[i].start <= lo && hi < u->ram[i].end)
		return 1ULL << cube_free_bits(c);
	for (; i < u->nram && u->ram[i].start <= hi; i++) {
		uint64_t a = u->ram[i].start > lo ? u->ram[i].start : lo;
		uint64_t b = u->ram[i].end <= hi ? u->ram[i].end : hi + 1;
		n += count_in(c, a, b);
	}
	return n;
}

uint64_t cube_ram_runs(struct cube c, const struct universe *u)
{
	uint64_t lo = c.val, hi = c.val | (~c.care & CUBE_DOMAIN);
	unsigned t = c.care & CUBE_DOMAIN ? (unsigned)__builtin_ctzll(c.care)
					: CUBE_BITS;
	size_t i = first_range_after(u, lo);
	uint64_t n = 0;

	if (i < u->nram && u->ram[i].start <= lo && hi < u->ram[i].end)
		return 1ULL << (cube_free_bits(c) - t);
	// Count the aligned 2^t blocks of c that meet each range: each such
	// meeting is one run, since blocks never touch and ranges never touch.
	struct cube blocks = { c.val >> t, c.care >> t };
	for (; i < u->nram && u->ram[i].start <= hi; i++)
		n += count_in(blocks, u->ram[i].start >> t,
			      ((u->ram[i].end - 1) >> t) + 1);
	return n;
}

bool cube_in_one_range(struct cube c, const struct universe *u)
{
	uint64_t lo = c.val, hi = c.val | (~c.care & CUBE_DOMAIN);
	size_t i = first_range_after(u, lo);

	return i == u->nram || u->ram[i].start > hi ||
	       (u->ram[i].start <= lo && hi < u->ram[i].end);
}

// The end of the run of the union that starts at page y, capped at limit.
// Each time some cube holds the current end, the run extends to the end of
// that cube's block; *steps counts the extensions.
static uint64_t run_end(const struct cube *c, size_t n, uint64_t y,
			uint64_t limit, uint64_t *steps)
{
	uint64_t e = y;
	bool grew = true;

	while (grew && e < limit) {
		grew = false;
		for (size_t k = 0; k < n && e < limit; k++) {
			if (cube_match(c[k], e)) {
				e = cube_block_end(c[k], e);
				grew = true;
				(*steps)++;
			}
		}
	}
	return e < limit ? e : limit;
}

bool cube_measure(const struct cube *c, size_t n, const struct universe *u,
		uint64_t max_runs, uint64_t max_steps, struct cube_measure *m)
{
	uint64_t steps = 0;

	m->pages = 0;
	m->runs = 0;
	for (size_t r = 0; r < u->nram; r++) {
		uint64_t x = u->ram[r].start, end = u->ram[r].end;

		while (x < end) {
			uint64_t y = UINT64_MAX;
			for (size_t k = 0; k < n; k++) {
				uint64_t z;
				if (cube_next(c[k], x, &z) && z < y)
					y = z;
			}
			if (y >= end)
				break;
			x = run_end(c, n, y, end, &steps);
			m->pages += x - y;
			m->runs++;
			if (m->runs > max_runs || steps > max_steps)
				return false;
		}
	}
	return true;
}
