// SPDX-License-Identifier: GPL-2.0-or-later
// The payload of make bench-consumer's Linux VMs (bench/consumer.sh): built
// static, packed as /payload into an initramfs beside Debian's stressapptest
// and mbw, and started by tests/linux/init.c. It stresses about 90 % of the
// RAM with stressapptest, applies memory pressure (a process maps ever more,
// writing and verifying every word), measures lmbench-style numbers, each
// the best of ROUNDS runs (the host's other load only ever adds time), and
// prints the kernel's messages that say memory or a process went bad.
// Parameters from the kernel command line: consumer_stress=SECONDS,
// consumer_measure=0|1, consumer_rounds=N, consumer_hog=N (spinning
// processes, the negative control). Each result is a "consumer: ..." line;
// exit status 0 when stress and pressure found nothing. "/payload --exit"
// only exits: the program fork+exec starts.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MiB (1024ul * 1024)
#define MAX_ROUNDS 15
#define MAX_HOGS 4

static struct {
	unsigned stress_s, measure, rounds, hogs;
} opt = { 10, 1, 5, 0 };

static double now_us(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void params(void)
{
	char line[4096];
	FILE *f = fopen("/proc/cmdline", "r");
	if (!f || !fgets(line, sizeof(line), f))
		return;
	fclose(f);
	for (char *w = strtok(line, " \n"); w; w = strtok(NULL, " \n")) {
		sscanf(w, "consumer_stress=%u", &opt.stress_s);
		sscanf(w, "consumer_measure=%u", &opt.measure);
		sscanf(w, "consumer_rounds=%u", &opt.rounds);
		sscanf(w, "consumer_hog=%u", &opt.hogs);
	}
	if (opt.rounds < 1)
		opt.rounds = 1;
	if (opt.rounds > MAX_ROUNDS)
		opt.rounds = MAX_ROUNDS;
	if (opt.hogs > MAX_HOGS)
		opt.hogs = MAX_HOGS;
}

// A /proc/meminfo field in KiB; 0 when absent.
static unsigned long meminfo(const char *field)
{
	char line[256];
	unsigned long kib = 0;
	size_t n = strlen(field);
	FILE *f = fopen("/proc/meminfo", "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, field, n) && line[n] == ':')
			kib = strtoul(line + n + 1, NULL, 10);
	if (f)
		fclose(f);
	return kib;
}

// Run ARGV with its standard output and error on a pipe; hand each line to
// EACH; return the exit status (128 + the signal when killed).
static int run(char *const argv[], void (*each)(const char *line))
{
	int p[2];
	if (pipe(p) != 0)
		return 127;
	pid_t pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		close(p[0]);
		close(p[1]);
		execv(argv[0], argv);
		fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(p[1]);
	FILE *f = fdopen(p[0], "r");
	char line[1024];
	while (fgets(line, sizeof(line), f))
		each(line);
	fclose(f);
	int status;
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// ---- 1. the stress -----------------------------------------------------------
static struct {
	unsigned long incidents, lines;
	char status[16];
} sat;

// stressapptest says "Report Error: ..." and "Hardware Error: ..." about
// bad words (the first few are shown), "Stats: Found N hardware incidents"
// (the count reported) and "Status: PASS|FAIL".
static void sat_line(const char *line)
{
	if (strstr(line, "Error:") && !strstr(line, "Log: ")) {
		if (sat.lines++ < 4)
			printf("consumer: stressapptest: %s", line);
	} else if (sscanf(line, "Stats: Found %lu hardware incidents", &sat.incidents) == 1 ||
		   !strncmp(line, "Stats: Completed", 16)) {
		printf("consumer: stressapptest: %s", line);
	} else if (sscanf(line, "Status: %15s", sat.status) == 1) {
		printf("consumer: stressapptest: %s", line);
	}
	fflush(stdout);
}

static int stress(void)
{
	unsigned long avail = meminfo("MemAvailable");
	char mib[32], secs[32];
	snprintf(mib, sizeof(mib), "%lu", avail * 9 / 10 / 1024);
	snprintf(secs, sizeof(secs), "%u", opt.stress_s);
	char *argv[] = { "/usr/bin/stressapptest", "-M", mib, "-s", secs, "-m", "1", NULL };
	printf("consumer: stress: stressapptest -M %s -s %s -m 1 (90 %% of MemAvailable %lu KiB)\n",
	       mib, secs, avail);
	fflush(stdout);
	strcpy(sat.status, "NONE");
	int rc = run(argv, sat_line);
	printf("consumer: result stress status=%s errors=%lu error_lines=%lu exit=%d\n",
	       sat.status, sat.incidents, sat.lines, rc);
	fflush(stdout);
	return sat.incidents == 0 && sat.lines == 0 && rc == 0 && !strcmp(sat.status, "PASS");
}

// ---- 2. the pressure ---------------------------------------------------------
#define CHUNK MiB
#define MAX_CHUNKS 65536

// Check every word of the N chunks against its address XOR INVERT; count
// the bad ones (the first few printed).
static unsigned long verify(uint64_t **chunk, size_t n, uint64_t invert, unsigned long *shown)
{
	unsigned long bad = 0;
	for (size_t c = 0; c < n; c++) {
		volatile uint64_t *w = chunk[c];
		for (size_t i = 0; i < CHUNK / 8; i++) {
			uint64_t want = (uint64_t)(uintptr_t)&w[i] ^ invert, got = w[i];
			if (__builtin_expect(got != want, 0)) {
				if ((*shown)++ < 5)
					printf("consumer: pressure: word %p: wrote 0x%016llx, read 0x%016llx\n",
					       (void *)&w[i], (unsigned long long)want,
					       (unsigned long long)got);
				bad++;
			}
		}
	}
	return bad;
}

static void fill(uint64_t *chunk, uint64_t invert)
{
	volatile uint64_t *w = chunk;
	for (size_t i = 0; i < CHUNK / 8; i++)
		w[i] = (uint64_t)(uintptr_t)&w[i] ^ invert;
}

// In a child (the OOM killer may take it): up to the limit, then exit with
// whether all words read back. Keeps 2 % of MemTotal (at least 4 MiB)
// available, so the kernel itself is not starved.
static void pressure_child(void)
{
	static uint64_t *chunk[MAX_CHUNKS];
	unsigned long total = meminfo("MemTotal"), keep = total / 50, bad = 0, shown = 0;
	size_t n = 0, step;
	if (keep < 4096)
		keep = 4096;
	step = (meminfo("MemAvailable") - keep) / 1024 / 10 + 1;
	while (n < MAX_CHUNKS && meminfo("MemAvailable") > keep + 1024) {
		void *p = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			break;
		chunk[n++] = p;
		fill(p, 0);
		if (n % step == 0)
			bad += verify(chunk, n, 0, &shown);
	}
	bad += verify(chunk, n, 0, &shown);
	for (size_t c = 0; c < n; c++)
		fill(chunk[c], ~0ull);
	bad += verify(chunk, n, ~0ull, &shown);
	printf("consumer: result pressure allocated_mib=%zu errors=%lu\n", n, bad);
	fflush(stdout);
	_exit(bad != 0);
}

static int pressure(void)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0)
		pressure_child();
	int status;
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status)) {
		printf("consumer: result pressure killed by signal %d\n", WTERMSIG(status));
		return 0;
	}
	return WEXITSTATUS(status) == 0;
}

