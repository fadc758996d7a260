// SPDX-License-Identifier: GPL-2.0-or-later
// build/bench/badram-score: score a GRUB badram line against the faults that
// were injected, for instrument 2 of bench/ (bench/faults.sh). A page is
// excluded when its address bits 12..63 match a pair's under the mask (as
// GRUB applies it, the OS losing the whole page); counted page by page over
// the usable RAM, an independent check of the fold's own arithmetic. Prints
// "pairs=N fault_pages=N covered=N excluded=N wasted=N words_missed=N"
// (covered: faulty pages excluded; wasted: excluded pages without a fault;
// words_missed: faulty words no pair matches word-exactly, which shows what
// a tester printing exact pairs found), or "pairs=none".
//	badram-score --ram START-LAST... --faults FILE PAIRS
// START-LAST inclusive as ramsift's "usable" lines; FILE one ADDR[:BIT:VALUE]
// a line; PAIRS the text after "badram=".
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RAM 64
#define MAX_PAIRS 256
#define MAX_FAULTS 65536
#define PAGE_MASK (~(uint64_t)0xfff)

struct pair {
	uint64_t addr, mask;
};

static struct pair pairs[MAX_PAIRS];
static size_t npairs;
static uint64_t ram_lo[MAX_RAM], ram_hi[MAX_RAM]; // inclusive
static size_t nram;
static uint64_t faults[MAX_FAULTS];
static size_t nfaults;

static void die(const char *why, const char *what)
{
	fprintf(stderr, "badram-score: %s: %s\n", why, what);
	exit(2);
}

static uint64_t number(const char *s, char **end)
{
	return strtoull(s, end, 0);
}

static bool page_excluded(uint64_t page_addr)
{
	for (size_t i = 0; i < npairs; i++) {
		uint64_t m = pairs[i].mask & PAGE_MASK;

		if ((page_addr & m) == (pairs[i].addr & m))
			return true;
	}
	return false;
}

static bool word_matched(uint64_t a)
{
	for (size_t i = 0; i < npairs; i++)
		if ((a & pairs[i].mask) == (pairs[i].addr & pairs[i].mask))
			return true;
	return false;
}

static bool in_ram(uint64_t a)
{
	for (size_t i = 0; i < nram; i++)
		if (a >= ram_lo[i] && a <= ram_hi[i])
			return true;
	return false;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void read_faults(const char *path)
{
	FILE *f = fopen(path, "r");
	char text[256];

	if (!f)
		die("cannot open", path);
	while (fgets(text, sizeof(text), f)) {
		char *end;
		uint64_t a = number(text, &end);

		if (end == text)
			continue; // a blank or comment line
		if (nfaults == MAX_FAULTS)
			die("too many faults in", path);
		faults[nfaults++] = a;
	}
	fclose(f);
}

static void parse_pairs(const char *s)
{
	const char *p = s;

	while (*p) {
		char *end;

		if (npairs == MAX_PAIRS)
			die("too many pairs", s);
		pairs[npairs].addr = number(p, &end);
		if (end == p || *end != ',')
			die("a pair is 0xADDR,0xMASK", s);
		p = end + 1;
		pairs[npairs].mask = number(p, &end);
		if (end == p || (*end && *end != ','))
			die("a pair is 0xADDR,0xMASK", s);
		npairs++;
		p = *end ? end + 1 : end;
	}
}

int main(int argc, char **argv)
{
	const char *line = NULL, *fault_file = NULL;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--ram") && i + 1 < argc) {
			char *end;

			if (nram == MAX_RAM)
				die("too many ranges", argv[i + 1]);
			ram_lo[nram] = number(argv[++i], &end);
			if (*end != '-')
				die("a range is START-LAST", argv[i]);
			ram_hi[nram++] = number(end + 1, &end);
		} else if (!strcmp(argv[i], "--faults") && i + 1 < argc) {
			fault_file = argv[++i];
		} else if (!line) {
			line = argv[i];
		} else {
			die("unexpected argument", argv[i]);
		}
	}
	if (!line || !fault_file || !nram) {
		fprintf(stderr, "usage: badram-score --ram START-LAST... --faults FILE PAIRS\n");
		return 2;
	}
	if (!*line || !strcmp(line, "-")) {
		printf("pairs=none\n");
		return 0;
	}
	parse_pairs(line);
	read_faults(fault_file);

	uint64_t fault_pages = 0, covered = 0, words_missed = 0, excluded = 0;

	for (size_t i = 0; i < nfaults; i++)
		words_missed += !word_matched(faults[i]);
	qsort(faults, nfaults, sizeof(faults[0]), cmp_u64);
	for (size_t i = 0; i < nfaults; i++) {
		uint64_t page = faults[i] & PAGE_MASK;

		if ((i && page == (faults[i - 1] & PAGE_MASK)) || !in_ram(faults[i]))
			continue;
		fault_pages++;
		covered += page_excluded(page);
	}
	for (size_t r = 0; r < nram; r++)
		for (uint64_t p = ram_lo[r] & PAGE_MASK; p <= ram_hi[r]; p += 4096) {
			excluded += page_excluded(p);
			if (p + 4096 < p)
				break; // the last page of the address space
		}
	printf("pairs=%zu fault_pages=%llu covered=%llu excluded=%llu wasted=%llu "
	       "words_missed=%llu\n", npairs, (unsigned long long)fault_pages,
	       (unsigned long long)covered, (unsigned long long)excluded,
	       (unsigned long long)(excluded - covered), (unsigned long long)words_missed);
	return 0;
}
