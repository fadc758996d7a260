// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for the memory tests run by several CPUs at once (mt_ctx.sync),
// over the parallel schedule of tests/sim/par.c: the table's parallel
// fields; the split into shares;
// every parallel test silent on fault-free memory over shares of every shape
// (holes, odd sizes, shares smaller than modulo-20's stride as in memtest86+'s
// issues #216 and #379, empty shares), in each order, every CPU making the
// same sync calls and reporting exactly its sweeps over its share, nothing
// outside the ranges touched; the union of the shares tested exactly as one
// CPU tests the ranges (the same accesses to every word, by per-word
// digests), or, for modulo-20 and block-move, exactly as one CPU tests each
// share on its own; a stuck bit in any share reported at exactly its
// address; an abort on one CPU stopping every CPU; a coupling between two
// shares that march-c without its ordering misses and with it finds in
// every order; and one CPU's flush not being enough.
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "memtest/memtest.h"
#include "par.h"
#include "range.h"
#include "simmem.h"
#include "memstr.h"

#include "memtest_rec.h"
#include "word_ranges.h"

#define BASE 0x200000ull
#define N 4096u

static const char *const order_name[PAR_NORDERS] = {
	"ascending", "descending", "interleaved",
};

static struct mt_ctx make_ctx(const struct range *ranges, size_t n,
			      struct rec *r)
{
	return (struct mt_ctx){
		.ranges = ranges, .nranges = n, .error = on_error,
		.progress = on_progress, .sleep = on_sleep, .cb_ctx = r,
		.seed = 0x5eed, .bitfade_s = 3,
	};
}

// The sweeps a CPU of a run makes over its share.
static uint32_t sweeps_of(const struct mt_test *t, const struct par_result *res)
{
	return res->nrunning >= 2 ? t->shared_sweeps : t->sweeps;
}

// The table's parallel fields: every test but address-walk may run over
// shares; over shares march-c makes its second background's march a core (2
// sweeps more), the others their sweeps.
static void test_table(void **state)
{
	(void)state;
	for (size_t t = 0; t < mt_ntests; t++) {
		const struct mt_test *test = &mt_tests[t];
		bool walk = str_eq(test->name, "address-walk");
		uint32_t want = str_eq(test->name, "march-c") ? test->sweeps + 2
			      : walk ? 0 : test->sweeps;

		if (test->parallel == walk)
			fail_msg("%s: parallel %d", test->name, test->parallel);
		if (test->shared_sweeps != want)
			fail_msg("%s: shared_sweeps %u, want %u", test->name,
				 test->shared_sweeps, want);
	}
}

static void test_split(void **state)
{
	static const struct range r[] = {
		{ 0x1000, 0x3000 }, { 0x5000, 0x5008 }, { 0x8000, 0xc000 },
	};
	static const struct {
		unsigned parts;
		uint64_t block;
		size_t nout;
		struct range out[6];
		size_t count[4];
	} cases[] = {
		// 0x6008 bytes: cuts near 0x3004 bytes in, at 0x9004 -> 0x9000
		{ 2, 0x1000, 4,
		  { { 0x1000, 0x3000 }, { 0x5000, 0x5008 }, { 0x8000, 0x9000 },
		    { 0x9000, 0xc000 } },
		  { 3, 1 } },
		// three parts, blocks of 0x4000: 0x2002 bytes in is 0x5002,
		// cut at 0x4000; 0x4005 bytes in is 0x9ffd, cut at 0x8000
		{ 3, 0x4000, 3,
		  { { 0x1000, 0x3000 }, { 0x5000, 0x5008 }, { 0x8000, 0xc000 } },
		  { 1, 1, 1 } },
		// four parts, blocks of 0x8000: the cuts round to 0 and 0x8000
		{ 4, 0x8000, 3,
		  { { 0x1000, 0x3000 }, { 0x5000, 0x5008 }, { 0x8000, 0xc000 } },
		  { 0, 2, 0, 1 } },
		// one part: everything
		{ 1, 8, 3,
		  { { 0x1000, 0x3000 }, { 0x5000, 0x5008 }, { 0x8000, 0xc000 } },
		  { 3 } },
	};

	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct range out[8];
		size_t first[4], count[4] = { 0 };
		size_t n = par_split(r, 3, cases[c].parts, cases[c].block, out, 8,
				     first, count);

		if (n != cases[c].nout)
			fail_msg("split %zu: %zu ranges, want %zu", c, n,
				 cases[c].nout);
		for (size_t i = 0; i < n; i++)
			if (out[i].start != cases[c].out[i].start ||
			    out[i].end != cases[c].out[i].end)
				fail_msg("split %zu: range %zu is [0x%llx, 0x%llx), "
					 "want [0x%llx, 0x%llx)", c, i,
					 (unsigned long long)out[i].start,
					 (unsigned long long)out[i].end,
					 (unsigned long long)cases[c].out[i].start,
					 (unsigned long long)cases[c].out[i].end);
		for (unsigned j = 0; j < cases[c].parts; j++)
			if (count[j] != cases[c].count[j])
				fail_msg("split %zu: share %u has %zu ranges, "
					 "want %zu", c, j, count[j],
					 cases[c].count[j]);
	}
	// Too little room for the cut ranges: nothing.
	struct range small[2];
	size_t first[2], count[2];
	assert_int_equal(par_split(r, 3, 2, 0x1000, small, 2, first, count), 0);
}

