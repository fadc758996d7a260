// SPDX-License-Identifier: GPL-2.0-or-later
// The DRAMA learning from end to end (learn.h): the threshold from random
// pairs, the bank functions from same-bank sets (group.c), the row bits
// (rows.c), the validation (validate.c). Each step can end the learning
// with its outcome; only a validated map leaves as learned.
#include "dram/hist.h"
#include "dram/steps.h"

// Less memory than this (1 MiB: 14 address bits above the cache line) holds
// too few bank and row bits to learn from.
#define LEARN_MIN_BYTES (1u << 20)

size_t dram_scratch_size(const struct dram_limits *lim)
{
	return (size_t)lim->pool * sizeof(uint64_t) + (size_t)lim->hist_pairs * sizeof(uint32_t);
}

static bool limits_ok(const struct dram_limits *lim)
{
	return lim->rounds >= 1 && lim->rounds <= 64 && lim->max_measurements > 0 &&
	       lim->hist_pairs >= 64 && lim->hist_pairs <= HIST_MAX_SAMPLES && lim->pool >= 64 &&
	       lim->pool <= 65536 && lim->validation_pairs >= 64;
}

// Time lim->hist_pairs random pairs into lat and set p->threshold.
static enum dram_outcome find_threshold(struct probe *p, uint32_t *lat)
{
	uint32_t n = p->lim->hist_pairs;

	for (uint32_t i = 0; i < n; i++) {
		uint64_t a = probe_address(p), b = probe_address(p);

		// At least 1 MiB to draw from: another line comes soon.
		while (b == a)
			b = probe_address(p);
		lat[i] = probe_time(p, a, b);
	}
	if (p->stopped)
		return DRAM_OUT_OF_TIME;
	hist_sort(lat, n);
	return hist_threshold(lat, n, &p->threshold) ? DRAM_LEARNED : DRAM_NO_SIGNAL;
}

// The steps up to a candidate map in *map.
static enum dram_outcome candidate(struct probe *p, uint64_t *pool, uint32_t *lat,
				   struct dram_map *map)
{
	enum dram_outcome o = find_threshold(p, lat);
	uint32_t n = p->lim->pool;
	uint64_t vary;

	if (o != DRAM_LEARNED)
		return o;
	for (uint32_t i = 0; i < n; i++)
		pool[i] = probe_address(p);
	vary = steps_vary(pool, n);
	o = group_solve(p, pool, n, vary, map);
	if (o != DRAM_LEARNED)
		return o;
	return rows_find(p, pool, n, vary, map);
}

void dram_learn(const struct dram_machine *m, const struct dram_limits *lim, uint64_t seed,
		void *scratch, size_t size, struct dram_result *out)
{
	struct probe p;
	struct dram_map map = { 0 };
	uint64_t *pool = scratch;
	enum dram_outcome o;

	*out = (struct dram_result){ .outcome = DRAM_BAD_LIMITS };
	if (!limits_ok(lim))
		return;
	out->outcome = DRAM_TOO_LITTLE_MEMORY;
	if (size < dram_scratch_size(lim) || (uintptr_t)scratch % sizeof(uint64_t) ||
	    range_total(m->ranges, m->nranges) < LEARN_MIN_BYTES)
		return;
	probe_init(&p, m, lim, seed, 0);
	o = candidate(&p, pool, (uint32_t *)(pool + lim->pool), &map);
	out->threshold = p.threshold;
	out->measurements = p.measurements;
	if (o != DRAM_LEARNED) {
		out->outcome = o;
		return;
	}
	if (dram_validate(m, lim, probe_random(&p), &map, p.threshold, &out->validation,
			  &out->measurements))
		out->map = map;
	else if (out->measurements >= lim->max_measurements ||
		 (m->expired && m->expired(m->ctx)))
		o = DRAM_OUT_OF_TIME;
	else
		o = DRAM_REJECTED;
	out->outcome = o;
}

const char *dram_outcome_text(enum dram_outcome o)
{
	switch (o) {
	case DRAM_LEARNED:
		return "learned: the mapping passed its validation";
	case DRAM_NO_SIGNAL:
		return "no timing signal: the latencies of random pairs are not bimodal, "
		       "row-buffer conflicts do not show (a hypervisor, an emulator or noise)";
	case DRAM_NO_SOLUTION:
		return "no consistent solution: the same-bank sets gave no bank functions "
		       "or no contiguous row bits";
	case DRAM_REJECTED:
		return "rejected by validation: precision or recall below 0.9 on fresh pairs";
	case DRAM_OUT_OF_TIME:
		return "out of time: the deadline or the measurement cap came first";
	case DRAM_TOO_LITTLE_MEMORY:
		return "too little memory: under 1 MiB to learn from, or too little scratch memory";
	case DRAM_BAD_LIMITS:
		return "bad limits: a learning limit is out of its range";
	}
	return "unknown outcome";
}

const char *dram_outcome_name(enum dram_outcome o)
{
	static const char *const names[] = {
		[DRAM_LEARNED] = "learned",
		[DRAM_NO_SIGNAL] = "no-signal",
		[DRAM_NO_SOLUTION] = "no-solution",
		[DRAM_REJECTED] = "rejected",
		[DRAM_OUT_OF_TIME] = "out-of-time",
		[DRAM_TOO_LITTLE_MEMORY] = "too-little-memory",
		[DRAM_BAD_LIMITS] = "bad-limits",
	};

	return (unsigned)o < sizeof(names) / sizeof(names[0]) ? names[o] : "unknown";
}
