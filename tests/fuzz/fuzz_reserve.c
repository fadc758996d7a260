// SPDX-License-Identifier: GPL-2.0-or-later
// The fuzz target of lib/reserve/reserve.c. An input is one control byte,
// then the text: bit 0 of the control byte parses it as load options
// (reserve_parse_options), else as badpages.txt (reserve_parse). After the
// parse, what reserve.h promises is checked (abort() if not): at most
// RESERVE_PAIRS_MAX pairs, each with page-granular mask fixing a bit and an
// address inside its mask; a loader empty or starting with '\' and
// terminated; an error offset inside the text. Then the runs of the first
// pairs in a 16 MiB window are checked page by page: ascending, disjoint,
// inside the window, and exactly the matching pages. The window: with bit 7
// of the control byte the top of the address space (the runs must not
// wrap), else at (control >> 1) MiB, the pairs then kept below 4 GiB. Built by clang with -fsanitize=fuzzer (make
// fuzz-reserve), or by gcc with tests/fuzz/replay.c's main to replay the
// corpus (make check-fuzz-corpus).
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "reserve/reserve.h"

#define PG 0x1000ull
#define WINDOW_PAGES 4096	// the window the runs are checked in: 16 MiB
#define PAIRS_CHECKED 4

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct reserve_config cfg;

struct walk {
	const struct reserve_pair *p;
	uint64_t lo, hi, at;	// at: the end of the previous run
	uint64_t pages;
};

static void check_run(void *ctx, uint64_t start, uint64_t end)
{
	struct walk *w = ctx;

	if (start < w->at || end <= start || end > w->hi || start % PG || end % PG)
		abort();
	for (uint64_t a = w->at; a < end; a += PG) {
		bool in = a >= start, match = (a & w->p->mask) == w->p->addr;
		if (in != match)
			abort();
	}
	w->pages += (end - start) / PG;
	w->at = end;
}

static void check_runs(const struct reserve_pair *p, uint64_t lo)
{
	struct walk w = { p, lo, lo + WINDOW_PAGES * PG, lo, 0 };
	uint64_t bytes = reserve_runs(p, w.lo, w.hi, check_run, &w);

	for (uint64_t a = w.at; a < w.hi; a += PG)
		if ((a & p->mask) == p->addr)
			abort();
	if (bytes != w.pages * PG)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t at = SIZE_MAX;
	enum reserve_error e;

	if (size < 1)
		return 0;
	cfg = (struct reserve_config){ 0 };
	const char *text = (const char *)data + 1;
	e = (data[0] & 1 ? reserve_parse_options : reserve_parse)(&cfg, text, size - 1, &at);
	if (e != RESERVE_OK && at >= size - 1)
		abort();
	if (cfg.npairs > RESERVE_PAIRS_MAX)
		abort();
	for (size_t k = 0; k < cfg.npairs; k++) {
		const struct reserve_pair *p = &cfg.pair[k];
		if (p->mask % PG || p->mask == 0 || (p->addr & ~p->mask))
			abort();
	}
	size_t n = 0;
	while (n < RESERVE_PATH_MAX && cfg.loader[n])
		n++;
	if (n == RESERVE_PATH_MAX || (n > 0 && cfg.loader[0] != '\\'))
		abort();
	uint64_t lo = data[0] & 0x80 ? (0ull - WINDOW_PAGES * PG) : (uint64_t)(data[0] >> 1) << 20;
	for (size_t k = 0; k < cfg.npairs && k < PAIRS_CHECKED; k++) {
		struct reserve_pair p = cfg.pair[k];
		if (!(data[0] & 0x80))
			p.addr &= 0xffffffffull, p.mask |= ~0xffffffffull;	// near the window
		if (p.addr & ~p.mask)
			continue;
		check_runs(&p, lo);
	}
	return 0;
}