// Memory layouts: up to three ranges of word indices [from, to) of a memory
// of N words at BASE, split into shares cut at multiples of block words.
static const struct layout {
	const char *name;
	size_t nranges;
	struct word_range r[3];
	uint64_t block;
	unsigned ncpus[3];
} layouts[] = {
	{ "one range", 1, { { 0, N } }, 64, { 2, 3, 4 } },
	{ "holes, odd sizes", 3, { { 3, 1000 }, { 1001, 1002 }, { 1500, N - 3 } },
	  64, { 3, 7, 7 } },
	// Each share 19 words, under modulo-20's stride (memtest86+'s #216:
	// its 28 cores made shares too small for the stride).
	{ "shares under the stride", 1, { { 100, 100 + 16 * 19 } }, 1,
	  { 16, 16, 16 } },
	// 200 words in blocks of 64: most of 7 CPUs get nothing.
	{ "empty shares", 1, { { 0, 200 } }, 64, { 7, 7, 7 } },
};

// Every parallel test, every layout and order: silent, same syncs on every
// CPU, exact progress, nothing outside touched.
static void test_clean(void **state)
{
	static uint64_t before[N];

	(void)state;
	for (size_t li = 0; li < sizeof(layouts) / sizeof(layouts[0]); li++) {
		const struct layout *l = &layouts[li];
		struct range ranges[3];
		size_t nr = ranges_of(BASE, l->r, l->nranges, ranges);

		for (size_t t = 0; t < mt_ntests; t++) {
			const struct mt_test *test = &mt_tests[t];

			if (!test->parallel)
				continue;
			for (int o = 0; o < PAR_NORDERS; o++) {
				unsigned n = l->ncpus[o];
				struct rec r = { 0 };
				struct mt_ctx base = make_ctx(ranges, nr, &r);
				struct par_setup set = { &base, n, 8 * l->block, 0,
							 o, PAR_FLUSH_EACH, false };
				struct par_result res;
				uint64_t total = 0;
				unsigned syncs = 0;

				sim_reset(BASE, N, 7 + t);
				for (size_t w = 0; w < N; w++)
					before[w] = sim_cell(w);
				if (!par_run(test, &set, &res))
					fail_msg("%s, %s, %u CPUs %s: returned false",
						 l->name, test->name, n, order_name[o]);
				if (r.nerrors)
					fail_msg("%s, %s, %u CPUs %s: %llu errors, "
						 "first at 0x%llx", l->name,
						 test->name, n, order_name[o],
						 (unsigned long long)r.nerrors,
						 (unsigned long long)r.err[0].addr);
				for (unsigned k = 0; k < n; k++) {
					total += res.bytes[k];
					if (!res.ran[k])
						continue;
					if (!syncs)
						syncs = res.syncs[k];
					if (res.syncs[k] != syncs || !syncs)
						fail_msg("%s, %s, %u CPUs %s: CPU %u "
							 "synced %u times, another %u",
							 l->name, test->name, n,
							 order_name[o], k, res.syncs[k],
							 syncs);
					if (res.progress[k] !=
					    sweeps_of(test, &res) * res.bytes[k])
						fail_msg("%s, %s, %u CPUs %s: CPU %u "
							 "progress %llu, want %u * %llu",
							 l->name, test->name, n,
							 order_name[o], k,
							 (unsigned long long)res.progress[k],
							 sweeps_of(test, &res),
							 (unsigned long long)res.bytes[k]);
				}
				if (total != range_total(ranges, nr))
					fail_msg("%s: the shares hold %llu bytes",
						 l->name, (unsigned long long)total);
				if (r.slept != (str_eq(test->name, "bit-fade") ? 6 : 0))
					fail_msg("%s, %s, %u CPUs %s: slept %llu s",
						 l->name, test->name, n, order_name[o],
						 (unsigned long long)r.slept);
				for (size_t w = 0; w < N; w++)
					if (!in_ranges(l->r, l->nranges, w) && sim_cell(w) != before[w])
						fail_msg("%s, %s, %u CPUs %s: word %zu "
							 "outside the ranges changed",
							 l->name, test->name, n,
							 order_name[o], w);
			}
		}
	}
}

