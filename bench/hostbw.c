// SPDX-License-Identifier: GPL-2.0-or-later
// build/bench/hostbw: instrument 3 of bench/ (README, "Performance"). Runs
// every memory test of lib/ on the host over one large buffer (1 GiB by
// default), compiled from the very source the image runs, with the image's
// accessor lib/hw/memrw.h in its user-space variant (no wbinvd), and compares
// each test's time with the time its memory traffic would take at the
// bandwidth the host's memset, memcpy and a plain read loop reach over the
// same buffer in the same run.
//
// The traffic model: a test is a sequence of sweeps over the buffer (the
// test table's `passes` counts them, and the bench checks that its model
// counts the same number), each of one kind:
//	W    write every word (fill, non-temporal): S bytes at memset speed;
//	R    read every word (check, compare): S bytes at read-loop speed;
//	RW   read then write every word in place (a March element, a moving-
//	     inversions element): S bytes read and S written, at the speed of
//	     memcpy or of an in-place read-modify-write loop, whichever is
//	     faster (both read S bytes and write S);
//	CPY  block-move's copy of one half onto the other (rep movsq): S/2 read
//	     and S/2 written, at memcpy speed;
//	SW, SR  modulo-N's sparse passes, writing or checking one word in N:
//	     each word lies in its own 64-byte line when N >= 8, and DRAM moves
//	     whole lines, so such a pass moves 64 / (8 N) of S (0.4 S for N = 20)
//	     at memset or read speed.
// S is the buffer's size. "At reference" is the sum over a test's sweeps of
// those times; "% of bandwidth" is that divided by the time measured (100 %:
// the test runs as fast as the machine's own copy/set/read routines would
// move the same bytes). "GB/s moved" is the model's bytes over the measured
// time. address-walk touches about 130 words (passes 0): time only.
// Some hosts (the one the README's numbers come from) write lines of zeros
// about twice as fast as other data: the references never write zeros, so
// a test whose patterns are half zeros (mi-ones, march-c's first
// background) can pass 100 %.
// bit-fade runs with a sleep callback that returns at once (its waits are
// fixed and not memory traffic): its fills and checks are what is timed.
//
// Exits 1 when a test reported an error (the host's RAM is assumed good, so
// that is a broken accessor or algorithm) or reported a different amount of
// progress than passes * S; never on timing. Each test runs once; the
// references are the best of --reps runs (default 3) before the tests and
// again after them. Usage:
//	hostbw [--size BYTES[K|M|G]] [--reps N] [--tests NAME,NAME...]
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "memtest.h"

enum sweep { W, R, RW, CPY, SW, SR, NSWEEPS };

// The sweeps each test makes (see the top of this file); derived in the
// comment from the algorithm's source in lib/mt_*.c.
struct model {
	const char *name;
	unsigned n[NSWEEPS];
	unsigned stride; // modulo-N's N (SW/SR sweeps), else 0
};

