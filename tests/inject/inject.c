// SPDX-License-Identifier: GPL-2.0-or-later
// ramsift-inject: hold stuck-at and flaky faults in a QEMU guest's RAM. QEMU
// backs the guest RAM with a shared file (-object memory-backend-file,...,
// share=on); this program maps the same file and keeps forcing chosen bits,
// so the guest sees cells it cannot tell from bad DRAM. A flaky cell undoes
// a guest write away from its fault value with the given probability. Runs
// until killed or until --pid exits.
//	ramsift-inject --file PATH [--low-ram BYTES] [--pid PID] [--faults FILE]
//	               [--seed N] [--period-us N] [ADDR:BIT:VALUE[:PERCENT]...]
// ADDR a 64-bit word's guest-physical address, PERCENT the chance a write is
// undone (100: stuck-at); --faults a file of them (faultgen's); above 4 GiB
// the file offset is ADDR - 4 GiB + --low-ram (default the file size, or
// 3 GiB from 3.5 GiB up, QEMU's pc; q35 splits at 2 GiB); --seed seeds the
// flaky cells' coin (1), --period-us pauses between rounds (100).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "const.h"
#include "memtest/prng.h"

struct fault {
	uint64_t *word;
	uint64_t bit;
	int value;
	unsigned percent;       // 100: stuck-at
	uint64_t seen;          // flaky: the word as last seen or left
};

static struct {
	struct fault *f;
	size_t n, cap;
	uint8_t *ram;
	uint64_t size, low_ram;
} inj;

static void usage(const char *why)
{
	fprintf(stderr, "ramsift-inject: %s\n"
		"usage: ramsift-inject --file PATH [--low-ram BYTES] [--pid PID] [--faults FILE]\n"
		"                      [--seed N] [--period-us N] [ADDR:BIT:VALUE[:PERCENT]...]\n",
		why);
	exit(2);
}

static uint64_t number(const char *s, const char *what)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || end == s || *end)
		usage(what);
	return v;
}

// Parse one ADDR:BIT:VALUE[:PERCENT] (s is modified) and add it.
static void add_fault(char *s)
{
	char *field[4] = { s, NULL, NULL, NULL };
	size_t n = 1;
	for (char *p = s; *p && n < 4; p++)
		if (*p == ':') {
			*p = '\0';
			field[n++] = p + 1;
		}
	if (n < 3 || strchr(field[n - 1], ':'))
		usage("a fault is ADDR:BIT:VALUE[:PERCENT]");
	uint64_t addr = number(field[0], "fault address: not a number");
	uint64_t bit = number(field[1], "fault bit: not a number");
	uint64_t value = number(field[2], "fault value: not a number");
	uint64_t percent = n == 4 ? number(field[3], "fault percent: not a number") : 100;
	uint64_t off = addr < inj.low_ram ? addr : addr - 4 * GiB + inj.low_ram;
	if (addr % 8 || bit > 63 || value > 1 || percent < 1 || percent > 100 ||
	    (addr >= inj.low_ram && addr < 4 * GiB) || off + 8 > inj.size)
		usage("fault outside guest RAM, unaligned, or bit/value/percent out of range");
	if (inj.n == inj.cap) {
		inj.cap = inj.cap ? 2 * inj.cap : 256;
		inj.f = realloc(inj.f, inj.cap * sizeof(*inj.f));
		if (!inj.f)
			usage("out of memory");
	}
	uint64_t *word = (uint64_t *)(inj.ram + off);
	inj.f[inj.n++] = (struct fault){ word, 1ull << bit, (int)value, (unsigned)percent,
					 __atomic_load_n(word, __ATOMIC_RELAXED) };
}

static void read_faults(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256];
	if (!f) {
		fprintf(stderr, "ramsift-inject: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, " \t\r\n")] = '\0';
		if (line[0] && line[0] != '#')
			add_fault(line);
	}
	fclose(f);
}

static uint64_t rng_state;

