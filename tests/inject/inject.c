// SPDX-License-Identifier: GPL-2.0-or-later
// ramsift-inject: hold stuck-at faults in a QEMU guest's RAM. QEMU backs the
// guest RAM with a shared file (-object memory-backend-file,...,share=on
// -machine memory-backend=...); this program maps the same file and keeps
// forcing chosen bits, so the guest sees cells stuck at 0 or 1, which it
// cannot tell from a bad DRAM cell. Runs until killed or until --pid exits.
//
// usage: ramsift-inject --file PATH [--low-ram BYTES] [--pid PID] FAULT...
//   FAULT    ADDR:BIT:VALUE, ADDR the guest-physical address of a 64-bit
//            word (multiple of 8), BIT 0..63 within it, VALUE 0 or 1
//   --low-ram  guest RAM below the PCI hole; addresses at or above 4 GiB
//            are at file offset ADDR - 4 GiB + low-ram. Default: the file
//            size, or 3 GiB when the file is 3.5 GiB or larger (QEMU's pc
//            machine; q35 splits at 2 GiB: pass --low-ram 0x80000000).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define GiB (1ull << 30)
#define MAX_FAULTS 4096

struct fault {
	volatile uint64_t *word;
	uint64_t bit;
	int value;
};

static void usage(const char *why)
{
	fprintf(stderr, "ramsift-inject: %s\n"
		"usage: ramsift-inject --file PATH [--low-ram BYTES] [--pid PID] ADDR:BIT:VALUE...\n",
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

int main(int argc, char **argv)
{
	const char *path = NULL;
	uint64_t low_ram = 0;
	pid_t pid = 0;
	static struct fault faults[MAX_FAULTS];
	size_t nfaults = 0;
	int i = 1;

	for (; i < argc && argv[i][0] == '-'; i += 2) {
		if (i + 1 >= argc)
			usage("option without a value");
		if (!strcmp(argv[i], "--file"))
			path = argv[i + 1];
		else if (!strcmp(argv[i], "--low-ram"))
			low_ram = number(argv[i + 1], "--low-ram: not a number");
		else if (!strcmp(argv[i], "--pid"))
			pid = (pid_t)number(argv[i + 1], "--pid: not a number");
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
	uint64_t size = (uint64_t)st.st_size;
	if (!low_ram)
		low_ram = size >= 0xe0000000ull ? 3 * GiB : size;
	uint8_t *ram = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (ram == MAP_FAILED) {
		fprintf(stderr, "ramsift-inject: mmap %s: %s\n", path, strerror(errno));
		return 1;
	}
	for (; i < argc; i++) {
		char *a = argv[i], *b = strchr(a, ':'), *c = b ? strchr(b + 1, ':') : NULL;
		if (!c || nfaults == MAX_FAULTS)
			usage("a fault is ADDR:BIT:VALUE (at most 4096)");
		*b = *c = '\0';
		uint64_t addr = number(a, "fault address: not a number");
		uint64_t bit = number(b + 1, "fault bit: not a number");
		uint64_t value = number(c + 1, "fault value: not a number");
		uint64_t off = addr < low_ram ? addr : addr - 4 * GiB + low_ram;
		if (addr % 8 || bit > 63 || value > 1 || (addr >= low_ram && addr < 4 * GiB) ||
		    off + 8 > size)
			usage("fault outside guest RAM, unaligned, or bit/value out of range");
		faults[nfaults++] = (struct fault){ (volatile uint64_t *)(ram + off), 1ull << bit,
						    (int)value };
	}
	if (!nfaults)
		usage("no faults given");

	// Force the bits for as long as the guest runs. Polling at full speed
	// keeps the window in which the guest could read a just-written good
	// value far shorter than any test's write-to-read distance.
	for (unsigned long loops = 0;; loops++) {
		for (size_t f = 0; f < nfaults; f++) {
			uint64_t w = *faults[f].word;
			uint64_t forced = faults[f].value ? w | faults[f].bit : w & ~faults[f].bit;
			if (forced != w)
				*faults[f].word = forced;
		}
		if (pid && loops % 100000 == 0 && kill(pid, 0) != 0)
			return 0;
		__builtin_ia32_pause();
	}
}
