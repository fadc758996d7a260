// SPDX-License-Identifier: GPL-2.0-or-later
// The learning's measurements and random addresses (probe.h).
#include "dram/probe.h"

#include "dram/gf2.h"

void probe_init(struct probe *p, const struct dram_machine *m, const struct dram_limits *lim,
		uint64_t seed, uint32_t measurements)
{
	p->m = m;
	p->lim = lim;
	p->rng = seed;
	p->total = range_total(m->ranges, m->nranges);
	p->threshold = 0;
	p->measurements = measurements;
	p->stopped = false;
}

uint64_t probe_random(struct probe *p)
{
	uint64_t z = (p->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t probe_address(struct probe *p)
{
	uint64_t off = probe_random(p) % p->total;
	size_t i = 0;

	while (off >= p->m->ranges[i].end - p->m->ranges[i].start) {
		off -= p->m->ranges[i].end - p->m->ranges[i].start;
		i++;
	}
	return (p->m->ranges[i].start + off) & ~63ull;
}

bool probe_readable(const struct probe *p, uint64_t addr)
{
	for (size_t i = 0; i < p->m->nranges; i++)
		if (addr >= p->m->ranges[i].start && addr + 64 <= p->m->ranges[i].end)
			return true;
	return false;
}

uint32_t probe_time(struct probe *p, uint64_t a, uint64_t b)
{
	uint32_t best = UINT32_MAX;

	if (!p->stopped && (p->measurements >= p->lim->max_measurements ||
			    (p->m->expired && p->m->expired(p->m->ctx))))
		p->stopped = true;
	if (p->stopped)
		return 0;
	p->measurements++;
	for (uint32_t r = 0; r < p->lim->rounds; r++) {
		uint32_t t = p->m->time_pair(p->m->ctx, a, b);

		if (t < best)
			best = t;
	}
	return best;
}

bool probe_conflict(struct probe *p, uint64_t a, uint64_t b)
{
	return probe_time(p, a, b) > p->threshold;
}

uint32_t probe_bank(const uint64_t *funcs, unsigned n, uint64_t addr)
{
	uint32_t bank = 0;

	for (unsigned i = 0; i < n; i++)
		bank |= (uint32_t)gf2_parity(funcs[i] & addr) << i;
	return bank;
}
