// SPDX-License-Identifier: GPL-2.0-or-later
// ramsift-faultgen: seeded, realistic sets of faulty cells for
// ramsift-inject (tests/inject/inject.c): single cells, one DRAM row, one
// column across every row of a bank, and mixes of these, so that the round
// trips test the fold on the shapes real DIMMs fail in. Prints one
// ADDR:BIT:VALUE[:PERCENT] line per faulty bit, sorted by address, after
// '#' lines saying what was generated; the same seed gives the same set.
//	ramsift-faultgen [--seed N] [--percent P] --ram RANGES [--avoid RANGES]
//	                 cells:N | row | column [@START-END] ...
// RANGES are START-END[,...], END exclusive, with an optional K, M or G;
// faults fall in --ram outside --avoid; --percent makes every fault flaky.
// The address-mapping model is above ROW_SHIFT; docs/testing.md has it too.
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memtest/prng.h"

// The address-mapping model: one channel, one rank, 8 banks, rows of 8 KiB
// (1024 words of 64 bits), physical address bits
//   0-2    byte lane in the word (data bits 8*lane .. 8*lane+7)
//   3-6    column bits 0-3
//   7      bank bit 0 XOR row bit 0
//   8-13   column bits 4-9
//   14-15  bank bits 1-2 XOR row bits 1-2
//   16-    row
// as memory controllers interleave: a burst of 128 bytes stays in one row,
// and the XOR of bank and low row bits spreads neighbouring rows over banks.
// So one row is every other 128 bytes of a 16 KiB aligned block, and one
// column of a bank is one word in every 64 KiB.
#define MAX_RANGES 64
#define ROW_SHIFT 16
#define COLUMNS 1024

struct range {
	uint64_t start, end;
};

struct ranges {
	struct range r[MAX_RANGES];
	size_t n;
};

struct fault {
	uint64_t addr;
	unsigned bit, value;
	size_t seq;             // order drawn: the first of two on one bit wins
};

static struct {
	struct fault *f;
	size_t n, cap;
	struct ranges ram, avoid;
	uint64_t bottom, top;   // lowest START and highest END of --ram
	unsigned percent;
} gen;

static void usage(const char *why)
{
	fprintf(stderr, "ramsift-faultgen: %s\n"
		"usage: ramsift-faultgen [--seed N] [--percent P] --ram START-END[,...]\n"
		"                        [--avoid START-END[,...]] cells:N|row|column[@START-END]...\n",
		why);
	exit(2);
}

static uint64_t rng_state = 1;

static uint64_t rng(void)
{
	return prng_splitmix64(&rng_state);
}

// A number with an optional K/M/G suffix; *end gets what follows.
static uint64_t number(const char *s, char **end)
{
	errno = 0;
	uint64_t v = strtoull(s, end, 0);
	if (errno || *end == s)
		usage("not a number");
	switch (**end) {
	case 'K': v <<= 10; (*end)++; break;
	case 'M': v <<= 20; (*end)++; break;
	case 'G': v <<= 30; (*end)++; break;
	}
	return v;
}

// One START-END; returns what follows it.
static char *parse_range(char *s, struct range *r)
{
	char *end;
	r->start = number(s, &end);
	if (*end != '-')
		usage("a range is START-END");
	r->end = number(end + 1, &end);
	if (r->end <= r->start)
		usage("a range must end after its start");
	return end;
}

static void parse_ranges(char *s, struct ranges *rs)
{
	for (;;) {
		if (rs->n == MAX_RANGES)
			usage("too many ranges");
		s = parse_range(s, &rs->r[rs->n++]);
		if (*s == '\0')
			return;
		if (*s++ != ',')
			usage("ranges are separated by commas");
	}
}

static int in(const struct ranges *rs, uint64_t a)
{
	for (size_t i = 0; i < rs->n; i++)
		if (a >= rs->r[i].start && a < rs->r[i].end)
			return 1;
	return 0;
}

static int usable(uint64_t addr, const struct range *within)
{
	return in(&gen.ram, addr) && !in(&gen.avoid, addr) && addr >= within->start &&
	       addr < within->end;
}

static void add(uint64_t addr, unsigned bit, unsigned value, const struct range *within)
{
	if (!usable(addr, within))
		return;
	if (gen.n == gen.cap) {
		gen.cap = gen.cap ? 2 * gen.cap : 1024;
		gen.f = realloc(gen.f, gen.cap * sizeof(*gen.f));
		if (!gen.f)
			usage("out of memory");
	}
	gen.f[gen.n] = (struct fault){ addr, bit, value, gen.n };
	gen.n++;
}

// The model's physical address of a word (see the top of the file).
static uint64_t dram_addr(uint64_t bank, uint64_t row, uint64_t col)
{
	uint64_t b0 = (bank ^ row) & 1, b12 = ((bank >> 1) ^ (row >> 1)) & 3;
	return (col & 0xf) << 3 | b0 << 7 | (col >> 4) << 8 | b12 << 14 | row << ROW_SHIFT;
}