// ---- 3. the measurements -----------------------------------------------------
static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

enum better { LOWER, HIGHER };

// Run ONE opt.rounds times; print the best result (the lowest time, or with
// HIGHER the highest rate) and the median.
static void measure(const char *name, const char *unit, enum better better,
		    double (*one)(size_t arg), size_t arg)
{
	double v[MAX_ROUNDS];
	for (unsigned r = 0; r < opt.rounds; r++)
		v[r] = one(arg);
	qsort(v, opt.rounds, sizeof(v[0]), by_value);
	printf("consumer: metric %s %.4g %s median=%.4g\n", name,
	       v[better == HIGHER ? opt.rounds - 1 : 0], unit, v[opt.rounds / 2]);
	fflush(stdout);
}

static uint64_t *buffer(size_t bytes)
{
	uint64_t *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		printf("consumer: cannot map %zu bytes: %s\n", bytes, strerror(errno));
		exit(2);
	}
	memset(p, 1, bytes);
	return p;
}

#define BW_BYTES (32 * MiB)
static uint64_t *bw_buf;

static double bw_read(size_t unused)
{
	(void)unused;
	volatile uint64_t sink;
	uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	double t = now_us();
	for (size_t i = 0; i < BW_BYTES / 8; i += 4) {
		s0 += bw_buf[i];
		s1 += bw_buf[i + 1];
		s2 += bw_buf[i + 2];
		s3 += bw_buf[i + 3];
	}
	t = now_us() - t;
	sink = s0 + s1 + s2 + s3;
	(void)sink;
	return BW_BYTES / t;	// bytes per µs = MB/s
}

static double bw_write(size_t unused)
{
	(void)unused;
	volatile uint64_t *w = bw_buf;
	double t = now_us();
	for (size_t i = 0; i < BW_BYTES / 8; i++)
		w[i] = i;
	return BW_BYTES / (now_us() - t);
}

static double mbw_mibs;

