// SPDX-License-Identifier: GPL-2.0-or-later
// build/coverage-sim: the fault-coverage simulator. Runs every test of the
// table in lib/memtest/memtest.c, and the default pass as a sequence, through the
// same lib/ source, over a simulated memory of NWORDS words, once per fault of
// the sampled catalogue (tests/sim/faults.c), one fault at a time, and
// prints a markdown table of the percentage detected per fault class. Then
// asserts what the theory promises (the `theory` table below) and exits
// non-zero naming every broken promise, so a regression in an algorithm
// fails `make check`. Also checks that every test is silent on a fault-free
// memory and reports exactly sweeps * bytes of progress.
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "capacity.h"
#include "faults.h"
#include "memtest/memtest.h"
#include "simmem.h"
#include "string.h"

#define NWORDS 4096u
#define BASE 0x100000ull // aligned to the memory's size: clean address lines
#define SEED 0x72616d73696674ull
#define BITFADE_S 90

// A row of the table: one test, or (test NULL) the default pass.
struct row {
	const struct mt_test *test;
	unsigned detected[FC_COUNT];
	double accesses; // loads + stores per word, fault-free
};

struct run {
	bool detected;
	uint64_t errors, progress;
};

static void on_error(void *cb, uint64_t addr, uint64_t expected,
		     uint64_t actual)
{
	struct run *r = cb;

	(void)addr, (void)expected, (void)actual;
	r->detected = true;
	r->errors++;
}

// Stop at the first chunk after a detection: the rest cannot undo it.
static bool on_progress(void *cb, uint64_t bytes)
{
	struct run *r = cb;

	r->progress += bytes;
	return !r->detected;
}

static bool on_sleep(void *cb, uint32_t seconds)
{
	(void)cb;
	sim_sleep(seconds);
	return true;
}

// Run one row's test(s) over the current simulated memory. Returns what the
// run saw.
static struct run run_row(const struct row *row)
{
	static const struct range range = { BASE, BASE + 8ull * NWORDS };
	struct run r = { 0 };
	struct mt_ctx ctx = {
		.ranges = &range, .nranges = 1, .error = on_error,
		.progress = on_progress, .sleep = on_sleep, .cb_ctx = &r,
		.seed = SEED, .bitfade_s = BITFADE_S,
	};

	for (size_t i = 0; i < mt_ntests && !r.detected; i++) {
		const struct mt_test *t = &mt_tests[i];

		if (row->test ? t == row->test : t->in_default_pass)
			t->run(&ctx, t->param);
	}
	return r;
}

static const char *row_name(const struct row *row)
{
	return row->test ? row->test->name : "**default pass**";
}

// A promise of the theory: test (NULL: the default pass) finds every
// sampled fault of class c.
struct promise {
	const char *test;
	enum fault_class c;
};

static const struct promise theory[] = {
	{ "march-c", FC_SAF },      { "march-c", FC_TF },
	{ "march-c", FC_AF_ALIAS }, { "march-c", FC_AF_NONE },
	{ "march-c", FC_AF_MULTI }, { "march-c", FC_CFIN },
	{ "march-c", FC_CFID },     { "march-c", FC_CFST },
	{ "march-c", FC_CFIN_W },   { "march-c", FC_CFID_W },
	{ "march-c", FC_CFST_W },   { "mi-ones", FC_SAF },
	{ "mi-8bit", FC_SAF },      { "mi-random", FC_SAF },
	{ "mi-walk64", FC_SAF },    { "own-address", FC_SAF },
	{ "own-address", FC_AF_ALIAS }, { "own-address", FC_AF_NONE },
	{ "own-address", FC_AF_MULTI }, { "random", FC_SAF },
	{ "block-move", FC_SAF },   { "address-walk", FC_ALINE },
	{ "bit-fade", FC_RET },
	{ NULL, FC_SAF },      { NULL, FC_TF },       { NULL, FC_AF_ALIAS },
	{ NULL, FC_AF_NONE },  { NULL, FC_AF_MULTI }, { NULL, FC_ALINE },
	{ NULL, FC_CFIN },     { NULL, FC_CFID },     { NULL, FC_CFST },
	{ NULL, FC_CFIN_W },   { NULL, FC_CFID_W },   { NULL, FC_CFST_W },
	{ NULL, FC_RET },
};

static struct sim_fault faults[FC_COUNT][FAULTS_MAX_PER_CLASS];
static size_t nfaults[FC_COUNT];
static struct row rows[MAX_TESTS + 1];	// each test, then the default pass
static size_t nrows;

