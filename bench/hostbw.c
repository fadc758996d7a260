// SPDX-License-Identifier: GPL-2.0-or-later
// build/bench/hostbw: instrument 3 of bench/ (bench/README.md). Runs every
// memory test of lib/ on the host over one large buffer, compiled from the
// very source the image runs with the image's accessors (src/x86/memrw.h,
// user-space variant: no wbinvd), and compares each test's time with what
// its memory traffic would take at the bandwidth of reference loops
// (memset, memcpy, read and read-modify-write loops) measured just before
// and after it in the same run: this host's bandwidth drifts by 10-15 % a
// minute, so only references taken around the test compare. Exits 1 when a
// test reports an error or progress other than its sweeps over the buffer
// (a broken accessor or algorithm), never on timing. Usage:
//	hostbw [--size BYTES[K|M|G]] [--rounds N] [--tests NAME,NAME...]
//	       [--threads N]
#define _GNU_SOURCE
#include <emmintrin.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "capacity.h"
#include "memtest/memtest.h"

// The traffic model: a test is its table's sweeps over the buffer of S
// bytes, each of one kind, held to the host's best loop for that kind:
//	W    write every word: S bytes at memset speed;
//	R    read every word: S bytes at the faster read loop's speed;
//	RW   read then write every word in place (March, moving inversions):
//	     S read and S written, at the faster of memcpy and the in-place
//	     read-modify-write loop;
//	CPY  block-move's copy of one half onto the other: S/2 each way, memcpy;
//	SW, SR, WH  modulo-N's sweeps (one word in N written, one in N checked,
//	     all but one in N written), each held to a loop making the same
//	     accesses, not to the sequential ones: a line with a word left out
//	     costs a read however it is written, and the prefetchers fetch lines
//	     nobody asked for around a sparse read. "GB/s moved" counts the
//	     lines they touch (64 / (8 N) of S for SW and SR, S for WH).
// address-walk (sweeps 0) is timed only; bit-fade's sleep returns at once.
// The references never write zeros, which some hosts write twice as fast,
// so a test whose patterns are half zeros (mi-ones, bit-fade) can pass 100 %.
// A test's "% of bandwidth" in a round is the model's time at the mean of
// the references just before and after it over its measured time; the
// table gives the median over rounds. With --threads N everything also
// runs in N pinned threads over 2 MiB-aligned shares, with spinning
// barriers as the tests' sync, against N-thread references.
enum sweep { W, R, RW, CPY, SW, SR, WH, NSWEEPS };

// The N of the sparse reference loops: modulo-20's.
#define SPARSE_STRIDE 20
#define STR_(x) #x
#define STR(x) STR_(x)

// The sweeps each test makes (see enum sweep); derived in the
// comment from the algorithm's source in lib/memtest/*.c.
struct model {
	const char *name;
	unsigned n[NSWEEPS];
	unsigned stride; // modulo-N's N (SW/SR/WH sweeps), else 0
	unsigned rw_shared; // RW sweeps it adds over shares (threads >= 2)
};

static const struct model models[] = {
	// fill a, check, fill ~a, check
	{ "own-address", { [W] = 2, [R] = 2 }, 0, 0 },
	// w0; 4 March elements; 6 further backgrounds x 3 elements; final r;
	// over shares 2 March elements more (the second background's core)
	{ "march-c", { [W] = 1, [RW] = 22, [R] = 1 }, 0, 2 },
	// per pattern: fill, up (r p, w ~p), down (r ~p, w p)
	{ "mi-ones", { [W] = 2, [RW] = 4 }, 0, 0 },
	{ "mi-8bit", { [W] = 8, [RW] = 16 }, 0, 0 },
	{ "mi-random", { [W] = 2, [RW] = 4 }, 0, 0 },
	{ "mi-walk64", { [W] = 64, [RW] = 128 }, 0, 0 },
	// fill x_i, check, fill ~x_i, check
	{ "random", { [W] = 2, [R] = 2 }, 0, 0 },
	// 2 polarities x 20 offsets x (sparse write, write the rest, sparse check)
	{ "modulo-20", { [SW] = 40, [WH] = 40, [SR] = 40 }, SPARSE_STRIDE, 0 },
	// 2 polarities x (fill, check, copy, compare, copy rotated, compare)
	{ "block-move", { [W] = 2, [R] = 6, [CPY] = 4 }, 0, 0 },
	// 2 polarities x (fill, wait, check)
	{ "bit-fade", { [W] = 2, [R] = 2 }, 0, 0 },
};