// Per-word access digests after a run of test over layout l: alone
// (ncpus 0) over all the ranges, alone over each share in turn (ncpus < 0),
// or by ncpus CPUs in order o.
static void digests(const struct mt_test *test, const struct layout *l,
		    int ncpus, enum par_order o, uint64_t *out)
{
	struct range ranges[3];
	size_t nr = ranges_of(BASE, l->r, l->nranges, ranges);
	struct rec r = { 0 };
	struct mt_ctx base = make_ctx(ranges, nr, &r);

	sim_reset(BASE, N, 11);
	sim_set_history(true);
	if (ncpus > 0) {
		struct par_setup set = { &base, (unsigned)ncpus, 8 * l->block, 0,
					 o, PAR_FLUSH_EACH, false };
		struct par_result res;

		if (!par_run(test, &set, &res))
			fail_msg("%s, %s: returned false", l->name, test->name);
	} else if (ncpus == 0) {
		test->run(&base, test->param);
	} else {
		struct range share[PAR_MAX_RANGES];
		size_t first[PAR_MAX_CPUS], count[PAR_MAX_CPUS];

		par_split(ranges, nr, (unsigned)-ncpus, 8 * l->block, share,
			  PAR_MAX_RANGES, first, count);
		for (int j = 0; j < -ncpus; j++) {
			struct mt_ctx one = make_ctx(share + first[j], count[j], &r);

			test->run(&one, test->param);
		}
	}
	for (size_t w = 0; w < N; w++)
		out[w] = sim_history(w);
	if (r.nerrors)
		fail_msg("%s, %s: %llu errors", l->name, test->name,
			 (unsigned long long)r.nerrors);
}

// Ranges that start where modulo-20's sets over shares (by address) and
// one CPU's (by index in the range) coincide: BASE / 8 is 4 mod 20.
static const struct layout on_the_stride = {
	"ranges on modulo-20's stride", 2, { { 16, 1016 }, { 1036, N - 20 } },
	64, { 3, 3, 3 },
};

