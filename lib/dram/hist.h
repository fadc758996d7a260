// SPDX-License-Identifier: GPL-2.0-or-later
// The conflict threshold from the latencies of many random pairs: most
// pairs are in different banks (fast), a few in the same bank and another
// row (slow, a row-buffer conflict). The samples are split in two where the
// classes are farthest apart (Otsu's criterion), and the split counts as a
// timing signal only when the slow class is a small minority and both
// classes are tight next to the distance between them. Integer only.
#ifndef RAMSIFT_LIB_DRAM_HIST_H
#define RAMSIFT_LIB_DRAM_HIST_H

#include <stdbool.h>
#include <stdint.h>

// The slow class must hold between these many thousandths of the samples:
// 1/2^k of random pairs share a bank, for 2 <= k <= 8 bank functions.
#define HIST_MIN_SLOW_MILLI 3
#define HIST_MAX_SLOW_MILLI 300
// And at least this many samples.
#define HIST_MIN_SLOW 6
// At most this many samples (the variance's products fit 64 bits).
#define HIST_MAX_SAMPLES 65536u

// Sort v[0..n) ascending, in place (Shell sort: no memory, no recursion).
void hist_sort(uint32_t *v, uint32_t n);

// From the sorted v[0..n), 2 <= n <= HIST_MAX_SAMPLES: true and the threshold in *threshold
// (a latency above it is a conflict) when the samples are bimodal with a
// small slow class; false when there is no such signal.
bool hist_threshold(const uint32_t *v, uint32_t n, uint32_t *threshold);

#endif