struct run {
	uint64_t errors, first_addr, progress;
};

static void on_error(void *cb_ctx, uint64_t addr, uint64_t expected, uint64_t actual)
{
	struct run *r = cb_ctx;

	(void)expected;
	(void)actual;
	if (r->errors++ == 0)
		r->first_addr = addr;
}

static bool on_progress(void *cb_ctx, uint64_t bytes)
{
	((struct run *)cb_ctx)->progress += bytes;
	return true;
}

static bool on_sleep(void *cb_ctx, uint32_t seconds)
{
	(void)cb_ctx;
	(void)seconds;
	return true;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t parse_size(const char *s)
{
	char *end;
	uint64_t v = strtoull(s, &end, 0);

	switch (*end) {
	case 'G': v <<= 10; /* fall through */
	case 'M': v <<= 10; /* fall through */
	case 'K': v <<= 10; end++; break;
	}
	if (*end || v < (1u << 20) || v % 4096) {
		fprintf(stderr, "hostbw: --size: want a multiple of 4 KiB, at least 1M: %s\n", s);
		exit(2);
	}
	return v;
}

// Reference bandwidths in bytes per second, one run of each loop: memset;
// memcpy and an in-place read-modify-write loop (bytes read + written; RW
// sweeps are held to the faster of the two, as memcpy's choice of
// instructions for large copies is not always the fastest way to read and
// write every line once); a read loop in SSE2 registers, and the same loop
// kept to 64-bit general registers, which is all the image may use
// (-mgeneral-regs-only); reads are held to the faster.
// The hand-written loops are unrolled to one 64-byte line per iteration and
// prefetch REF_PREFETCH bytes ahead: on the host of bench/README.md that reads 20-25 %
// faster than the hardware prefetchers alone, so a reference without it
// would flatter every test that reads.
// The sparse loops (one word in SPARSE_STRIDE written, read; all but one
// written) in bytes of the buffer swept per second, measured only when a
// test needs them (0 otherwise).
struct refs {
	double set, cpy, rmw, rd, rd64;
	double sw, sr, wh;
};

#define REF_PREFETCH 2048 // the best distance there, as for the tests (sweep.h)

// Read every word, eight independent accumulators, one line per iteration:
// in general registers (as the image must) ...
__attribute__((optimize("no-tree-vectorize")))
static uint64_t read_general(const uint64_t *p, size_t n)
{
	uint64_t a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0;

	for (size_t i = 0; i + 8 <= n; i += 8) {
		__builtin_prefetch((const char *)&p[i] + REF_PREFETCH);
		a += p[i];
		b += p[i + 1];
		c += p[i + 2];
		d += p[i + 3];
		e += p[i + 4];
		f += p[i + 5];
		g += p[i + 6];
		h += p[i + 7];
	}
	return a ^ b ^ c ^ d ^ e ^ f ^ g ^ h;
}

// ... and in SSE2 registers, 16 bytes a load.
static uint64_t read_sse2(const uint64_t *p, size_t n)
{
	__m128i a = _mm_setzero_si128(), b = a, c = a, d = a;

	for (size_t i = 0; i + 8 <= n; i += 8) {
		__builtin_prefetch((const char *)&p[i] + REF_PREFETCH);
		a = _mm_add_epi64(a, _mm_load_si128((const __m128i *)&p[i]));
		b = _mm_add_epi64(b, _mm_load_si128((const __m128i *)&p[i + 2]));
		c = _mm_add_epi64(c, _mm_load_si128((const __m128i *)&p[i + 4]));
		d = _mm_add_epi64(d, _mm_load_si128((const __m128i *)&p[i + 6]));
	}
	a = _mm_xor_si128(_mm_xor_si128(a, b), _mm_xor_si128(c, d));
	return (uint64_t)_mm_cvtsi128_si64(a) ^ (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(a, a));
}

// Complement every word in place (never a line of zeros: some hosts write
// those faster), one line per iteration, in general registers.
__attribute__((optimize("no-tree-vectorize")))
static void invert_lines(uint64_t *p, size_t n)
{
	for (size_t i = 0; i + 8 <= n; i += 8) {
		__builtin_prefetch((const char *)&p[i] + REF_PREFETCH, 1);
#pragma GCC unroll 8
		for (size_t k = 0; k < 8; k++)
			p[i + k] = ~p[i + k];
	}
}

static double bandwidth(double bytes, double t0)
{
	__asm__ volatile("" ::: "memory");
	return bytes / (now() - t0);
}

static void store(uint64_t *p, uint64_t v, bool nt)
{
	if (nt)
		_mm_stream_si64((long long *)p, (long long)v);
	else
		*(volatile uint64_t *)p = v;
}

// Write v to one word in stride, ascending.
static void sparse_write(uint64_t *p, size_t n, size_t stride, uint64_t v, bool nt)
{
	for (size_t i = 0; i < n; i += stride)
		store(&p[i], v, nt);
	_mm_sfence();
}

static uint64_t sparse_read(const uint64_t *p, size_t n, size_t stride)
{
	uint64_t a = 0;

	for (size_t i = 0; i < n; i += stride)
		a += *(const volatile uint64_t *)&p[i];
	return a;
}

// Write v to every word but one in stride, ascending.
static void holes_write(uint64_t *p, size_t n, size_t stride, uint64_t v, bool nt)
{
	for (size_t i = 0; i + stride <= n; i += stride)
		for (size_t k = 1; k < stride; k++)
			store(&p[i + k], v, nt);
	_mm_sfence();
}

static double faster(double x, double y)
{
	return x > y ? x : y;
}

// Measure the sparse loops with stride into rf, each store loop the faster
// of plain and non-temporal stores.
static void measure_sparse(uint8_t *buf, uint64_t size, uint64_t v, size_t stride,
			   struct refs *rf)
{
	uint64_t *p = (uint64_t *)buf;
	size_t n = size / 8;
	double by[2];

	for (int nt = 0; nt < 2; nt++) {
		double t = now();
		sparse_write(p, n, stride, v, nt);
		by[nt] = bandwidth(size, t);
	}
	rf->sw = faster(by[0], by[1]);

	double t = now();
	uint64_t sum = sparse_read(p, n, stride);
	__asm__ volatile("" : : "r"(sum));
	rf->sr = bandwidth(size, t);

	for (int nt = 0; nt < 2; nt++) {
		t = now();
		holes_write(p, n, stride, v, nt);
		by[nt] = bandwidth(size, t);
	}
	rf->wh = faster(by[0], by[1]);
}

// The bandwidth of the mean of the times at bandwidths x and y (0: not
// measured).
static double mean_time(double x, double y)
{
	return x && y ? 2 / (1 / x + 1 / y) : 0;
}

// Per kind, the mean time of two measurements of the references.
static struct refs mean_refs(const struct refs *x, const struct refs *y)
{
	return (struct refs){
		mean_time(x->set, y->set), mean_time(x->cpy, y->cpy),
		mean_time(x->rmw, y->rmw), mean_time(x->rd, y->rd),
		mean_time(x->rd64, y->rd64), mean_time(x->sw, y->sw),
		mean_time(x->sr, y->sr), mean_time(x->wh, y->wh),
	};
}

// One run of each reference loop over buf (with sparse, the sparse loops
// too) into rf.
static void measure_refs(uint8_t *buf, uint64_t size, unsigned round, bool sparse,
			 struct refs *rf)
{
	*rf = (struct refs){ 0 };
	double t = now();
	memset(buf, 0x5a + round, size); // non-zero, as the tests' data
	rf->set = bandwidth(size, t);

	t = now();
	memcpy(buf + size / 2, buf, size / 2);
	rf->cpy = bandwidth(size, t); // size/2 read plus size/2 written

	t = now();
	invert_lines((uint64_t *)buf, size / 8);
	rf->rmw = bandwidth(2.0 * size, t);

	t = now();
	uint64_t sum = read_sse2((const uint64_t *)buf, size / 8);
	__asm__ volatile("" : : "r"(sum));
	rf->rd = bandwidth(size, t);

	t = now();
	sum = read_general((const uint64_t *)buf, size / 8);
	__asm__ volatile("" : : "r"(sum));
	rf->rd64 = bandwidth(size, t);

	if (sparse)
		measure_sparse(buf, size, 0x5a5a5a5a5a5a5a5aull + round, SPARSE_STRIDE, rf);
}

static const struct model *find_model(const char *name)
{
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (!strcmp(models[i].name, name))
			return &models[i];
	return NULL;
}

static bool selected(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len == n && !strncmp(p, name, n))
			return true;
		p = e ? e + 1 : NULL;
	}
	return false;
}

