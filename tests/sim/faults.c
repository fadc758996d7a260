// SPDX-License-Identifier: GPL-2.0-or-later
// The sampled fault catalogue of faults.h. Every variant of every class gets
// PLACEMENTS faults, placed afresh from the seeded generator: one-cell faults
// first at the edges (words 0, n-1, n/2, 1; bits 0, 63, 31, 32), then at
// random; two-word faults at distances 1, 2, 3, 8, 64, 511, n/2 and n-1 above
// and below the victim, then random; one-word faults on bit pairs
// (i, i ^ 2^k) for k = 0..5, which some data background must separate, then
// (0, 63), (63, 0) and random pairs; every address line stuck at 0 and 1;
// retention delays of 1, 10, 45 and 89 s, under bit-fade's default 90 s.
#include <stdlib.h>

#include "faults.h"
#include "memtest/prng.h"

#define PLACEMENTS 32

static const char *const labels[FC_COUNT] = {
	[FC_SAF] = "SAF",           [FC_TF] = "TF",
	[FC_AF_ALIAS] = "AF-alias", [FC_AF_NONE] = "AF-none",
	[FC_AF_MULTI] = "AF-multi", [FC_ALINE] = "A-line",
	[FC_CFIN] = "CFin",         [FC_CFID] = "CFid",
	[FC_CFST] = "CFst",         [FC_CFIN_W] = "CFin-w",
	[FC_CFID_W] = "CFid-w",     [FC_CFST_W] = "CFst-w",
	[FC_RET] = "RET",
};

const char *fault_class_label(enum fault_class c)
{
	return labels[c];
}

static size_t below(struct prng *rng, size_t n)
{
	return (size_t)(prng_next(rng) % n);
}

// Place a one-cell fault (placement i) into f.
static void place_cell(struct sim_fault *f, unsigned i, size_t n,
		       struct prng *rng)
{
	static const unsigned bits[] = { 0, 63, 31, 32 };
	size_t words[] = { 0, n - 1, n / 2, 1 };

	f->vword = i < 4 ? words[i] : below(rng, n);
	f->vbit = i < 4 ? bits[i] : (unsigned)below(rng, 64);
}

// Place a two-word fault (placement i): the other word at a distance.
static void place_pair(struct sim_fault *f, unsigned i, size_t n,
		       struct prng *rng)
{
	size_t dist[] = { 1, 2, 3, 8, 64, 511, n / 2, n - 1 };
	size_t d = dist[(i / 2) % 8];

	if (i % 2 == 0) { // aggressor above the victim
		f->vword = below(rng, n - d);
		f->aword = f->vword + d;
	} else {
		f->vword = d + below(rng, n - d);
		f->aword = f->vword - d;
	}
	f->vbit = (unsigned)below(rng, 64);
	f->abit = (unsigned)below(rng, 64);
}

// Place a one-word coupling fault (placement i): aggressor bit abit, victim
// bit vbit of the same word.
static void place_word(struct sim_fault *f, unsigned i, size_t n,
		       struct prng *rng)
{
	f->vword = i == 0 ? 0 : i == 1 ? n - 1 : below(rng, n);
	f->aword = f->vword;
	if (i < 6) {
		f->abit = (unsigned)below(rng, 64);
		f->vbit = f->abit ^ (1u << i);
	} else if (i < 8) {
		f->abit = i == 6 ? 0 : 63;
		f->vbit = 63 - f->abit;
	} else {
		f->abit = (unsigned)below(rng, 64);
		f->vbit = (f->abit + 1 + (unsigned)below(rng, 63)) % 64;
	}
}

// The fault kind and trigger of variant v of class c into f (the placement
// is made already).
static void set_variant(struct sim_fault *f, enum fault_class c, unsigned v,
			unsigned i)
{
	static const uint32_t delays[] = { 1, 10, 45, 89 };
	bool b0 = v & 1, b1 = v >> 1;

	switch (c) {
	case FC_SAF:
		f->kind = SIM_SAF, f->value = b0;
		break;
	case FC_TF:
		f->kind = SIM_TF, f->up = b0;
		break;
	case FC_AF_ALIAS:
		f->kind = SIM_AF_ALIAS;
		break;
	case FC_AF_NONE:
		f->kind = SIM_AF_NONE, f->value = b0;
		break;
	case FC_AF_MULTI:
		f->kind = SIM_AF_MULTI, f->value = b0;
		break;
	case FC_CFIN:
	case FC_CFIN_W:
		f->kind = SIM_CFIN, f->up = b0;
		break;
	case FC_CFID:
	case FC_CFID_W:
		f->kind = SIM_CFID, f->up = b1, f->value = b0;
		break;
	case FC_CFST:
	case FC_CFST_W:
		f->kind = SIM_CFST, f->state = b1, f->value = b0;
		break;
	case FC_RET:
		f->kind = SIM_RET, f->value = b0;
		f->delay_s = delays[i % 4];
		break;
	default:
		abort();
	}
}

