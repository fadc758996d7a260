// SPDX-License-Identifier: GPL-2.0-or-later
// random: {⇑(w x); ⇑(r x); ⇑(w ~x); ⇑(r ~x)} where x is a seeded random
// value per word: data-dependent faults that fixed patterns never provoke get
// a chance, every bit holds both values, and seed= reproduces a failure.
// The value of the word at address a is line(a / 64) ^ mask[a / 8 % 8]:
// prng.h's counter-based generator gives each 64-byte line a value and eight
// masks drawn from the seed tell its words apart. Any two words still get
// independent, uniformly random values, and the sweeps run at memory speed,
// where one 128-bit multiply per word bounded them at a third of it.
#include "memtest/algos.h"
#include "memtest/sweep.h"
#include "memtest/prng.h"

// Salt for the seed, so random and mi-random draw different sequences.
#define RANDOM_SEED_SALT 0x72616e646f6d2d73ull

#define LINE_BYTES (8 * MT_LINE_WORDS)

struct sequence {
	uint64_t base; // line L's counter is base + L * PRNG_CTR_STEP
	uint64_t mask[MT_LINE_WORDS]; // xor inv already applied
};

static void sequence_init(struct sequence *s, const struct mt_ctx *ctx,
			  uint64_t inv)
{
	struct prng_ctr rng;

	prng_ctr_seed(&rng, ctx->seed ^ RANDOM_SEED_SALT);
	for (unsigned j = 0; j < MT_LINE_WORDS; j++)
		s->mask[j] = prng_ctr_next(&rng) ^ inv;
	s->base = rng.ctr;
}

// The counter of the line holding address a.
static inline uint64_t line_ctr(const struct sequence *s, uint64_t a)
{
	return s->base + a / LINE_BYTES * PRNG_CTR_STEP;
}

// The value of the word at address a, one word at a time (a chunk's words
// outside whole lines).
static inline uint64_t word_value(const struct sequence *s, uint64_t a)
{
	return prng_ctr_mix(line_ctr(s, a)) ^ s->mask[a / 8 % MT_LINE_WORDS];
}

// The words of [lo, hi) split into: head words up to the first line
// boundary, whole lines, tail words after the last.
struct split {
	uint64_t head, lines, tail;
};

static struct split split_chunk(uint64_t lo, uint64_t hi)
{
	uint64_t n = (hi - lo) / 8;
	uint64_t head = (LINE_BYTES - lo % LINE_BYTES) % LINE_BYTES / 8;

	if (head > n)
		head = n;
	return (struct split){ head, (n - head) / MT_LINE_WORDS,
			       (n - head) % MT_LINE_WORDS };
}

// Write the values (xor inv) over all ranges, ascending, or, when check,
// check them, regenerated from the seed.
static inline __attribute__((always_inline)) bool
random_sweep(const struct mt_ctx *ctx, uint64_t inv, bool check)
{
	struct sequence s;
	struct mt_walk w;

	sequence_init(&s, ctx, inv);
	mt_walk_begin(&w, ctx, MT_UP);
	while (mt_walk_next(&w)) {
		struct split p = split_chunk(w.lo, w.hi);
		uint64_t a = w.lo;

		for (uint64_t k = p.head; k; k--, a += 8)
			mt_fill_or_check(ctx, a, word_value(&s, a), check);
		uint64_t c = line_ctr(&s, a);
		for (uint64_t k = p.lines; k; k--, a += LINE_BYTES) {
			uint64_t line = prng_ctr_mix(c);

			c += PRNG_CTR_STEP;
			if (check)
				mem_prefetch(a + MT_PREFETCH_BYTES);
#pragma GCC unroll 8
			for (unsigned j = 0; j < MT_LINE_WORDS; j++)
				mt_fill_or_check(ctx, a + 8 * j,
						 line ^ s.mask[j], check);
		}
		for (uint64_t k = p.tail; k; k--, a += 8)
			mt_fill_or_check(ctx, a, word_value(&s, a), check);
	}
	if (!check)
		mem_store_fence();
	return !w.aborted && mt_phase_end(ctx, false);
}

// random_sweep with check a constant, so that each loop keeps nothing of
// the other.
static bool random_pass(const struct mt_ctx *ctx, uint64_t inv, bool check)
{
	return check ? random_sweep(ctx, inv, true)
		     : random_sweep(ctx, inv, false);
}

bool mt_random(const struct mt_ctx *ctx, const void *param)
{
	(void)param;
	return random_pass(ctx, 0, false) && random_pass(ctx, 0, true) &&
	       random_pass(ctx, ~0ull, false) && random_pass(ctx, ~0ull, true);
}
