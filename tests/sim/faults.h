// SPDX-License-Identifier: GPL-2.0-or-later
// The fault catalogue of the coverage simulator: the fault classes (the
// columns of the coverage table) and, for each, a reproducible sample of
// concrete faults placed at various words, bits and distances in a simulated
// memory. The sample is described in docs/memory-tests.md
// ("Fault coverage") and printed by build/coverage-sim.
#ifndef RAMSIFT_TESTS_SIM_FAULTS_H
#define RAMSIFT_TESTS_SIM_FAULTS_H

#include <stddef.h>
#include <stdint.h>

#include "simmem.h"

enum fault_class {
	FC_SAF,      // stuck-at 0/1
	FC_TF,       // transition up/down
	FC_AF_ALIAS, // address-decoder: two addresses to one cell
	FC_AF_NONE,  // address-decoder: an address reaching no cell
	FC_AF_MULTI, // address-decoder: an address reaching two cells (one
		     // cell reached by two addresses)
	FC_ALINE,    // a word-address line stuck at 0/1
	FC_CFIN,     // inversion coupling between two words
	FC_CFID,     // idempotent coupling between two words
	FC_CFST,     // state coupling between two words
	FC_CFIN_W,   // inversion coupling between two bits of one word
	FC_CFID_W,   // idempotent coupling inside one word
	FC_CFST_W,   // state coupling inside one word
	FC_RET,      // data retention (decay after a delay)
	FC_COUNT
};

// Short column label of class c, e.g. "CFid-w".
const char *fault_class_label(enum fault_class c);

// Fill out[0..max) with the sampled faults of class c for a memory of nwords
// words (a power of two, >= 1024), placed with a generator seeded by seed.
// Returns how many were written (at most max; the classes need at most
// FAULTS_MAX_PER_CLASS).
#define FAULTS_MAX_PER_CLASS 256
size_t faults_sample(enum fault_class c, size_t nwords, uint64_t seed,
		     struct sim_fault *out, size_t max);

// Further faults of class c for the parallel schedule: two-word faults whose
// cells lie in different shares when nwords words are split into nshares
// equal shares (nwords a multiple of nshares * nshares), placed where the
// order of concurrent CPUs matters most. For every variant of the class:
// across a boundary between shares, both ways; at the same place of two
// shares 1, 2 and 3 shares apart (the same bit, then different bits); in the
// same slice (1/nshares of a share) of two shares; a slice apart in two
// neighbouring shares; anywhere in two different shares. One-cell and
// one-word classes get none. Returns how many were written (at most max).
size_t faults_sample_shares(enum fault_class c, size_t nwords,
			    unsigned nshares, uint64_t seed,
			    struct sim_fault *out, size_t max);

#endif