// Every row must be silent on a fault-free memory and report its sweeps.
static int check_clean(void)
{
	int bad = 0;

	for (size_t i = 0; i < nrows; i++) {
		struct run r;

		sim_reset(BASE, NWORDS, SEED);
		r = run_row(&rows[i]);
		rows[i].accesses = (double)(sim_reads() + sim_writes()) / NWORDS;
		if (r.errors) {
			printf("FAIL: %s reports %llu errors on a fault-free "
			       "memory\n", row_name(&rows[i]),
			       (unsigned long long)r.errors);
			bad = 1;
		}
		if (rows[i].test &&
		    r.progress != rows[i].test->sweeps * 8ull * NWORDS) {
			printf("FAIL: %s reports %llu bytes of progress, "
			       "expected sweeps %u * %u bytes\n",
			       row_name(&rows[i]),
			       (unsigned long long)r.progress,
			       rows[i].test->sweeps, 8 * NWORDS);
			bad = 1;
		}
	}
	return bad;
}

static void print_table(void)
{
	printf("| test | sweeps | accesses/word |");
	for (int c = 0; c < FC_COUNT; c++)
		printf(" %s |", fault_class_label(c));
	printf("\n|---|--:|--:|");
	for (int c = 0; c < FC_COUNT; c++)
		printf("--:|");
	printf("\n");
	for (size_t i = 0; i < nrows; i++) {
		const struct row *row = &rows[i];
		unsigned sweeps = 0;

		for (size_t t = 0; t < mt_ntests; t++)
			if (row->test ? &mt_tests[t] == row->test
				      : mt_tests[t].in_default_pass)
				sweeps += mt_tests[t].sweeps;
		printf("| %s | %u | %.0f |", row_name(row), sweeps,
		       row->accesses);
		for (int c = 0; c < FC_COUNT; c++) {
			double pct = 100.0 * row->detected[c] / nfaults[c];

			printf(pct == 100.0 || pct == 0.0 ? " %.0f |" : " %.1f |",
			       pct);
		}
		printf("\n");
	}
}

// The row of the test called name, or of the default pass (name NULL).
static const struct row *find_row(const char *name)
{
	for (size_t i = 0; i < nrows; i++) {
		const struct mt_test *t = rows[i].test;

		if (name ? t && str_eq(t->name, name) : !t)
			return &rows[i];
	}
	return NULL;
}

static int check_theory(void)
{
	int bad = 0;

	for (size_t p = 0; p < sizeof(theory) / sizeof(theory[0]); p++) {
		const struct promise *pr = &theory[p];
		const struct row *row = find_row(pr->test);

		if (!row) {
			printf("FAIL: no test called %s\n", pr->test);
			bad = 1;
			continue;
		}
		if (nfaults[pr->c] == 0 || row->detected[pr->c] != nfaults[pr->c]) {
			printf("FAIL: %s detects %u of %zu %s faults, theory "
			       "says all\n", row_name(row),
			       row->detected[pr->c], nfaults[pr->c],
			       fault_class_label(pr->c));
			bad = 1;
		}
	}
	return bad;
}

int main(void)
{
	size_t total = 0;

	if (mt_ntests + 1 > sizeof(rows) / sizeof(rows[0]))
		abort();
	for (size_t t = 0; t < mt_ntests; t++)
		rows[nrows++].test = &mt_tests[t];
	rows[nrows++].test = NULL;
	for (int c = 0; c < FC_COUNT; c++) {
		nfaults[c] = faults_sample(c, NWORDS, SEED, faults[c],
					   FAULTS_MAX_PER_CLASS);
		total += nfaults[c];
	}
	int bad = check_clean();

	for (int c = 0; c < FC_COUNT; c++) {
		for (size_t f = 0; f < nfaults[c]; f++) {
			for (size_t i = 0; i < nrows; i++) {
				// Fresh, seeded contents for every run.
				sim_reset(BASE, NWORDS, SEED + 1000 * c + f);
				sim_inject(&faults[c][f]);
				rows[i].detected[c] += run_row(&rows[i]).detected;
			}
		}
	}
	printf("Fault coverage: %zu faults, one at a time, in %u words "
	       "(%u KiB) at 0x%llx; bit-fade waits %u s; seed 0x%llx.\n\n",
	       total, NWORDS, NWORDS * 8 / 1024, BASE, BITFADE_S,
	       (unsigned long long)SEED);
	print_table();
	printf("\nFaults per class:");
	for (int c = 0; c < FC_COUNT; c++)
		printf(" %s %zu%s", fault_class_label(c), nfaults[c],
		       c + 1 < FC_COUNT ? "," : ".\n");
	bad |= check_theory();
	if (bad)
		return 1;
	printf("coverage-sim: every promise of the theory holds\n");
	return 0;
}
