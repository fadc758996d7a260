// SPDX-License-Identifier: GPL-2.0-or-later
// Linear algebra over GF(2) on 64-bit vectors, where bit i of a vector is
// physical-address bit i: the echelon basis of a span, the null space of a
// set of vectors, the lowest-weight basis of a span (what a person reads
// best), span equality, and solving for the address bits that give a wanted
// set of function values. The learning of lib/dram/learn.c needs them; the
// vectors are at most 64 and every routine works in place, on the stack.
#ifndef RAMSIFT_LIB_DRAM_GF2_H
#define RAMSIFT_LIB_DRAM_GF2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// An echelon basis: rows[i] has highest bit pivot(i), all pivots distinct.
struct gf2_basis {
	uint64_t rows[64];
	unsigned rank;
};

// The parity (sum over GF(2)) of the bits of v.
static inline unsigned gf2_parity(uint64_t v)
{
	return (unsigned)__builtin_parityll(v);
}

// The number of set bits of v.
static inline unsigned gf2_weight(uint64_t v)
{
	return (unsigned)__builtin_popcountll(v);
}

// Empty b.
void gf2_clear(struct gf2_basis *b);

// v reduced by b: v with every pivot of b that it has cleared (0 when v is
// in b's span).
uint64_t gf2_reduce(const struct gf2_basis *b, uint64_t v);

// Add v to b's span; returns true when that raised the rank.
bool gf2_insert(struct gf2_basis *b, uint64_t v);

// The vectors f with only bits of vary set, orthogonal to every row of b
// (parity(f & row) == 0): writes a basis of them to out[0..cap) and returns
// its dimension, or cap + 1 when that exceeds cap (nothing useful in out).
unsigned gf2_null_space(const struct gf2_basis *b, uint64_t vary, uint64_t *out,
			unsigned cap);

// Rewrite in[0..n), linearly independent, n <= 10, as the basis of the same
// span whose vectors have the fewest set bits (ties: the smaller value
// first), sorted that way, into out[0..n). Greedy over all 2^n - 1
// combinations, which is optimal for a span (a matroid).
void gf2_min_weight_basis(const uint64_t *in, unsigned n, uint64_t *out);

// True when a[0..na) and b[0..nb) span the same space.
bool gf2_same_span(const uint64_t *a, unsigned na, const uint64_t *b, unsigned nb);

// Find c, with only bits of allowed set, such that parity(funcs[i] & c) is
// bit i of target for every i < n (n <= 32): true and *c when one exists.
bool gf2_solve(const uint64_t *funcs, unsigned n, uint64_t allowed, uint32_t target,
	       uint64_t *c);

#endif
