// SPDX-License-Identifier: GPL-2.0-or-later
// build/coverage-sim: the fault-coverage simulator, so that a regression in
// an algorithm fails `make check`. Runs every test of lib/memtest/memtest.c's
// table, and the default pass as a sequence, through the same lib/ source
// over a simulated memory, once per fault of the sampled catalogue
// (tests/sim/faults.c), prints the percentage detected per fault class, and
// fails naming every broken promise of the `theory` table, every error on a
// fault-free memory and every wrong amount of progress. Then the default
// pass over NCPUS CPUs' shares in three orders (tests/sim/par.c) must keep
// 100 % in every class, and the exhaustive two-word model of march-c over
// shares (tests/sim/pairmodel.c) must find every case. `--each` adds each
// parallel test's worst order (docs/memory-tests.md, "Testing in parallel").
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "capacity.h"
#include "faults.h"
#include "memtest/algos.h"
#include "memtest/memtest.h"
#include "pairmodel.h"
#include "par.h"
#include "schedule.h"
#include "simmem.h"
#include "memstr.h"

#define NWORDS 4096u
#define BASE 0x100000ull // aligned to the memory's size: clean address lines
#define SEED 0x72616d73696674ull
#define BITFADE_S 90

// The parallel schedule: NCPUS CPUs, shares cut at multiples of BLOCK bytes
// (the image cuts GiBs at 2 MiB; here 32 KiB at 512 bytes, 16 blocks a share).
#define NCPUS 4
#define BLOCK 512

// A row of the table: one test, or (test NULL) the default pass, or (peer)
// memtest86+'s pass: its tests 0-10 as ramsift implements them, which are
// all of ramsift's but march-c.
struct row {
	const struct mt_test *test;
	bool peer;
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

static bool row_has(const struct row *row, const struct mt_test *t)
{
	if (row->peer)
		return !str_eq(t->name, "march-c");
	return row->test ? t == row->test : t->in_default_pass;
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

		if (row_has(row, t))
			t->run(&ctx, t->param);
	}
	return r;
}

static const char *row_name(const struct row *row)
{
	return row->peer ? "**memtest86+'s pass**" : row->test ? row->test->name : "**default pass**";
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
static struct row rows[MAX_TESTS + 2];	// each test, the default pass, memtest86+'s
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
			if (row_has(row, &mt_tests[t]))
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

		if (name ? t && str_eq(t->name, name) : !t && !rows[i].peer)
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

// A row of the parallel table: the default pass (test NULL) or one test, by
// one CPU, or by NCPUS CPUs in one order or (worst) detected in all three
// orders; plain: march-c not told the shares, so it orders nothing across
// them. Rows not shown only feed the worst case after them.
struct prow {
	const char *name;
	const struct mt_test *test;
	bool parallel, plain, worst, shown;
	enum par_order order;
	unsigned detected[FC_COUNT];
	double accesses;
	unsigned sweeps;
};

static const struct prow default_rows[] = {
	{ "default pass, one CPU", NULL, false, false, false, true, 0, { 0 }, 0, 0 },
	{ "default pass, 4 CPUs, ascending", NULL, true, false, false, true,
	  PAR_ASCENDING, { 0 }, 0, 0 },
	{ "default pass, 4 CPUs, descending", NULL, true, false, false, true,
	  PAR_DESCENDING, { 0 }, 0, 0 },
	{ "default pass, 4 CPUs, interleaved", NULL, true, false, false, true,
	  PAR_INTERLEAVED, { 0 }, 0, 0 },
	{ "**default pass, 4 CPUs, worst case**", NULL, true, false, true, true, 0,
	  { 0 }, 0, 0 },
	{ "without march-c's ordering, ascending", NULL, true, true, false, true,
	  PAR_ASCENDING, { 0 }, 0, 0 },
	{ "without march-c's ordering, descending", NULL, true, true, false, true,
	  PAR_DESCENDING, { 0 }, 0, 0 },
	{ "without march-c's ordering, interleaved", NULL, true, true, false, true,
	  PAR_INTERLEAVED, { 0 }, 0, 0 },
	{ "without march-c's ordering, worst case", NULL, true, true, true, true, 0,
	  { 0 }, 0, 0 },
};
#define NDEFAULT_ROWS (sizeof(default_rows) / sizeof(default_rows[0]))

// The default pass's rows, then (coverage-sim --each) five rows a parallel
// test: by one CPU, in the three orders (not shown), and its worst case.
static struct prow prows[NDEFAULT_ROWS + 5 * MAX_TESTS];
static size_t nprows;

static struct sim_fault pfaults[FC_COUNT][2 * FAULTS_MAX_PER_CLASS];
static size_t npfaults[FC_COUNT], nacross[FC_COUNT], nadded[FC_COUNT];

// Run row's test, or the default pass, over the current simulated memory:
// alone (row not parallel), or its parallel tests by NCPUS CPUs in order o. With check,
// fails (returns false) when a CPU reports other than its sweeps over its
// share or a run does not end.
static struct run run_pass(const struct prow *row, enum par_order o,
			   bool check, bool *ok)
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
		struct par_setup set = { &ctx, NCPUS, BLOCK, 0, o,
					 PAR_FLUSH_EACH, row->plain };
		struct par_result res;

		if (row->test ? t != row->test : !t->in_default_pass)
			continue;
		if (!row->parallel || !t->parallel) {
			t->run(&ctx, t->param);
			continue;
		}
		bool ended = par_run(t, &set, &res);

		for (unsigned k = 0; check && k < NCPUS; k++) {
			uint32_t sweeps = row->plain || res.nrunning < 2
						  ? t->sweeps : t->shared_sweeps;

			if (!ended || res.progress[k] != sweeps * res.bytes[k]) {
				printf("FAIL: %s, %s: CPU %u reports %llu bytes "
				       "of progress over %llu, ended %d\n",
				       row->name, t->name, k,
				       (unsigned long long)res.progress[k],
				       (unsigned long long)res.bytes[k], ended);
				*ok = false;
			}
		}
	}
	return r;
}