// Variants of class c: stuck value, transition, trigger and effect.
static unsigned variants_of(enum fault_class c)
{
	if (c == FC_CFID || c == FC_CFST || c == FC_CFID_W || c == FC_CFST_W)
		return 4;
	return c == FC_AF_ALIAS ? 1 : 2;
}

size_t faults_sample(enum fault_class c, size_t nwords, uint64_t seed,
		     struct sim_fault *out, size_t max)
{
	struct prng rng;
	size_t k = 0;

	prng_seed(&rng, seed ^ (uint64_t)c);
	if (c == FC_ALINE) {
		for (unsigned line = 0; (1ull << line) < nwords; line++)
			for (unsigned v = 0; v < 2 && k < max; v++)
				out[k++] = (struct sim_fault){
					.kind = SIM_ALINE, .abit = line,
					.value = v };
		return k;
	}
	for (unsigned v = 0; v < variants_of(c); v++) {
		for (unsigned i = 0; i < PLACEMENTS && k < max; i++) {
			struct sim_fault f = { 0 };

			switch (c) {
			case FC_SAF:
			case FC_TF:
			case FC_AF_NONE:
			case FC_RET:
				place_cell(&f, i, nwords, &rng);
				break;
			case FC_AF_ALIAS:
			case FC_AF_MULTI:
			case FC_CFIN:
			case FC_CFID:
			case FC_CFST:
				place_pair(&f, i, nwords, &rng);
				break;
			default:
				place_word(&f, i, nwords, &rng);
				break;
			}
			set_variant(&f, c, v, i);
			out[k++] = f;
		}
	}
	return k;
}

// Placements per variant in faults_sample_shares.
#define SHARE_PLACEMENTS 16

// Place a two-word fault across shares (placement i): nwords words in n
// shares of s words, each of n slices of s / n words.
static void place_across(struct sim_fault *f, unsigned i, size_t nwords,
			 unsigned n, struct prng *rng)
{
	size_t s = nwords / n, slice = s / n;
	size_t lo, hi; // the lower and the higher word
	unsigned apart = 1 + (unsigned)below(rng, n - 1); // shares apart
	size_t first = s * below(rng, n - apart);         // the lower share
	bool same_bit = true;

	switch (i) {
	case 0:
	case 1: // the last word of a share and the first of the next
		hi = s * (1 + below(rng, n - 1));
		lo = hi - 1;
		same_bit = false;
		break;
	case 2: case 3: case 4: case 5: case 6: case 7:
		// the same place, 1, 2, 3 shares apart (both ways round)
		apart = 1 + (i - 2) / 2 % (n - 1);
		first = s * below(rng, n - apart);
		lo = first + below(rng, s);
		hi = lo + apart * s;
		break;
	case 8:
	case 9: // the same place, different bits
		lo = first + below(rng, s);
		hi = lo + apart * s;
		same_bit = false;
		break;
	case 10:
	case 11: // the same slice of two shares, other places in it
		lo = first + slice * below(rng, n) + below(rng, slice);
		hi = first + apart * s + (lo - first) / slice * slice +
		     below(rng, slice);
		break;
	case 12:
	case 13: // neighbouring shares, the higher one a slice further on
		first = s * below(rng, n - 1);
		lo = first + slice * below(rng, n - 1) + below(rng, slice);
		hi = lo + s + slice;
		break;
	default: // anywhere in two different shares
		lo = first + below(rng, s);
		hi = first + apart * s + below(rng, s);
		same_bit = false;
		break;
	}
	f->vword = i % 2 ? hi : lo;
	f->aword = i % 2 ? lo : hi;
	f->vbit = (unsigned)below(rng, 64);
	f->abit = same_bit ? f->vbit : (unsigned)below(rng, 64);
}

size_t faults_sample_shares(enum fault_class c, size_t nwords,
			    unsigned nshares, uint64_t seed,
			    struct sim_fault *out, size_t max)
{
	struct prng rng;
	size_t k = 0;

	if (c != FC_AF_ALIAS && c != FC_AF_MULTI && c != FC_CFIN &&
	    c != FC_CFID && c != FC_CFST)
		return 0;
	if (nshares < 2 || nwords % ((size_t)nshares * nshares))
		abort();
	prng_seed(&rng, seed ^ 0x5348415245ull ^ (uint64_t)c);
	for (unsigned v = 0; v < variants_of(c); v++) {
		for (unsigned i = 0; i < SHARE_PLACEMENTS && k < max; i++) {
			struct sim_fault f = { 0 };

			place_across(&f, i, nwords, nshares, &rng);
			set_variant(&f, c, v, i);
			out[k++] = f;
		}
	}
	return k;
}