// The fraction of a sweep's bytes modulo-N's sparse sweeps move: one
// 64-byte line per word written or checked, the whole buffer at most.
static double sparse_fraction(const struct model *m)
{
	double line = m->stride ? 64.0 / (8.0 * m->stride) : 0;

	return line > 1 ? 1 : line;
}

// Bytes one test's sweeps move over a buffer of size bytes (shared: each
// thread over its share of it).
static double model_bytes(const struct model *m, uint64_t size, bool shared)
{
	unsigned rw = m->n[RW] + (shared ? m->rw_shared : 0);

	return (double)size * (m->n[W] + m->n[R] + 2.0 * rw + m->n[CPY] +
			       sparse_fraction(m) * (m->n[SW] + m->n[SR]) + m->n[WH]);
}

// Seconds one test's sweeps take over a buffer of size bytes at rf.
static double model_secs(const struct model *m, uint64_t size, const struct refs *rf,
			 bool shared)
{
	double rw = faster(rf->rmw, rf->cpy), rd = faster(rf->rd, rf->rd64);
	double secs = m->n[W] / rf->set + m->n[R] / rd +
		      2.0 * (m->n[RW] + (shared ? m->rw_shared : 0)) / rw +
		      m->n[CPY] / rf->cpy;

	if (m->stride)
		secs += m->n[SW] / rf->sw + m->n[SR] / rf->sr + m->n[WH] / rf->wh;
	return (double)size * secs;
}