static uint64_t rng(void)
{
	return prng_splitmix64(&rng_state);
}

// Put the fault's bit to its value with one atomic read-modify-write, so a
// guest store landing at the same moment is never overwritten with a stale
// copy of the other 63 bits. Returns the word as left.
static uint64_t force(const struct fault *f)
{
	if (f->value)
		return __atomic_or_fetch(f->word, f->bit, __ATOMIC_RELAXED);
	return __atomic_and_fetch(f->word, ~f->bit, __ATOMIC_RELAXED);
}

static void round_over_faults(void)
{
	for (size_t i = 0; i < inj.n; i++) {
		struct fault *f = &inj.f[i];
		uint64_t w = __atomic_load_n(f->word, __ATOMIC_RELAXED);
		bool away = ((w & f->bit) != 0) != (f->value != 0);
		if (f->percent == 100) {
			if (away)
				force(f);
			continue;
		}
		// Flaky: one coin per new value the guest wrote.
		if (w == f->seen)
			continue;
		f->seen = away && rng() % 100 < f->percent ? force(f) : w;
	}
}

int main(int argc, char **argv)
{
	const char *path = NULL, *faults_file = NULL;
	pid_t pid = 0;
	uint64_t period_us = 100;
	int i = 1;

	rng_state = 1;
	for (; i < argc && argv[i][0] == '-'; i += 2) {
		if (i + 1 >= argc)
			usage("option without a value");
		if (!strcmp(argv[i], "--file"))
			path = argv[i + 1];
		else if (!strcmp(argv[i], "--low-ram"))
			inj.low_ram = number(argv[i + 1], "--low-ram: not a number");
		else if (!strcmp(argv[i], "--pid"))
			pid = (pid_t)number(argv[i + 1], "--pid: not a number");
		else if (!strcmp(argv[i], "--faults"))
			faults_file = argv[i + 1];
		else if (!strcmp(argv[i], "--seed"))
			rng_state = number(argv[i + 1], "--seed: not a number");
		else if (!strcmp(argv[i], "--period-us"))
			period_us = number(argv[i + 1], "--period-us: not a number");
		else
			usage("unknown option");
	}
	if (!path)
		usage("--file is required");
	int fd = open(path, O_RDWR);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		fprintf(stderr, "ramsift-inject: %s: %s\n", path, strerror(errno));
		return 1;
	}
	inj.size = (uint64_t)st.st_size;
	if (!inj.low_ram)
		inj.low_ram = inj.size >= 0xe0000000ull ? 3 * GiB : inj.size;
	inj.ram = mmap(NULL, inj.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (inj.ram == MAP_FAILED) {
		fprintf(stderr, "ramsift-inject: mmap %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (faults_file)
		read_faults(faults_file);
	for (; i < argc; i++)
		add_fault(argv[i]);
	if (!inj.n)
		usage("no faults given");

	// The guest's QEMU threads compete for the same cores: with the default
	// priority a busy host could leave the injector unscheduled for longer
	// than a test's write-to-read distance, and a held bit would go unseen.
	// A better nice value keeps its short rounds on time (as root; anyone
	// else runs at the default, which is what it is without privilege).
	(void)setpriority(PRIO_PROCESS, 0, -19);

	// Force the bits for as long as the guest runs. A round takes
	// microseconds and the pause is short, so the window in which the guest
	// could read back a just-written good value stays far shorter than any
	// test's write-to-read distance (a sweep over at least the megabytes
	// ramsift occupies), while the program leaves the CPU to QEMU.
	struct timespec pause = { (time_t)(period_us / 1000000),
				  (long)(period_us % 1000000 * 1000) };
	for (unsigned long rounds = 0;; rounds++) {
		round_over_faults();
		if (pid && rounds % 1000 == 0 && kill(pid, 0) != 0)
			return 0;
		if (period_us)
			nanosleep(&pause, NULL);
		else
			__builtin_ia32_pause();
	}
}
