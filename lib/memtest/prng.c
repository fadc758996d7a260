// SPDX-License-Identifier: GPL-2.0-or-later
// Seeding for the generators of prng.h: splitmix64 spreads any seed over the
// whole state, and the one state xorshift cannot leave (0) is replaced.
#include "memtest/prng.h"

uint64_t prng_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += PRNG_GOLDEN_GAMMA);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void prng_seed(struct prng *p, uint64_t seed)
{
	uint64_t s = prng_splitmix64(&seed);

	// xorshift maps 0 to 0 forever; any other fixed state will do.
	p->state = s ? s : PRNG_GOLDEN_GAMMA;
}

void prng_ctr_seed(struct prng_ctr *p, uint64_t seed)
{
	// Every counter value is a good start (a Weyl sequence has no bad
	// state); splitmix64 only decorrelates nearby seeds.
	p->ctr = prng_splitmix64(&seed);
}
