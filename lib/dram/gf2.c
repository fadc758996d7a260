// SPDX-License-Identifier: GPL-2.0-or-later
// GF(2) linear algebra on 64-bit vectors (gf2.h). A basis is kept indexed
// by pivot (the highest set bit), so reducing a vector is one pass from the
// top bit down.
#include "dram/gf2.h"

static unsigned top_bit(uint64_t v)
{
	return 63u - (unsigned)__builtin_clzll(v);
}

void gf2_clear(struct gf2_basis *b)
{
	for (unsigned i = 0; i < 64; i++)
		b->rows[i] = 0;
	b->rank = 0;
}

uint64_t gf2_reduce(const struct gf2_basis *b, uint64_t v)
{
	for (int p = 63; p >= 0 && v; p--)
		if ((v >> p & 1) && b->rows[p])
			v ^= b->rows[p];
	return v;
}

bool gf2_insert(struct gf2_basis *b, uint64_t v)
{
	v = gf2_reduce(b, v);
	if (!v)
		return false;
	b->rows[top_bit(v)] = v;
	b->rank++;
	return true;
}

unsigned gf2_null_space(const struct gf2_basis *b, uint64_t vary, uint64_t *out,
			unsigned cap)
{
	struct gf2_basis r = *b;
	uint64_t pivots = 0;
	unsigned n = 0;

	// Reduced row echelon form: each pivot bit only in its own row.
	for (unsigned p = 0; p < 64; p++) {
		if (!r.rows[p])
			continue;
		pivots |= 1ull << p;
		for (unsigned q = p + 1; q < 64; q++)
			if (r.rows[q] >> p & 1)
				r.rows[q] ^= r.rows[p];
	}
	// One solution per free bit: the free bit plus the pivots of the rows
	// that contain it, so every row sees two set bits or none.
	for (unsigned f = 0; f < 64; f++) {
		uint64_t v = 1ull << f;

		if (!(vary >> f & 1) || (pivots >> f & 1))
			continue;
		for (unsigned p = 0; p < 64; p++)
			if (r.rows[p] >> f & 1)
				v |= 1ull << p;
		if (n == cap)
			return cap + 1;
		out[n++] = v;
	}
	return n;
}

// True when v is a better basis vector than w: fewer bits, then smaller.
static bool lighter(uint64_t v, uint64_t w)
{
	unsigned a = gf2_weight(v), b = gf2_weight(w);

	return a != b ? a < b : v < w;
}

void gf2_min_weight_basis(const uint64_t *in, unsigned n, uint64_t *out)
{
	struct gf2_basis chosen;

	gf2_clear(&chosen);
	for (unsigned k = 0; k < n; k++) {
		uint64_t best = 0;

		for (uint32_t m = 1; m < 1u << n; m++) {
			uint64_t v = 0;

			for (unsigned i = 0; i < n; i++)
				if (m >> i & 1)
					v ^= in[i];
			if (gf2_reduce(&chosen, v) && (!best || lighter(v, best)))
				best = v;
		}
		gf2_insert(&chosen, best);
		out[k] = best;
	}
}

bool gf2_same_span(const uint64_t *a, unsigned na, const uint64_t *b, unsigned nb)
{
	struct gf2_basis sa, sb;

	gf2_clear(&sa);
	gf2_clear(&sb);
	for (unsigned i = 0; i < na; i++)
		gf2_insert(&sa, a[i]);
	for (unsigned i = 0; i < nb; i++)
		gf2_insert(&sb, b[i]);
	if (sa.rank != sb.rank)
		return false;
	for (unsigned i = 0; i < nb; i++)
		if (gf2_reduce(&sa, b[i]))
			return false;
	return true;
}

bool gf2_solve(const uint64_t *funcs, unsigned n, uint64_t allowed, uint32_t target,
	       uint64_t *c)
{
	// Row p: a syndrome with top bit p and the address bits that give it.
	uint32_t syn[32] = { 0 };
	uint64_t bits[32] = { 0 };

	for (unsigned j = 0; j < 64; j++) {
		uint32_t s = 0;
		uint64_t m = 1ull << j;

		if (!(allowed >> j & 1))
			continue;
		for (unsigned i = 0; i < n; i++)
			s |= (uint32_t)(funcs[i] >> j & 1) << i;
		for (int p = 31; p >= 0 && s; p--)
			if ((s >> p & 1) && syn[p]) {
				s ^= syn[p];
				m ^= bits[p];
			}
		if (s) {
			unsigned p = 31u - (unsigned)__builtin_clz(s);

			syn[p] = s;
			bits[p] = m;
		}
	}
	*c = 0;
	for (int p = 31; p >= 0 && target; p--)
		if ((target >> p & 1) && syn[p]) {
			target ^= syn[p];
			*c ^= bits[p];
		}
	return target == 0;
}