// Whether row (not a worst case) finds f, from seeded contents.
static bool finds(const struct prow *row, const struct sim_fault *f,
		  uint64_t seed)
{
	bool ok = true;

	sim_reset(BASE, NWORDS, seed);
	sim_inject(f);
	return run_pass(row, row->order, false, &ok).detected;
}

// Whether f is one of two words in different shares.
static bool across(enum fault_class c, const struct sim_fault *f)
{
	size_t share = NWORDS / NCPUS;

	return (c == FC_AF_ALIAS || c == FC_AF_MULTI || c == FC_CFIN ||
		c == FC_CFID || c == FC_CFST) &&
	       f->aword / share != f->vword / share;
}

// The parallel table: every row silent on fault-free memory with exact
// progress, then the sample; with each, a worst case for every parallel
// test too. Returns non-zero on a broken promise.
static int parallel_coverage(bool each)
{
	static char names[MAX_TESTS][2][64];
	int bad = 0;
	size_t total = 0, nacross_all = 0, added = 0;

	for (size_t i = 0; i < NDEFAULT_ROWS; i++)
		prows[nprows++] = default_rows[i];
	for (size_t t = 0; each && t < mt_ntests; t++) {
		const struct mt_test *test = &mt_tests[t];

		if (!test->parallel)
			continue;
		snprintf(names[t][0], sizeof(names[t][0]), "%s, one CPU",
			 test->name);
		snprintf(names[t][1], sizeof(names[t][1]), "%s, 4 CPUs, worst case",
			 test->name);
		prows[nprows++] = (struct prow){ .name = names[t][0], .test = test,
						 .shown = true };
		for (int o = 0; o <= PAR_NORDERS; o++)
			prows[nprows++] = (struct prow){
				.name = names[t][1], .test = test, .parallel = true,
				.worst = o == PAR_NORDERS,
				.shown = o == PAR_NORDERS, .order = o };
	}

	for (int c = 0; c < FC_COUNT; c++) {
		size_t n = faults_sample(c, NWORDS, SEED, pfaults[c],
					 FAULTS_MAX_PER_CLASS);

		nadded[c] = faults_sample_shares(c, NWORDS, NCPUS, SEED,
						 pfaults[c] + n,
						 FAULTS_MAX_PER_CLASS);
		npfaults[c] = n + nadded[c];
		for (size_t f = 0; f < npfaults[c]; f++)
			nacross[c] += across(c, &pfaults[c][f]);
		total += npfaults[c];
		nacross_all += nacross[c];
		added += nadded[c];
	}
	for (size_t i = 0; i < nprows; i++) {
		struct prow *row = &prows[i];
		bool ok = true;

		for (size_t t = 0; t < mt_ntests; t++)
			if (row->test ? &mt_tests[t] == row->test
				      : mt_tests[t].in_default_pass)
				row->sweeps += row->parallel && !row->plain &&
							       mt_tests[t].parallel
						       ? mt_tests[t].shared_sweeps
						       : mt_tests[t].sweeps;
		if (row->worst)
			continue;
		sim_reset(BASE, NWORDS, SEED);
		struct run r = run_pass(row, row->order, true, &ok);

		row->accesses = (double)(sim_reads() + sim_writes()) / NWORDS;
		if (r.errors || !ok) {
			printf("FAIL: %s reports %llu errors on a fault-free "
			       "memory\n", row->name, (unsigned long long)r.errors);
			bad = 1;
		}
	}
	// A worst-case row follows the rows of its orders: it finds what
	// they all find.
	for (int c = 0; c < FC_COUNT; c++) {
		for (size_t f = 0; f < npfaults[c]; f++) {
			bool all = true;

			for (size_t i = 0; i < nprows; i++) {
				bool found = prows[i].worst ? all
					     : finds(&prows[i], &pfaults[c][f],
						     SEED + 1000 * c + f);

				prows[i].detected[c] += found;
				all = prows[i].worst || !prows[i].parallel
					      ? true : all && found;
			}
		}
	}
	for (size_t i = 0; i < nprows; i++)
		if (prows[i].worst)
			prows[i].accesses = prows[i - 1].accesses;

	printf("\nIn parallel: the default pass over %u shares (cut at "
	       "multiples of %u bytes), address-walk by one CPU; %zu faults: "
	       "the sample above and %zu placed across shares; %zu of them "
	       "two-word faults whose cells lie in different shares.\n\n",
	       NCPUS, BLOCK, total, added, nacross_all);
	printf("| run | sweeps | accesses/word |");
	for (int c = 0; c < FC_COUNT; c++)
		printf(" %s |", fault_class_label(c));
	printf("\n|---|--:|--:|");
	for (int c = 0; c < FC_COUNT; c++)
		printf("--:|");
	printf("\n");
	for (size_t i = 0; i < nprows; i++) {
		if (!prows[i].shown)
			continue;
		printf("| %s | %u | %.0f |", prows[i].name, prows[i].sweeps,
		       prows[i].accesses);
		for (int c = 0; c < FC_COUNT; c++) {
			double pct = 100.0 * prows[i].detected[c] / npfaults[c];

			printf(pct == 100.0 || pct == 0.0 ? " %.0f |" : " %.1f |",
			       pct);
		}
		printf("\n");
	}
	printf("\nFaults per class (across shares):");
	for (int c = 0; c < FC_COUNT; c++)
		printf(" %s %zu (%zu)%s", fault_class_label(c), npfaults[c],
		       nacross[c], c + 1 < FC_COUNT ? "," : ".\n");

	// The promise: in parallel as alone, the default pass finds every
	// sampled fault, in every order.
	for (size_t i = 0; i < NDEFAULT_ROWS; i++)
		for (int c = 0; c < FC_COUNT && !prows[i].plain; c++)
			if (prows[i].detected[c] != npfaults[c]) {
				printf("FAIL: %s detects %u of %zu %s faults, "
				       "theory says all\n", prows[i].name,
				       prows[i].detected[c], npfaults[c],
				       fault_class_label(c));
				bad = 1;
			}
	for (int c = FC_AF_ALIAS; c <= FC_CFST; c++)
		if (c != FC_AF_NONE && c != FC_ALINE && nacross[c] == 0) {
			printf("FAIL: no %s fault lies across shares\n",
			       fault_class_label(c));
			bad = 1;
		}
	// And the sample is one that needs the ordering: without it, some
	// coupling between shares goes unseen in some order.
	if (prows[NDEFAULT_ROWS - 1].detected[FC_CFID] == npfaults[FC_CFID]) {
		printf("FAIL: without march-c's ordering the default pass still "
		       "finds every CFid fault: the sample no longer shows why "
		       "the ordering is there\n");
		bad = 1;
	}
	return bad;
}

