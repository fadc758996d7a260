// SPDX-License-Identifier: GPL-2.0-or-later
// The conflict threshold from a latency histogram (hist.h).
#include "dram/hist.h"

void hist_sort(uint32_t *v, uint32_t n)
{
	// Ciura's gap sequence, extended by factors of 2.25.
	static const uint32_t gaps[] = { 8929, 3967, 1750, 701, 301, 132, 57, 23, 10, 4, 1 };

	for (unsigned g = 0; g < sizeof(gaps) / sizeof(gaps[0]); g++) {
		uint32_t gap = gaps[g];

		for (uint32_t i = gap; i < n; i++) {
			uint32_t x = v[i], j = i;

			for (; j >= gap && v[j - gap] > x; j -= gap)
				v[j] = v[j - gap];
			v[j] = x;
		}
	}
}

// The split k (low class v[0..k)) maximising Otsu's between-class variance,
// which is proportional to k (n - k) (mean_high - mean_low)^2; 0 if all
// samples are equal. With latencies clamped to 2^20 ticks and n <= 2^16
// (HIST_MAX_SAMPLES), d^2 < 2^40 and k (n - k) / 256 < 2^22: no overflow.
static uint32_t otsu_split(const uint32_t *v, uint32_t n)
{
	uint64_t total = 0, low = 0, best_score = 0;
	uint32_t best = 0;

	for (uint32_t i = 0; i < n; i++)
		total += v[i] < (1u << 20) ? v[i] : (1u << 20);
	for (uint32_t k = 1; k < n; k++) {
		uint64_t x = v[k - 1] < (1u << 20) ? v[k - 1] : (1u << 20);
		uint64_t d, score;

		low += x;
		if (v[k - 1] == v[k])
			continue;
		d = (total - low) / (n - k) - low / k;
		score = d * d * ((uint64_t)k * (n - k) >> 8);
		if (score > best_score) {
			best_score = score;
			best = k;
		}
	}
	return best;
}

bool hist_threshold(const uint32_t *v, uint32_t n, uint32_t *threshold)
{
	uint32_t k = otsu_split(v, n), slow = n - k;
	uint32_t lo10, lo50, lo90, hi10, hi50, hi90, gap;

	if (!k || slow < HIST_MIN_SLOW || (uint64_t)slow * 1000 < (uint64_t)n * HIST_MIN_SLOW_MILLI ||
	    (uint64_t)slow * 1000 > (uint64_t)n * HIST_MAX_SLOW_MILLI)
		return false;
	lo10 = v[k / 10];
	lo50 = v[k / 2];
	lo90 = v[k * 9 / 10];
	hi10 = v[k + slow / 10];
	hi50 = v[k + slow / 2];
	hi90 = v[k + slow * 9 / 10];
	gap = hi50 - lo50;
	// Two modes: each class's central 80 % narrower than the distance
	// between their medians, and the two not overlapping.
	if (hi10 <= lo90 || lo90 - lo10 >= gap || hi90 - hi10 >= gap)
		return false;
	*threshold = lo90 + (hi10 - lo90) / 2;
	return true;
}