// The union of the shares is tested as one CPU tests the ranges: every word
// gets the same accesses, in the same order. march-c over shares makes a
// background's march a core: every word still gets the same accesses as
// every other.
// block-move works in the halves of each range: over shares each share is
// tested as one CPU tests it as a range of its own. modulo-20's sets over
// shares go by address: its accesses do not depend on the number of CPUs,
// and are one CPU's where the ranges start on the stride.
static void test_union(void **state)
{
	static uint64_t par_digest[N], one_digest[N];
	const struct layout *l = &layouts[1];

	(void)state;
	for (size_t t = 0; t < mt_ntests; t++) {
		const struct mt_test *test = &mt_tests[t];
		bool modulo = str_eq(test->name, "modulo-20");
		bool blockmove = str_eq(test->name, "block-move");
		bool march = str_eq(test->name, "march-c");

		if (!test->parallel)
			continue;
		for (int o = 0; o < PAR_NORDERS; o++) {
			const int n = 3;
			size_t first = SIZE_MAX;

			digests(test, l, n, o, par_digest);
			if (modulo)
				digests(test, l, o == PAR_ASCENDING ? 2 : 7, o,
					one_digest);
			else if (!march)
				digests(test, l, blockmove ? -n : 0, o, one_digest);
			for (size_t w = 0; w < N; w++) {
				if (!in_ranges(l->r, l->nranges, w))
					continue;
				if (first == SIZE_MAX)
					first = w;
				if (march ? par_digest[w] != par_digest[first]
					  : par_digest[w] != one_digest[w])
					fail_msg("%s, %s: word %zu's accesses differ "
						 "from %s", test->name, order_name[o],
						 w, march ? "the first word's"
						    : blockmove ? "one CPU's over its share"
						    : modulo ? "those with other shares"
							     : "one CPU's");
			}
		}
	}
	// modulo-20 where the ranges start on the stride: one CPU's accesses.
	const struct mt_test *modulo = mt_find("modulo-20", 9);

	digests(modulo, &on_the_stride, 3, PAR_INTERLEAVED, par_digest);
	digests(modulo, &on_the_stride, 0, PAR_INTERLEAVED, one_digest);
	for (size_t w = 0; w < N; w++)
		if (par_digest[w] != one_digest[w])
			fail_msg("modulo-20 on the stride: word %zu's accesses "
				 "differ from one CPU's", w);
}

// A stuck bit in any share: every parallel test reports exactly its address.
static void test_stuck_bit(void **state)
{
	static const struct range range = { BASE, BASE + 8ull * N };
	static const struct {
		size_t word;
		unsigned bit;
		bool value;
	} cases[] = {
		{ 0, 0, 1 }, { N / 4 - 1, 63, 0 }, { N / 4, 5, 1 },
		{ N / 2 + 17, 40, 0 }, { N - 1, 31, 1 },
	};

	(void)state;
	for (size_t t = 0; t < mt_ntests; t++) {
		const struct mt_test *test = &mt_tests[t];

		// hammer checks only the rows it hammers, through the machine's
		// callbacks, none here: test_dram_hammer*.c test it.
		if (!test->parallel || str_eq(test->name, "hammer"))
			continue;
		for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
			for (int o = 0; o < PAR_NORDERS; o++) {
				struct sim_fault f = { .kind = SIM_SAF,
						       .vword = cases[c].word,
						       .vbit = cases[c].bit,
						       .value = cases[c].value };
				uint64_t want = BASE + 8ull * f.vword;
				struct rec r = { 0 };
				struct mt_ctx base = make_ctx(&range, 1, &r);
				struct par_setup set = { &base, 4, 512, 0, o,
							 PAR_FLUSH_EACH, false };
				struct par_result res;

				sim_reset(BASE, N, 5);
				sim_inject(&f);
				par_run(test, &set, &res);
				if (r.naddrs != 1 || r.addrs[0] != want)
					fail_msg("%s %s, word %zu bit %u stuck at "
						 "%d: %zu failing addresses, first "
						 "0x%llx, want only 0x%llx",
						 test->name, order_name[o], f.vword,
						 f.vbit, f.value, r.naddrs,
						 (unsigned long long)r.addrs[0],
						 (unsigned long long)want);
				for (uint64_t e = 0; e < r.nerrors && e < MAX_ERRORS; e++)
					if ((r.err[e].expected ^ r.err[e].actual) !=
					    1ull << f.vbit)
						fail_msg("%s, word %zu bit %u: expected "
							 "0x%llx actual 0x%llx",
							 test->name, f.vword, f.vbit,
							 (unsigned long long)r.err[e].expected,
							 (unsigned long long)r.err[e].actual);
			}
		}
	}
}