// The exhaustive two-word model of march-c over shares. Returns non-zero
// when march-c's schedule leaves a case to chance, or a cheaper one would
// not: one core, or any order of the elements without a sweep more.
static int pair_model(void)
{
	static const char *const names[PAIR_NSCHEDULES] = {
		[PAIR_PLAIN] = "no order across shares (24 sweeps)",
		[PAIR_ONE_CORE] = "one core in family A's steps (24 sweeps)",
		[PAIR_SOLID_CORES] = "a second core over background 0 in family "
				     "C's steps (28 sweeps, until 2026-12)",
		[PAIR_MARCH] = "**march-c over shares: the core in family A's "
			       "steps, background 0x5555..'s march a core in "
			       "family C's (26 sweeps)**",
	};
	const struct mt_test *march = mt_find("march-c", 7);
	struct pair_result r[PAIR_NSCHEDULES];
	uint64_t orders;
	int bad = 0;

	printf("\nEvery coupling between two shares, exhaustively "
	       "(tests/sim/pairmodel.c): 64 x 64 bit pairs x 10 couplings x 8 "
	       "relations to march-c's step orders, each against every outcome "
	       "of the CPUs' races.\n\n");
	printf("| march-c's schedule | cases | hidden by some race | CFid | CFin "
	       "| CFst | of them in one slice |\n|---|--:|--:|--:|--:|--:|--:|\n");
	for (int s = 0; s < PAIR_NSCHEDULES; s++) {
		pair_check(march->param, s, &r[s]);
		printf("| %s | %llu | %llu | %llu | %llu | %llu | %llu |\n",
		       names[s], (unsigned long long)r[s].cases,
		       (unsigned long long)r[s].missed,
		       (unsigned long long)r[s].missed_id,
		       (unsigned long long)r[s].missed_in,
		       (unsigned long long)r[s].missed_st,
		       (unsigned long long)r[s].missed_same_slice);
	}
	if (r[PAIR_MARCH].missed || r[PAIR_SOLID_CORES].missed) {
		printf("FAIL: a schedule of march-c over shares leaves %llu "
		       "couplings between shares to the CPUs' timing\n",
		       (unsigned long long)(r[PAIR_MARCH].missed +
					    r[PAIR_SOLID_CORES].missed));
		bad = 1;
	}
	if (!r[PAIR_ONE_CORE].missed) {
		printf("FAIL: one core would do: march-c's second core is not "
		       "needed\n");
		bad = 1;
	}
	bool fail = pair_free_orders_fail(march->param, &orders);

	printf("\nWithout a sweep more: %llu orders of the backgrounds' "
	       "elements (none, family C's steps up or down), %s.\n",
	       (unsigned long long)orders,
	       fail ? "each misses some case" : "one finds every case");
	if (!fail) {
		printf("FAIL: an order of march-c's elements finds every case "
		       "without the 2 sweeps of the second core\n");
		bad = 1;
	}
	return bad;
}

int main(int argc, char **argv)
{
	size_t total = 0;
	bool each = argc == 2 && str_eq(argv[1], "--each");

	if (argc > 1 && !each) {
		fprintf(stderr, "usage: coverage-sim [--each]\n");
		return 2;
	}

	if (mt_ntests + 2 > sizeof(rows) / sizeof(rows[0]))
		abort();
	for (size_t t = 0; t < mt_ntests; t++)
		rows[nrows++].test = &mt_tests[t];
	rows[nrows++].test = NULL;
	rows[nrows++].peer = true;
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
	bad |= schedule_coverage(BASE, NWORDS, SEED, BITFADE_S, faults, nfaults);
	bad |= parallel_coverage(each);
	bad |= pair_model();
	if (bad)
		return 1;
	printf("\ncoverage-sim: every promise of the theory holds\n");
	return 0;
}