// mbw's "AVG	Method: MEMCPY	Elapsed: ...	MiB: ...	Copy: N MiB/s".
static void mbw_line(const char *line)
{
	const char *c = strstr(line, "Copy: ");
	if (!strncmp(line, "AVG", 3) && c)
		mbw_mibs = strtod(c + 6, NULL);
}

static double bw_copy(size_t unused)
{
	(void)unused;
	char *argv[] = { "/usr/bin/mbw", "-q", "-n", "2", "-t", "0", "32", NULL };
	mbw_mibs = 0;
	run(argv, mbw_line);
	return mbw_mibs * 1.048576;	// MiB/s to MB/s
}

// Pointer chasing over BYTES in a random cyclic order of 64-byte lines (so
// no prefetcher guesses the next): nanoseconds per dependent load.
#define CHASE_LOADS 1000000
static double lat_mem(size_t bytes)
{
	size_t lines = bytes / 64, stride = 64 / sizeof(void *);
	void **p = (void **)buffer(bytes);
	size_t *order = malloc(lines * sizeof(*order));
	for (size_t i = 0; i < lines; i++)
		order[i] = i;
	srandom(1);
	for (size_t i = lines - 1; i > 0; i--) {
		size_t j = (size_t)random() % (i + 1), t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (size_t i = 0; i < lines; i++)
		p[order[i] * stride] = &p[order[(i + 1) % lines] * stride];
	free(order);
	void **q = &p[0];
	for (size_t i = 0; i < lines; i++)	// warm the caches and TLBs
		q = *q;
	double t = now_us();
	for (size_t i = 0; i < CHASE_LOADS; i++)
		q = *q;
	t = now_us() - t;
	*(void *volatile *)&p[1] = q;
	munmap(p, bytes);
	return t * 1000 / CHASE_LOADS;
}

// Anonymous page faults: first writes to a fresh 16 MiB mapping, µs each.
#define FAULT_BYTES (16 * MiB)
static double lat_pagefault(size_t unused)
{
	(void)unused;
	char *p = mmap(NULL, FAULT_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	double t = now_us();
	for (size_t i = 0; i < FAULT_BYTES; i += 4096)
		p[i] = 1;
	t = now_us() - t;
	munmap(p, FAULT_BYTES);
	return t / (FAULT_BYTES / 4096);
}

#define PROC_LOOPS 100
static double lat_fork_exit(size_t unused)
{
	(void)unused;
	double t = now_us();
	for (int i = 0; i < PROC_LOOPS; i++) {
		pid_t pid = fork();
		if (pid == 0)
			_exit(0);
		waitpid(pid, NULL, 0);
	}
	return (now_us() - t) / PROC_LOOPS;
}

static double lat_fork_exec(size_t unused)
{
	(void)unused;
	char *argv[] = { "/payload", "--exit", NULL }, *envp[] = { NULL };
	double t = now_us();
	for (int i = 0; i < PROC_LOOPS / 2; i++) {
		pid_t pid = fork();
		if (pid == 0) {
			execve(argv[0], argv, envp);
			_exit(127);
		}
		waitpid(pid, NULL, 0);
	}
	return (now_us() - t) / (PROC_LOOPS / 2);
}

// A token of one word passed N times between two processes over two pipes:
// µs per round trip (pipe latency, as lmbench's lat_pipe).
#define TOKEN_PASSES 2000
static double ping_pong(void)
{
	int ab[2], ba[2];
	long tok = 0;
	if (pipe(ab) || pipe(ba))
		return 0;
	pid_t pid = fork();
	if (pid == 0) {
		// Only the parent may hold the write end: its close ends the loop.
		close(ab[1]);
		close(ba[0]);
		while (read(ab[0], &tok, sizeof(tok)) == sizeof(tok) &&
		       write(ba[1], &tok, sizeof(tok)) == sizeof(tok))
			;
		_exit(0);
	}
	close(ab[0]);
	close(ba[1]);
	double t = now_us();
	for (int i = 0; i < TOKEN_PASSES; i++)
		if (write(ab[1], &tok, sizeof(tok)) != sizeof(tok) ||
		    read(ba[0], &tok, sizeof(tok)) != sizeof(tok))
			break;
	t = now_us() - t;
	close(ab[1]);
	close(ba[0]);
	waitpid(pid, NULL, 0);
	return t / TOKEN_PASSES;
}

static double lat_pipe(size_t unused)
{
	(void)unused;
	return ping_pong();
}

// A 2-process context switch, as lmbench's lat_ctx -s 0 2: a round trip
// holds two switches and two writes and reads, whose cost without a switch
// (one process writing to and reading from its own pipe) is taken off.
static double lat_ctx(size_t unused)
{
	(void)unused;
	int p[2];
	long tok = 0;
	if (pipe(p))
		return 0;
	double t = now_us();
	for (int i = 0; i < TOKEN_PASSES; i++)
		if (write(p[1], &tok, sizeof(tok)) != sizeof(tok) ||
		    read(p[0], &tok, sizeof(tok)) != sizeof(tok))
			break;
	double overhead = (now_us() - t) / TOKEN_PASSES;
	close(p[0]);
	close(p[1]);
	return (ping_pong() - 2 * overhead) / 2;
}

// mmap of 4 MiB anonymous memory, a write every 16 KiB, munmap: µs each
// (lmbench's lat_mmap maps a file the same way).
#define MMAP_BYTES (4 * MiB)
#define MMAP_LOOPS 50
static double lat_mmap(size_t unused)
{
	(void)unused;
	double t = now_us();
	for (int i = 0; i < MMAP_LOOPS; i++) {
		char *p = mmap(NULL, MMAP_BYTES, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		for (size_t o = 0; o < MMAP_BYTES; o += 16384)
			p[o] = 1;
		munmap(p, MMAP_BYTES);
	}
	return (now_us() - t) / MMAP_LOOPS;
}

static void measurements(void)
{
	pid_t hog[MAX_HOGS];
	for (unsigned i = 0; i < opt.hogs; i++)
		if ((hog[i] = fork()) == 0)
			for (;;)
				__asm__ volatile("" ::: "memory");
	if (opt.hogs) {
		printf("consumer: %u processes spin beside the measurements (consumer_hog)\n", opt.hogs);
		fflush(stdout);
	}
	bw_buf = buffer(BW_BYTES);
	measure("bw_read", "MB/s", HIGHER, bw_read, 0);
	measure("bw_write", "MB/s", HIGHER, bw_write, 0);
	munmap(bw_buf, BW_BYTES);
	measure("bw_copy_mbw", "MB/s", HIGHER, bw_copy, 0);
	// Sizes from the caches up to a quarter of the RAM.
	unsigned long limit = meminfo("MemTotal") * 1024 / 4;
	for (size_t kib = 16; kib * 1024 <= limit; kib *= 8) {
		char name[32];
		snprintf(name, sizeof(name), "lat_mem_%zuK", kib);
		measure(name, "ns", LOWER, lat_mem, kib * 1024);
	}
	measure("lat_pagefault", "us", LOWER, lat_pagefault, 0);
	measure("lat_fork_exit", "us", LOWER, lat_fork_exit, 0);
	measure("lat_fork_exec", "us", LOWER, lat_fork_exec, 0);
	measure("lat_pipe", "us", LOWER, lat_pipe, 0);
	measure("lat_ctx_2p", "us", LOWER, lat_ctx, 0);
	measure("lat_mmap_4M", "us", LOWER, lat_mmap, 0);
	for (unsigned i = 0; i < opt.hogs; i++) {
		kill(hog[i], SIGKILL);
		waitpid(hog[i], NULL, 0);
	}
}

// ---- 4. the kernel's word ----------------------------------------------------
static const char *const bad_news[] = {
	"BUG", "Oops", "general protection", "Bad page", "segfault", "invalid opcode",
	"corrupt", "Call Trace", "Out of memory", "Killed process", "traps:",
};

static unsigned long kernel_messages(void)
{
	static char klog[1 << 20];
	unsigned long hits = 0;
	int n = klogctl(3, klog, sizeof(klog));	// SYSLOG_ACTION_READ_ALL
	for (char *l = klog; n > 0 && l < klog + n;) {
		char *e = memchr(l, '\n', (size_t)(klog + n - l));
		if (!e)
			e = klog + n;
		for (size_t i = 0; i < sizeof(bad_news) / sizeof(bad_news[0]); i++)
			if (memmem(l, (size_t)(e - l), bad_news[i], strlen(bad_news[i]))) {
				if (hits++ < 20)
					printf("consumer: kernel: %.*s\n", (int)(e - l), l);
				break;
			}
		l = e + 1;
	}
	printf("consumer: result kernel bad_messages=%lu\n", hits);
	return hits;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--exit"))
		return 0;
	params();
	printf("consumer: begin stress=%u measure=%u rounds=%u MemTotal=%lu kB MemAvailable=%lu kB\n",
	       opt.stress_s, opt.measure, opt.rounds, meminfo("MemTotal"), meminfo("MemAvailable"));
	int ok = 1;
	if (opt.stress_s)
		ok &= stress();
	ok &= pressure();
	if (opt.measure)
		measurements();
	ok &= kernel_messages() == 0;
	printf("consumer: end %s\n", ok ? "clean" : "corruption");
	fflush(stdout);
	return !ok;
}
