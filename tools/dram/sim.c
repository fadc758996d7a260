// SPDX-License-Identifier: GPL-2.0-or-later
// The simulated memory controller (sim.h).
#include "sim.h"

void sim_init(struct sim *s, const struct sim_config *cfg, uint64_t seed)
{
	*s = (struct sim){ .cfg = *cfg, .rng = seed };
}

// splitmix64 (Steele, Lea, Flood 2014).
static uint64_t next(struct sim *s)
{
	uint64_t z = (s->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint32_t sim_bank(const struct sim *s, uint64_t addr)
{
	uint32_t bank = 0;

	for (unsigned i = 0; i < s->cfg.map.nfuncs; i++)
		bank |= (uint32_t)__builtin_parityll(s->cfg.map.funcs[i] & addr) << i;
	return bank;
}

uint64_t sim_row(const struct sim *s, uint64_t addr)
{
	unsigned lo = s->cfg.map.row_lo, width = s->cfg.map.row_hi - lo + 1;

	return addr >> lo & (width == 64 ? ~0ull : (1ull << width) - 1);
}

// Tell the hook about count activations of addr's row.
static void activate(struct sim *s, uint64_t addr, uint32_t count)
{
	if (s->activate)
		s->activate(s->activate_ctx, sim_bank(s, addr), sim_row(s, addr), count);
}

uint32_t sim_time_pair(void *ctx, uint64_t a, uint64_t b)
{
	struct sim *s = ctx;
	uint32_t t;

	s->rounds++;
	if (sim_bank(s, a) != sim_bank(s, b)) {
		t = SIM_OTHER_BANK;
		activate(s, a, 1);
		activate(s, b, 1);
	} else if (sim_row(s, a) == sim_row(s, b)) {
		t = SIM_ROW_HIT;
		activate(s, a, 1);
	} else {
		// Each read closes the other's row: every read activates.
		t = SIM_CONFLICT;
		activate(s, a, SIM_ALTERNATIONS);
		activate(s, b, SIM_ALTERNATIONS);
	}
	t += (uint32_t)(next(s) % SIM_JITTER);
	if (next(s) % 100 < s->cfg.noise)
		t += (uint32_t)(next(s) % SIM_DELAY);
	return t;
}