static const struct model models[] = {
	// fill a, check, fill ~a, check
	{ "own-address", { [W] = 2, [R] = 2 }, 0 },
	// w0; 4 March elements; 6 further backgrounds x 3 elements; final r
	{ "march-c", { [W] = 1, [RW] = 22, [R] = 1 }, 0 },
	// per pattern: fill, up (r p, w ~p), down (r ~p, w p)
	{ "mi-ones", { [W] = 2, [RW] = 4 }, 0 },
	{ "mi-8bit", { [W] = 8, [RW] = 16 }, 0 },
	{ "mi-random", { [W] = 2, [RW] = 4 }, 0 },
	{ "mi-walk64", { [W] = 64, [RW] = 128 }, 0 },
	// fill x_i, check, fill ~x_i, check
	{ "random", { [W] = 2, [R] = 2 }, 0 },
	// 2 polarities x 20 offsets x (sparse write, write the rest, sparse check)
	{ "modulo-20", { [SW] = 40, [W] = 40, [SR] = 40 }, 20 },
	// 2 polarities x (fill, check, copy, compare, copy rotated, compare)
	{ "block-move", { [W] = 2, [R] = 6, [CPY] = 4 }, 0 },
	// 2 polarities x (fill, wait, check)
	{ "bit-fade", { [W] = 2, [R] = 2 }, 0 },
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

// Reference bandwidths in bytes per second, the best of reps runs each:
// memset; memcpy and an in-place read-modify-write loop (bytes read +
// written; RW sweeps are held to the faster of the two, as memcpy's choice
// of instructions for large copies is not always the fastest way to read and
// write every line once); a read loop as the compiler makes it (SSE2 on
// x86-64), and the same loop kept to 64-bit general registers, which is all
// the image may use (-mgeneral-regs-only); reads are held to the faster.
struct refs {
	double set, cpy, rmw, rd, rd64;
};

static uint64_t read_all(const uint64_t *p, size_t n)
{
	uint64_t a = 0, b = 0, c = 0, d = 0;

	for (size_t i = 0; i + 4 <= n; i += 4) {
		a += p[i];
		b += p[i + 1];
		c += p[i + 2];
		d += p[i + 3];
	}
	return a ^ b ^ c ^ d;
}

static void xor_all(uint64_t *p, size_t n, uint64_t x)
{
	for (size_t i = 0; i < n; i++)
		p[i] ^= x;
}

__attribute__((optimize("no-tree-vectorize")))
static uint64_t read_all64(const uint64_t *p, size_t n)
{
	uint64_t a = 0, b = 0, c = 0, d = 0;

	for (size_t i = 0; i + 4 <= n; i += 4) {
		a += p[i];
		b += p[i + 1];
		c += p[i + 2];
		d += p[i + 3];
	}
	return a ^ b ^ c ^ d;
}

static void measure_refs(uint8_t *buf, uint64_t size, unsigned reps, struct refs *best)
{
	for (unsigned i = 0; i < reps; i++) {
		double t = now();
		memset(buf, 0x5a + i, size);
		__asm__ volatile("" ::: "memory");
		double bw = size / (now() - t);
		if (bw > best->set)
			best->set = bw;

		t = now();
		memcpy(buf + size / 2, buf, size / 2);
		__asm__ volatile("" ::: "memory");
		bw = size / (now() - t); // size/2 read plus size/2 written
		if (bw > best->cpy)
			best->cpy = bw;

		// Never a line of zeros: this host writes those faster.
		t = now();
		xor_all((uint64_t *)buf, size / 8, 0xffffffffffffffffull);
		__asm__ volatile("" ::: "memory");
		bw = 2 * size / (now() - t);
		if (bw > best->rmw)
			best->rmw = bw;

		t = now();
		uint64_t sum = read_all((const uint64_t *)buf, size / 8);
		__asm__ volatile("" : : "r"(sum) : "memory");
		bw = size / (now() - t);
		if (bw > best->rd)
			best->rd = bw;

		t = now();
		sum = read_all64((const uint64_t *)buf, size / 8);
		__asm__ volatile("" : : "r"(sum) : "memory");
		bw = size / (now() - t);
		if (bw > best->rd64)
			best->rd64 = bw;
	}

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

// Bytes one test's sweeps move, and the seconds they take at refs, for a
// buffer of size bytes.
static void model_cost(const struct model *m, uint64_t size, const struct refs *rf,
		       double *bytes, double *secs)
{
	double line = m->stride ? 64.0 / (8.0 * m->stride) : 0;
	double s = (double)size;
	double rw = rf->rmw > rf->cpy ? rf->rmw : rf->cpy;
	double rd = rf->rd > rf->rd64 ? rf->rd : rf->rd64;

	if (line > 1)
		line = 1;
	*bytes = s * (m->n[W] + m->n[R] + 2.0 * m->n[RW] + m->n[CPY] +
		      line * (m->n[SW] + m->n[SR]));
	*secs = s * (m->n[W] / rf->set + m->n[R] / rd + 2.0 * m->n[RW] / rw +
		     m->n[CPY] / rf->cpy + line * (m->n[SW] / rf->set + m->n[SR] / rd));
}

struct result {
	const struct mt_test *test;
	double secs;
};

// One row of the table. Returns false when the model and the test table
// disagree on the number of sweeps.
static bool print_row(const struct mt_test *t, double secs, uint64_t size,
		      const struct refs *rf)
{
	const struct model *m = find_model(t->name);
	unsigned counted = 0;
	double bytes, ideal;

	if (t->passes == 0) {
		printf("| %s | 0 | (a few words) | %.6f | | | |\n", t->name, secs);
		return true;
	}
	if (!m) {
		printf("| %s | %u | no model in bench/hostbw.c | %.3f | | | |\n", t->name,
		       t->passes, secs);
		return true;
	}
	for (int k = 0; k < NSWEEPS; k++)
		counted += m->n[k];
	model_cost(m, size, rf, &bytes, &ideal);
	printf("| %s | %u | %u/%u/%u/%u/%u/%u | %.3f | %.2f | %.3f | %.0f %% |\n", t->name,
	       t->passes, m->n[W], m->n[R], m->n[RW], m->n[CPY], m->n[SW], m->n[SR], secs,
	       bytes / secs / 1e9, ideal, 100 * ideal / secs);
	if (counted != t->passes) {
		fprintf(stderr, "hostbw: %s: the model counts %u sweeps, the test table %u "
			"passes: update bench/hostbw.c\n", t->name, counted, t->passes);
		return false;
	}
	return true;
}

int main(int argc, char **argv)
{
	uint64_t size = 1ull << 30;
	unsigned reps = 3;
	const char *only = NULL;
	int status = 0;

	for (int i = 1; i < argc; i += 2) {
		if (i + 1 >= argc)
			goto usage;
		if (!strcmp(argv[i], "--size"))
			size = parse_size(argv[i + 1]);
		else if (!strcmp(argv[i], "--reps"))
			reps = (unsigned)atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--tests"))
			only = argv[i + 1];
		else
			goto usage;
	}
	if (reps < 1)
		reps = 1;

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

	struct refs before = { 0, 0, 0, 0, 0 }, after = { 0, 0, 0, 0, 0 };
	measure_refs(buf, size, reps, &before);

	struct range r = { (uintptr_t)buf, (uintptr_t)buf + size };
	struct result res[64];
	size_t nres = 0;
	for (size_t i = 0; i < mt_ntests && nres < 64; i++) {
		const struct mt_test *t = &mt_tests[i];
		struct run run = { 0, 0, 0 };
		struct mt_ctx ctx = {
			.ranges = &r, .nranges = 1, .error = on_error, .progress = on_progress,
			.sleep = on_sleep, .cb_ctx = &run, .seed = 1, .bitfade_s = 1,
		};

		if (only && !selected(only, t->name))
			continue;
		double t0 = now();
		t->run(&ctx, t->param);
		res[nres++] = (struct result){ t, now() - t0 };
		if (run.progress != (uint64_t)t->passes * size) {
			fprintf(stderr, "hostbw: %s reported %llu bytes of progress, want "
				"passes %u x %llu\n", t->name, (unsigned long long)run.progress,
				t->passes, (unsigned long long)size);
			status = 1;
		}
		if (run.errors) {
			fprintf(stderr, "hostbw: %s reported %llu errors on good host RAM, "
				"the first at buffer offset 0x%llx\n", t->name,
				(unsigned long long)run.errors,
				(unsigned long long)(run.first_addr - r.start));
			status = 1;
		}
	}
	// The references again after the tests, so that other load on the
	// machine shows as a drift; the percentages use the best of both.
	measure_refs(buf, size, reps, &after);
	struct refs rf = {
		before.set > after.set ? before.set : after.set,
		before.cpy > after.cpy ? before.cpy : after.cpy,
		before.rmw > after.rmw ? before.rmw : after.rmw,
		before.rd > after.rd ? before.rd : after.rd,
		before.rd64 > after.rd64 ? before.rd64 : after.rd64,
	};

	printf("| test | passes | sweeps W/R/RW/CPY/SW/SR | s | GB/s moved | s at reference | %% of bandwidth |\n");
	printf("| --- | ---: | --- | ---: | ---: | ---: | ---: |\n");
	for (size_t i = 0; i < nres; i++)
		if (!print_row(res[i].test, res[i].secs, size, &rf))
			status = 1;
	printf("\nReference bandwidth over the same %llu MiB buffer, best of %u before "
	       "the tests / best of %u after: memset %.2f / %.2f GB/s; memcpy %.2f / "
	       "%.2f GB/s and an in-place read-modify-write loop %.2f / %.2f GB/s "
	       "(bytes read + written); a read loop %.2f / %.2f GB/s, and %.2f / %.2f "
	       "GB/s kept to 64-bit general registers as the image is. The percentages "
	       "use the better round, and the faster loop of each kind.\n",
	       (unsigned long long)(size >> 20), reps, reps, before.set / 1e9,
	       after.set / 1e9, before.cpy / 1e9, after.cpy / 1e9, before.rmw / 1e9,
	       after.rmw / 1e9, before.rd / 1e9, after.rd / 1e9, before.rd64 / 1e9,
	       after.rd64 / 1e9);
	munmap(raw, map);
	return status;

usage:
	fprintf(stderr, "usage: hostbw [--size BYTES[K|M|G]] [--reps N] [--tests NAME,...]\n");
	return 2;
}