#define MAX_ROUNDS 99

// One test's measurements, one entry per round: seconds taken, and seconds
// its model takes at the references measured around it; alone, and in the
// threads (--threads).
struct result {
	const struct mt_test *test;
	double secs[MAX_ROUNDS], ideal[MAX_ROUNDS];
	double secs_n[MAX_ROUNDS], ideal_n[MAX_ROUNDS];
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

// The median of v[0..n), n >= 1; v is sorted in place.
static double median(double *v, unsigned n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The medians over rounds of secs, ideal and their ratio into *s, *ideal,
// *ratio.
static void medians(const double *secs_in, const double *ideal_in, unsigned rounds,
		    double *s, double *ideal, double *ratio)
{
	double a[MAX_ROUNDS], b[MAX_ROUNDS], r[MAX_ROUNDS];

	for (unsigned i = 0; i < rounds; i++) {
		a[i] = secs_in[i];
		b[i] = ideal_in[i];
		r[i] = ideal_in[i] / secs_in[i];
	}
	*s = median(a, rounds);
	*ideal = median(b, rounds);
	*ratio = median(r, rounds);
}

// One row of the table, medians over rounds (with threads >= 2, the columns
// of the threaded runs too). Returns false when the model and the test table
// disagree on the number of sweeps.
static bool print_row(const struct result *res, unsigned rounds, uint64_t size,
		      unsigned threads)
{
	const struct mt_test *t = res->test;
	const struct model *m = find_model(t->name);
	double s, ideal, ratio;
	unsigned counted = 0;

	medians(res->secs, res->ideal, rounds, &s, &ideal, &ratio);
	if (t->sweeps == 0) {
		printf("| %s | 0 | (a few words) | %.6f | | | |", t->name, s);
		if (threads > 1)
			printf(" (one CPU) | | |");
		printf("\n");
		return true;
	}
	if (!m) {
		printf("| %s | %u | no model in bench/hostbw.c | %.3f | | | |%s\n", t->name,
		       t->sweeps, s, threads > 1 ? " | | |" : "");
		return true;
	}
	for (int k = 0; k < NSWEEPS; k++)
		counted += m->n[k];
	printf("| %s | %u | %u/%u/%u/%u/%u/%u/%u | %.3f | %.2f | %.3f | %.0f %% |", t->name,
	       t->sweeps, m->n[W], m->n[R], m->n[RW], m->n[CPY], m->n[SW], m->n[SR], m->n[WH], s,
	       model_bytes(m, size, false) / s / 1e9, ideal, 100 * ratio);
	if (threads > 1 && t->parallel) {
		medians(res->secs_n, res->ideal_n, rounds, &s, &ideal, &ratio);
		printf(" %.3f | %.2f | %.0f %% |", s, model_bytes(m, size, true) / s / 1e9,
		       100 * ratio);
	} else if (threads > 1) {
		printf(" (one CPU) | | |");
	}
	printf("\n");
	if (counted != t->sweeps || counted + m->rw_shared != t->shared_sweeps) {
		fprintf(stderr, "hostbw: %s: the model counts %u sweeps (%u over shares), the "
			"test table %u (%u): update bench/hostbw.c\n", t->name, counted,
			counted + m->rw_shared, t->sweeps, t->shared_sweeps);
		return false;
	}
	return true;
}

// Run test t once over r; returns its seconds, and false in *ok when it
// reported an error or the wrong amount of progress.
static double run_test(const struct mt_test *t, const struct range *r, bool *ok)
{
	uint64_t size = r->end - r->start;
	struct run run = { 0, 0, 0 };
	struct mt_ctx ctx = {
		.ranges = r, .nranges = 1, .error = on_error, .progress = on_progress,
		.sleep = on_sleep, .cb_ctx = &run, .seed = 1, .bitfade_s = 1,
	};
	double t0 = now();

	t->run(&ctx, t->param);
	double secs = now() - t0;
	if (run.progress != (uint64_t)t->sweeps * size) {
		fprintf(stderr, "hostbw: %s reported %llu bytes of progress, want "
			"sweeps %u x %llu\n", t->name, (unsigned long long)run.progress,
			t->sweeps, (unsigned long long)size);
		*ok = false;
	}
	if (run.errors) {
		fprintf(stderr, "hostbw: %s reported %llu errors on good host RAM, "
			"the first at buffer offset 0x%llx\n", t->name,
			(unsigned long long)run.errors,
			(unsigned long long)(run.first_addr - r->start));
		*ok = false;
	}
	return secs;
}

// ---- Threads (--threads) ---------------------------------------------------

#define MAX_THREADS 64
#define SHARE_ALIGN (2u << 20) // the image's cuts between CPUs' shares

// A barrier that spins, as the image's CPUs do: a thread that arrives early
// sees the last one arrive at once, where a pthread barrier puts it to sleep
// and, on a machine shared with other work, the wake-up can take a
// scheduler's time slice, once per phase of every test. It yields the CPU
// now and then (every 4096 pauses, a fraction of a millisecond) so that a
// long wait does not starve the machine's other work.
struct spin_barrier {
	atomic_uint count, generation;
	unsigned n;
};

static void spin_wait(struct spin_barrier *b)
{
	unsigned g = atomic_load(&b->generation);

	if (atomic_fetch_add(&b->count, 1) + 1 == b->n) {
		atomic_store(&b->count, 0);
		atomic_store(&b->generation, g + 1);
		return;
	}
	for (unsigned i = 1; atomic_load(&b->generation) == g; i++) {
		_mm_pause();
		if (i % 4096 == 0)
			sched_yield();
	}
}

// The threads: thread 0 is main's; the others sleep at start until there is
// a job (the single-thread runs go on meanwhile), run it over their share,
// and meet at end; a test's phases meet at sync.
static struct {
	unsigned n;
	pthread_t tid[MAX_THREADS];
	pthread_barrier_t start;
	struct spin_barrier end, sync;
	void (*job)(unsigned k);
	bool quit;
	struct range share[MAX_THREADS];
	// For the jobs: the reference round, plain or non-temporal stores,
	// and the test with its runs.
	unsigned round;
	bool nt;
	const struct mt_test *test;
	struct run runs[MAX_THREADS];
} team;

// Keep thread k on CPU k (where the system allows).
static void pin(unsigned k)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(k % CPU_SETSIZE, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static void *worker(void *arg)
{
	unsigned k = (unsigned)(uintptr_t)arg;

	pin(k);
	for (;;) {
		pthread_barrier_wait(&team.start);
		if (team.quit)
			return NULL;
		team.job(k);
		spin_wait(&team.end);
	}
}

// Run job on every thread, each with its number; returns the seconds from
// the barrier that starts them to the one where the last has finished.
static double team_run(void (*job)(unsigned k))
{
	team.job = job;
	pthread_barrier_wait(&team.start);
	double t0 = now();
	job(0);
	spin_wait(&team.end);
	return now() - t0;
}

// Cut [buf, buf + size) into n shares at multiples of SHARE_ALIGN near each
// 1/n of it (as lib/run's plan_shares cuts the image's ranges), start the
// threads. Returns false when the system refuses a thread.
static bool team_start(uint8_t *buf, uint64_t size, unsigned n)
{
	uint64_t lo = (uintptr_t)buf;

	team.n = n;
	pthread_barrier_init(&team.start, NULL, n);
	team.end.n = team.sync.n = n;
	for (unsigned k = 0; k < n; k++) {
		uint64_t hi = (uintptr_t)buf + size;

		if (k + 1 < n)
			hi = ((uintptr_t)buf + size / n * (k + 1) + SHARE_ALIGN / 2) /
			     SHARE_ALIGN * SHARE_ALIGN;
		team.share[k] = (struct range){ lo, hi > lo ? hi : lo };
		lo = team.share[k].end;
	}
	pin(0);
	for (unsigned k = 1; k < n; k++)
		if (pthread_create(&team.tid[k], NULL, worker, (void *)(uintptr_t)k)) {
			perror("hostbw: pthread_create");
			return false;
		}
	return true;
}

static void team_stop(void)
{
	team.quit = true;
	pthread_barrier_wait(&team.start);
	for (unsigned k = 1; k < team.n; k++)
		pthread_join(team.tid[k], NULL);
}

// The references' jobs, each over thread k's share (bytes s of it at p).
#define SHARE_OF(k) uint8_t *p = (uint8_t *)(uintptr_t)team.share[k].start; \
	uint64_t s = team.share[k].end - team.share[k].start
static void job_set(unsigned k)
{
	SHARE_OF(k);
	memset(p, 0x5a + team.round, s);
}
static void job_cpy(unsigned k)
{
	SHARE_OF(k);
	memcpy(p + s / 2, p, s / 2);
}
static void job_rmw(unsigned k)
{
	SHARE_OF(k);
	invert_lines((uint64_t *)p, s / 8);
}
// Keep a read loop's sum, so that the loop is not optimised away.
static void keep(uint64_t sum)
{
	__asm__ volatile("" : : "r"(sum));
}
static void job_rd(unsigned k)
{
	SHARE_OF(k);
	keep(read_sse2((const uint64_t *)p, s / 8));
}
static void job_rd64(unsigned k)
{
	SHARE_OF(k);
	keep(read_general((const uint64_t *)p, s / 8));
}
static void job_sw(unsigned k)
{
	SHARE_OF(k);
	sparse_write((uint64_t *)p, s / 8, SPARSE_STRIDE, 0x5a5a5a5a5a5a5a5aull + team.round,
		     team.nt);
}
static void job_sr(unsigned k)
{
	SHARE_OF(k);
	keep(sparse_read((const uint64_t *)p, s / 8, SPARSE_STRIDE));
}
static void job_wh(unsigned k)
{
	SHARE_OF(k);
	holes_write((uint64_t *)p, s / 8, SPARSE_STRIDE, 0x5a5a5a5a5a5a5a5aull + team.round,
		    team.nt);
}

// measure_refs in the threads, each over its share: bytes over the time
// from the start of the first to the end of the last. The sparse store
// loops take the faster of plain and non-temporal stores over two runs.
static void measure_refs_team(uint64_t size, unsigned round, bool sparse, struct refs *rf)
{
	*rf = (struct refs){ 0 };
	team.round = round;
	rf->set = size / team_run(job_set);
	rf->cpy = size / team_run(job_cpy);
	rf->rmw = 2.0 * size / team_run(job_rmw);
	rf->rd = size / team_run(job_rd);
	rf->rd64 = size / team_run(job_rd64);
	if (!sparse)
		return;
	double by[2];
	for (int nt = 0; nt < 2; nt++) {
		team.nt = nt;
		by[nt] = size / team_run(job_sw);
	}
	rf->sw = faster(by[0], by[1]);
	rf->sr = size / team_run(job_sr);
	for (int nt = 0; nt < 2; nt++) {
		team.nt = nt;
		by[nt] = size / team_run(job_wh);
	}
	rf->wh = faster(by[0], by[1]);
}

static bool team_sync(void *cb_ctx, bool flush)
{
	(void)cb_ctx;
	(void)flush; // user space: mem_flush_cache is a no-op (memrw.h)
	spin_wait(&team.sync);
	return true;
}

static void job_test(unsigned k)
{
	const struct mt_test *t = team.test;
	struct mt_ctx ctx = {
		.ranges = &team.share[k], .nranges = 1, .error = on_error,
		.progress = on_progress, .sleep = on_sleep, .cb_ctx = &team.runs[k],
		.seed = 1, .bitfade_s = 1, .sync = team_sync, .share = k, .nshares = team.n,
	};

	team.runs[k] = (struct run){ 0, 0, 0 };
	t->run(&ctx, t->param);
}

// Run test t once in the threads, each over its share; returns its seconds,
// and false in *ok when a thread reported an error or the wrong progress.
static double run_test_team(const struct mt_test *t, bool *ok)
{
	team.test = t;
	double secs = team_run(job_test);
	for (unsigned k = 0; k < team.n; k++) {
		const struct run *run = &team.runs[k];
		uint64_t bytes = team.share[k].end - team.share[k].start;

		if (run->progress != (uint64_t)t->shared_sweeps * bytes) {
			fprintf(stderr, "hostbw: %s, thread %u reported %llu bytes of "
				"progress, want shared sweeps %u x %llu\n", t->name, k,
				(unsigned long long)run->progress, t->shared_sweeps,
				(unsigned long long)bytes);
			*ok = false;
		}
		if (run->errors) {
			fprintf(stderr, "hostbw: %s, thread %u reported %llu errors on "
				"good host RAM, the first at 0x%llx\n", t->name, k,
				(unsigned long long)run->errors,
				(unsigned long long)run->first_addr);
			*ok = false;
		}
	}
	return secs;
}

// The references measured around each test of each round: median, lowest
// and highest of each, in GB/s (the sparse loops only when measured).
static void print_refs(const char *what, const struct refs *rf, unsigned n, uint64_t size,
		       unsigned rounds, bool sparse)
{
	static const struct {
		const char *what;
		size_t offset;
		bool sparse;
	} kinds[] = {
		{ "memset", offsetof(struct refs, set), false },
		{ "memcpy (bytes read + written)", offsetof(struct refs, cpy), false },
		{ "in-place read-modify-write loop (read + written)",
		  offsetof(struct refs, rmw), false },
		{ "read loop in SSE2 registers", offsetof(struct refs, rd), false },
		{ "read loop in 64-bit general registers", offsetof(struct refs, rd64), false },
		{ "one word in " STR(SPARSE_STRIDE) " written (bytes of buffer swept)",
		  offsetof(struct refs, sw), true },
		{ "one word in " STR(SPARSE_STRIDE) " read", offsetof(struct refs, sr), true },
		{ "all words but one in " STR(SPARSE_STRIDE) " written",
		  offsetof(struct refs, wh), true },
	};
	static double v[MAX_ROUNDS * (MAX_TESTS + 1)];

	printf("\nReference bandwidth%s over the same %llu MiB buffer, measured around "
	       "each test in each of %u rounds; median (lowest-highest) GB/s:", what,
	       (unsigned long long)(size >> 20), rounds);
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		if (kinds[k].sparse && !sparse)
			continue;
		for (unsigned i = 0; i < n; i++)
			v[i] = *(const double *)((const char *)&rf[i] + kinds[k].offset);
		double med = median(v, n);
		printf("%s %s %.2f (%.2f-%.2f)", k ? ";" : "", kinds[k].what, med / 1e9,
		       v[0] / 1e9, v[n - 1] / 1e9);
	}
	printf(". RW sweeps use the faster of memcpy and the read-modify-write loop, "
	       "R sweeps the faster read loop, the sparse write loops the faster of "
	       "plain and non-temporal stores, each test the mean time of the runs "
	       "just before and after it.\n");
}

int main(int argc, char **argv)
{
	uint64_t size = 1ull << 30;
	unsigned rounds = 3, threads = 1;
	const char *only = NULL;
	bool ok = true;

	for (int i = 1; i < argc; i += 2) {
		if (i + 1 >= argc)
			goto usage;
		if (!strcmp(argv[i], "--size"))
			size = parse_size(argv[i + 1]);
		else if (!strcmp(argv[i], "--rounds"))
			rounds = (unsigned)atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--tests"))
			only = argv[i + 1];
		else if (!strcmp(argv[i], "--threads"))
			threads = (unsigned)atoi(argv[i + 1]);
		else
			goto usage;
	}
	if (rounds < 1 || rounds > MAX_ROUNDS || threads < 1 || threads > MAX_THREADS)
		goto usage;
	if (size / threads < 2 * SHARE_ALIGN) {
		fprintf(stderr, "hostbw: --size: want at least 4 MiB a thread\n");
		return 2;
	}

	// 2 MiB aligned, huge pages where the kernel gives them: the image maps
	// RAM with 1 GiB or 2 MiB pages, so TLB misses should not count here.
	size_t map = size + (2u << 20);
	uint8_t *raw = mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED) {
		perror("hostbw: mmap");
		return 2;
	}
	uint8_t *buf = (uint8_t *)(((uintptr_t)raw + (2u << 20) - 1) & ~(uintptr_t)((2u << 20) - 1));
	madvise(buf, size, MADV_HUGEPAGE);
	memset(buf, 0, size); // fault every page in before anything is timed

	struct range r = { (uintptr_t)buf, (uintptr_t)buf + size };
	static struct result res[MAX_TESTS];
	static struct refs rf[MAX_ROUNDS * (MAX_TESTS + 1)], rfn[MAX_ROUNDS * (MAX_TESTS + 1)];
	size_t nres = 0;
	unsigned nrf = 0, nrfn = 0;
	bool sparse = false;
	for (size_t i = 0; i < mt_ntests && nres < MAX_TESTS; i++) {
		if (only && !selected(only, mt_tests[i].name))
			continue;
		const struct model *m = find_model(mt_tests[i].name);

		sparse |= m && m->stride;
		res[nres++].test = &mt_tests[i];
	}
	if (threads > 1 && !team_start(buf, size, threads))
		return 2;
	for (unsigned round = 0; round < rounds; round++) {
		measure_refs(buf, size, round, sparse, &rf[nrf++]);
		for (size_t i = 0; i < nres; i++) {
			const struct model *m = find_model(res[i].test->name);

			res[i].secs[round] = run_test(res[i].test, &r, &ok);
			measure_refs(buf, size, round, sparse, &rf[nrf]);
			struct refs near = mean_refs(&rf[nrf - 1], &rf[nrf]);
			res[i].ideal[round] = m ? model_secs(m, size, &near, false) : 0;
			nrf++;
		}
		if (threads == 1)
			continue;
		// The same again in the threads, around the threaded references.
		measure_refs_team(size, round, sparse, &rfn[nrfn++]);
		for (size_t i = 0; i < nres; i++) {
			const struct model *m = find_model(res[i].test->name);

			if (!res[i].test->parallel)
				continue;
			res[i].secs_n[round] = run_test_team(res[i].test, &ok);
			measure_refs_team(size, round, sparse, &rfn[nrfn]);
			struct refs near = mean_refs(&rfn[nrfn - 1], &rfn[nrfn]);
			res[i].ideal_n[round] = m ? model_secs(m, size, &near, true) : 0;
			nrfn++;
		}
	}
	if (threads > 1)
		team_stop();

	printf("| test | sweeps | sweeps W/R/RW/CPY/SW/SR/WH | s | GB/s moved | s at reference | %% of bandwidth |");
	if (threads > 1)
		printf(" s, %u threads | GB/s moved, %u threads | %% of %u-thread bandwidth |",
		       threads, threads, threads);
	printf("\n| --- | ---: | --- | ---: | ---: | ---: | ---: |%s\n",
	       threads > 1 ? " ---: | ---: | ---: |" : "");
	for (size_t i = 0; i < nres; i++)
		if (!print_row(&res[i], rounds, size, threads))
			ok = false;
	if (nrf)
		print_refs("", rf, nrf, size, rounds, sparse);
	if (nrfn) {
		char what[48];

		snprintf(what, sizeof(what), " in %u threads", threads);
		print_refs(what, rfn, nrfn, size, rounds, sparse);
	}
	munmap(raw, map);
	return ok ? 0 : 1;

usage:
	fprintf(stderr, "usage: hostbw [--size BYTES[K|M|G]] [--rounds 1..%d] "
		"[--tests NAME,...] [--threads 1..%d]\n", MAX_ROUNDS, MAX_THREADS);
	return 2;
}
