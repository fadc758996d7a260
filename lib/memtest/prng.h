// SPDX-License-Identifier: GPL-2.0-or-later
// The pseudo-random generator of the memory tests: xorshift64* (Vigna 2016:
// shifts 12, 25, 27, multiplier 0x2545F4914F6CDD1D) seeded through
// splitmix64 (Steele, Lea, Flood 2014), so every seed, 0 included, gives a
// good non-zero state; reproducible from the seed, period 2^64 - 1, not for
// anything that needs unpredictability. Each output waits for the previous
// one, so where a test fills all memory with random values it uses the
// counter-based generator below, whose output i is a pure function of the
// seed and i (random.c draws one per 64-byte line).
#ifndef RAMSIFT_LIB_MEMTEST_PRNG_H
#define RAMSIFT_LIB_MEMTEST_PRNG_H

#include <stdint.h>

// 2^64 divided by the golden ratio, made odd: the Weyl increment of
// splitmix64, and a step that spreads consecutive numbers over 64 bits.
#define PRNG_GOLDEN_GAMMA 0x9e3779b97f4a7c15ull

struct prng {
	uint64_t state; // never 0
};

// One splitmix64 step: advance *state by the golden-ratio increment and
// return the mixed result. Also used to derive independent seeds.
uint64_t prng_splitmix64(uint64_t *state);

// Seed p from any 64-bit seed. The same seed always gives the same sequence.
void prng_seed(struct prng *p, uint64_t seed);

// The next 64-bit output of p. Inline: the random tests call it per word.
static inline uint64_t prng_next(struct prng *p)
{
	uint64_t x = p->state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	p->state = x;
	return x * 0x2545f4914f6cdd1dull;
}

// Counter-based generator: wyrand (Wang Yi, 2019, public domain; passes
// TestU01 BigCrush and PractRand). The state is a Weyl sequence, advanced by
// an odd constant per output, and each output is the 128-bit product of the
// state and the state xor a second constant, folded to 64 bits (high half
// xor low half). Period
// 2^64; the only dependency between outputs is one addition.
struct prng_ctr {
	uint64_t ctr;
};

// Seed p from any 64-bit seed. The same seed always gives the same sequence.
void prng_ctr_seed(struct prng_ctr *p, uint64_t seed);

// What the counter advances by per output (odd: period 2^64).
#define PRNG_CTR_STEP 0xa0761d6478bd642full

// The output for counter value c, a pure function: a hot loop may keep the
// counter in a register and compute several outputs at once.
static inline uint64_t prng_ctr_mix(uint64_t c)
{
	unsigned __int128 m = (unsigned __int128)c * (c ^ 0xe7037ed1a0b428dbull);

	return (uint64_t)(m >> 64) ^ (uint64_t)m;
}

// The next 64-bit output of p: its counter advanced by PRNG_CTR_STEP, mixed.
static inline uint64_t prng_ctr_next(struct prng_ctr *p)
{
	return prng_ctr_mix(p->ctr += PRNG_CTR_STEP);
}

#endif