// progress says stop on one CPU (its first chunk, or a later one): every
// CPU's run returns false, and none syncs after the abort.
static void test_abort(void **state)
{
	static const struct range range = { BASE, BASE + 8ull * N };

	(void)state;
	for (size_t t = 0; t < mt_ntests; t++) {
		const struct mt_test *test = &mt_tests[t];

		// hammer asks progress between sites it hammers: none here.
		if (!test->parallel || str_eq(test->name, "hammer"))
			continue;
		for (unsigned stop = 1; stop <= 6; stop += 5) {
			struct rec r = { .stop_at = stop };
			struct mt_ctx base = make_ctx(&range, 1, &r);
			struct par_setup set = { &base, 3, 512, 0, PAR_INTERLEAVED,
						 PAR_FLUSH_EACH, false };
			struct par_result res;

			sim_reset(BASE, N, 1);
			if (par_run(test, &set, &res))
				fail_msg("%s, stop at call %u: went on", test->name,
					 stop);
			for (unsigned k = 0; k < 3; k++)
				if (res.returned[k])
					fail_msg("%s, stop at call %u: CPU %u "
						 "returned true", test->name, stop, k);
			if (r.calls > stop + 2)
				fail_msg("%s, stop at call %u: %u progress calls",
					 test->name, stop, r.calls);
		}
	}
}

// An idempotent coupling between words at the same place of shares 0 and 2,
// the same bit: a rise of the aggressor (lower) forces the victim to 0. March
// C- finds it when the victim is written before the aggressor rises; with
// the CPU of share 0 ahead in every element (ascending), or the CPUs in
// lockstep taking turns from CPU 0 (interleaved), and no ordering (plain),
// that never happens. With march-c's parallel schedule every order finds
// it.
static void test_cross_share_coupling(void **state)
{
	static const struct range range = { BASE, BASE + 8ull * N };
	const struct mt_test *march = mt_find("march-c", 7);
	struct sim_fault f = { .kind = SIM_CFID, .aword = 100, .abit = 9,
			       .vword = N / 2 + 100, .vbit = 9, .up = true,
			       .value = 0 };

	(void)state;
	for (int plain = 1; plain >= 0; plain--) {
		for (int o = 0; o < PAR_NORDERS; o++) {
			struct rec r = { 0 };
			struct mt_ctx base = make_ctx(&range, 1, &r);
			struct par_setup set = { &base, 4, 512, 0, o,
						 PAR_FLUSH_EACH, plain };
			struct par_result res;
			bool want = !(plain && o != PAR_DESCENDING);

			sim_reset(BASE, N, 3);
			sim_inject(&f);
			par_run(march, &set, &res);
			if ((r.nerrors != 0) != want)
				fail_msg("march-c%s, %s: %llu errors, want %s",
					 plain ? " without its ordering" : "",
					 order_name[o], (unsigned long long)r.nerrors,
					 want ? "some" : "none");
			if (want && r.addrs[0] != BASE + 8ull * f.vword)
				fail_msg("march-c, %s: error at 0x%llx",
					 order_name[o],
					 (unsigned long long)r.addrs[0]);
		}
	}
}

// One CPU's flush is not enough: if only the CPU that reaches a flushing
// barrier last flushed (its WBINVD reaching its own caches only), the others
// would read stores still in their caches; each CPU flushing its own is
// clean.
static void test_flush_each(void **state)
{
	static const struct range range = { BASE, BASE + 8ull * N };
	const struct mt_test *march = mt_find("march-c", 7);

	(void)state;
	for (int last = 0; last < 2; last++) {
		struct rec r = { 0 };
		struct mt_ctx base = make_ctx(&range, 1, &r);
		struct par_setup set = { &base, 4, 512, 0, PAR_ASCENDING,
					 last ? PAR_FLUSH_LAST : PAR_FLUSH_EACH,
					 false };
		struct par_result res;

		sim_reset(BASE, N, 3);
		sim_set_strict(false);
		par_run(march, &set, &res);
		if ((sim_discipline_breaks() != 0) != (last != 0))
			fail_msg("flush by %s CPU: %llu loads of unflushed stores",
				 last ? "the last" : "each",
				 (unsigned long long)sim_discipline_breaks());
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_union),
		cmocka_unit_test(test_stuck_bit),
		cmocka_unit_test(test_abort),
		cmocka_unit_test(test_cross_share_coupling),
		cmocka_unit_test(test_flush_each),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