static uint64_t rows_in(const struct range *w)
{
	return ((w->end - 1) >> ROW_SHIFT) + 1;
}

static void gen_cells(uint64_t count, const struct range *w)
{
	uint64_t span = w->end - w->start, tries = 0;
	size_t want = gen.n + count;
	// Draw until count cells landed in RAM (or clearly cannot).
	while (gen.n < want && tries++ < 1000 * count + 1000)
		add((w->start + rng() % span) & ~7ull, (unsigned)(rng() % 64),
		    (unsigned)(rng() & 1), w);
	if (gen.n < want)
		usage("cells: the range holds too little usable RAM");
	printf("# cells: %llu single cells\n", (unsigned long long)count);
}

static void gen_row(const struct range *w)
{
	uint64_t lo = w->start >> ROW_SHIFT, n = rows_in(w) - lo, bank, row, tries = 0;
	// A row that starts in usable RAM.
	do {
		bank = rng() % 8;
		row = lo + rng() % n;
		if (tries++ == 100000)
			usage("row: the range holds too little usable RAM");
	} while (!usable(dram_addr(bank, row, 0), w));
	uint64_t lane = rng() % 8;
	printf("# row: bank %llu row %llu byte lane %llu (1024 words from 0x%llx)\n",
	       (unsigned long long)bank, (unsigned long long)row, (unsigned long long)lane,
	       (unsigned long long)dram_addr(bank, row, 0));
	for (uint64_t c = 0; c < COLUMNS; c++)
		add(dram_addr(bank, row, c), (unsigned)(lane * 8 + rng() % 8),
		    (unsigned)(rng() & 1), w);
}

static void gen_column(const struct range *w)
{
	uint64_t bank = rng() % 8, col = rng() % COLUMNS, bit = rng() % 64, value = rng() & 1;
	printf("# column: bank %llu column %llu bit %llu stuck at %llu, rows %llu-%llu\n",
	       (unsigned long long)bank, (unsigned long long)col, (unsigned long long)bit,
	       (unsigned long long)value, (unsigned long long)(w->start >> ROW_SHIFT),
	       (unsigned long long)(rows_in(w) - 1));
	for (uint64_t row = w->start >> ROW_SHIFT; row < rows_in(w); row++)
		add(dram_addr(bank, row, col), (unsigned)bit, (unsigned)value, w);
}

static void kind(char *s)
{
	struct range w = { gen.bottom, gen.top };
	char *at = strchr(s, '@'), *end;
	if (at) {
		*at = '\0';
		if (*parse_range(at + 1, &w))
			usage("KIND@START-END: junk after the range");
	}
	if (!strncmp(s, "cells:", 6)) {
		uint64_t count = number(s + 6, &end);
		if (*end || count == 0)
			usage("cells:N takes a count");
		gen_cells(count, &w);
	} else if (!strcmp(s, "row")) {
		gen_row(&w);
	} else if (!strcmp(s, "column")) {
		gen_column(&w);
	} else {
		usage("unknown KIND");
	}
}

static int by_addr_bit(const void *a, const void *b)
{
	const struct fault *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->bit != y->bit)
		return x->bit < y->bit ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

int main(int argc, char **argv)
{
	int i = 1;
	char *end;

	for (; i < argc && argv[i][0] == '-'; i += 2) {
		if (i + 1 >= argc)
			usage("option without a value");
		if (!strcmp(argv[i], "--seed"))
			rng_state = number(argv[i + 1], &end);
		else if (!strcmp(argv[i], "--percent"))
			gen.percent = (unsigned)number(argv[i + 1], &end);
		else if (!strcmp(argv[i], "--ram"))
			parse_ranges(argv[i + 1], &gen.ram);
		else if (!strcmp(argv[i], "--avoid"))
			parse_ranges(argv[i + 1], &gen.avoid);
		else
			usage("unknown option");
	}
	if (gen.ram.n == 0)
		usage("--ram is required");
	if (gen.percent > 100)
		usage("--percent takes 1..100");
	if (i == argc)
		usage("no KIND given");
	gen.bottom = UINT64_MAX;
	for (size_t r = 0; r < gen.ram.n; r++) {
		if (gen.ram.r[r].start < gen.bottom)
			gen.bottom = gen.ram.r[r].start;
		if (gen.ram.r[r].end > gen.top)
			gen.top = gen.ram.r[r].end;
	}
	for (; i < argc; i++)
		kind(argv[i]);

	// One fault per bit: where kinds overlap, the first drawn wins.
	qsort(gen.f, gen.n, sizeof(*gen.f), by_addr_bit);
	for (size_t k = 0; k < gen.n; k++) {
		if (k && gen.f[k].addr == gen.f[k - 1].addr && gen.f[k].bit == gen.f[k - 1].bit)
			continue;
		printf("0x%llx:%u:%u", (unsigned long long)gen.f[k].addr, gen.f[k].bit, gen.f[k].value);
		if (gen.percent && gen.percent < 100)
			printf(":%u", gen.percent);
		printf("\n");
	}
	return 0;
}
