// SPDX-License-Identifier: GPL-2.0-or-later
// Reading what ramsift-check judges: fault sets (ramsift-faultgen's
// ADDR:BIT:VALUE lines), ramsift's serial log (ERROR lines, the usable map,
// badram=, memmap= and fold: lines) and the log of Debian's kernel with
// tests/linux/init.c (/proc/iomem and the e820 map). Plus the small sorted
// sets they fill. Bad input ends the program with status 2.
#ifndef RAMSIFT_TESTS_FAULTS_LOGREAD_H
#define RAMSIFT_TESTS_FAULTS_LOGREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PAGE 4096ull
#define MAX_PAIRS 64

struct vec {
	uint64_t *v;
	size_t n, cap;
};

struct range {
	uint64_t start, end;    // end exclusive
};

struct ranges {
	struct range *r;
	size_t n, cap;
};

struct pair {
	uint64_t addr, mask;
};

// What a ramsift log says.
struct log {
	struct vec errors;              // ERROR addresses, unique
	struct ranges usable;
	struct pair pair[MAX_PAIRS];
	size_t npairs, nbadram;
	struct ranges memmap;
	size_t nmemmap_lines;
	bool have_fold;
	unsigned long long failing, pairs, holes, excluded, sacrificed;
	bool exact;
};

// Print "ramsift-check: WHY" and exit with status 2.
__attribute__((noreturn, format(printf, 1, 2)))
void die(const char *f, ...);

// A sorted set: add with push, then sort_unique before has().
void push(struct vec *v, uint64_t x);
void sort_unique(struct vec *v);
bool has(const struct vec *v, uint64_t x);

// Whether address a is in one of rs's ranges (sorted by start, disjoint).
bool in_ranges(const struct ranges *rs, uint64_t a);

// The faulty words of a fault file, and their pages (sorted, unique).
void read_faults(const char *path, struct vec *words, struct vec *pages);

// What ramsift's log at path says (ranges sorted).
void read_log(const char *path, struct log *l);

// From a Linux boot log: the System RAM ranges of /proc/iomem, the usable
// ranges of the last e820 map the kernel printed (both sorted), whether
// tests/linux/init.c ran, and whether the kernel said it dropped messages
// (its early buffer overflowed: a map of thousands of entries).
void read_linux_log(const char *path, struct ranges *ram, struct ranges *e820, bool *init,
		    bool *dropped);

#endif
