// SPDX-License-Identifier: GPL-2.0-or-later
// The host machine's memory and timing for ramsift-dram (native.h).
#define _GNU_SOURCE	// sched_getcpu, CPU_SET: stay on one CPU
#include "native.h"

#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define NR_HUGEPAGES "/proc/sys/vm/nr_hugepages"
// Reads of each address per round: one round's ticks are their average.
#define NATIVE_ALTERNATIONS 4

static long read_nr(void)
{
	FILE *f = fopen(NR_HUGEPAGES, "r");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static bool write_nr(long v)
{
	FILE *f = fopen(NR_HUGEPAGES, "w");
	bool ok;

	if (!f)
		return false;
	ok = fprintf(f, "%ld\n", v) > 0;
	return fclose(f) == 0 && ok;
}

static void *map_hugetlb(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_POPULATE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

// hugetlbfs pages, with nr_hugepages raised for them if none are free.
static void *map_huge(struct native *nt, size_t pages)
{
	void *p = map_hugetlb(pages * NATIVE_HUGE);
	long nr;

	if (p)
		return p;
	nr = read_nr();
	if (nr < 0 || !write_nr(nr + (long)pages))
		return NULL;
	nt->saved_nr = nr;
	return map_hugetlb(pages * NATIVE_HUGE);
}

// Transparent huge pages: a 2 MiB-aligned anonymous area, advised.
static void *map_thp(size_t pages)
{
	size_t len = pages * NATIVE_HUGE;
	uint8_t *p = mmap(NULL, len + NATIVE_HUGE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t *a;

	if (p == MAP_FAILED)
		return NULL;
	a = (uint8_t *)(((uintptr_t)p + NATIVE_HUGE - 1) & ~(uintptr_t)(NATIVE_HUGE - 1));
	if (a > p)
		munmap(p, (size_t)(a - p));
	munmap(a + len, (size_t)(p + NATIVE_HUGE - a));
	madvise(a, len, MADV_HUGEPAGE);
	for (size_t i = 0; i < len; i += 4096)
		a[i] = 1;
	mlock(a, len);	// best effort: a page swapped out would move
	return a;
}

// The physical address of the 4 KiB page at v, 0 when hidden or absent.
static uint64_t phys(int fd, const void *v)
{
	uint64_t e;
	off_t off = (off_t)((uintptr_t)v / 4096 * 8);

	if (pread(fd, &e, 8, off) != 8 || !(e >> 63 & 1))
		return 0;
	return (e & ((1ull << 55) - 1)) * 4096;
}

// The huge page at v: its physical start, 0 unless 512 contiguous pages
// from a 2 MiB-aligned physical address.
static uint64_t huge_phys(int fd, const uint8_t *v)
{
	uint64_t start = phys(fd, v);

	if (!start || start % NATIVE_HUGE)
		return 0;
	for (size_t i = 4096; i < NATIVE_HUGE; i += 4096)
		if (phys(fd, v + i) != start + i)
			return 0;
	return start;
}

// Record the buffer's huge pages, sorted by physical address.
static void find_pages(struct native *nt, int fd, size_t pages)
{
	for (size_t i = 0; i < pages; i++) {
		uint8_t *v = (uint8_t *)nt->buf + i * NATIVE_HUGE;
		uint64_t p = huge_phys(fd, v);
		size_t j = nt->n;

		if (!p)
			continue;
		for (; j > 0 && nt->ranges[j - 1].start > p; j--) {
			nt->ranges[j] = nt->ranges[j - 1];
			nt->virt[j] = nt->virt[j - 1];
		}
		nt->ranges[j] = (struct range){ p, p + NATIVE_HUGE };
		nt->virt[j] = v;
		nt->n++;
	}
}

// Stay on the CPU we run on: a migration mid-round would time two caches
// (best effort, as Pessl et al. run their tool under taskset).
static void pin_cpu(void)
{
	int cpu = sched_getcpu();
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

const char *native_open(struct native *nt, size_t pages, unsigned seconds)
{
	int fd;

	*nt = (struct native){ .saved_nr = -1 };
	if (geteuid() != 0)
		return "not root: physical addresses and huge pages need root";
	if (pages < 1 || pages > NATIVE_MAX_PAGES)
		return "bad buffer size";
	nt->len = pages * NATIVE_HUGE;
	nt->buf = map_huge(nt, pages);
	if (!nt->buf)
		nt->buf = map_thp(pages);
	if (!nt->buf)
		return "no huge pages: neither hugetlbfs nor transparent huge pages";
	fd = open("/proc/self/pagemap", O_RDONLY);
	if (fd < 0)
		return "no /proc/self/pagemap";
	find_pages(nt, fd, pages);
	close(fd);
	if (!nt->n)
		return "no huge pages: none physically contiguous, or pagemap hides addresses";
	pin_cpu();
	clock_gettime(CLOCK_MONOTONIC, &nt->deadline);
	nt->deadline.tv_sec += seconds;
	return NULL;
}

void native_close(struct native *nt)
{
	if (nt->buf)
		munmap(nt->buf, nt->len);
	if (nt->saved_nr >= 0)
		write_nr(nt->saved_nr);
	nt->buf = NULL;
	nt->saved_nr = -1;
}

// The virtual address of physical address pa (in one of the pages).
static volatile uint8_t *virt(const struct native *nt, uint64_t pa)
{
	size_t lo = 0, hi = nt->n;

	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (nt->ranges[mid].start <= pa)
			lo = mid;
		else
			hi = mid;
	}
	return nt->virt[lo] + (pa - nt->ranges[lo].start);
}

static inline uint64_t ticks(void)
{
	uint32_t lo, hi;

	__asm__ volatile("mfence; lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

static inline void flush(volatile uint8_t *p)
{
	__asm__ volatile("clflush (%0)" : : "r"(p) : "memory");
}

uint32_t native_time_pair(void *ctx, uint64_t a, uint64_t b)
{
	const struct native *nt = ctx;
	volatile uint8_t *pa = virt(nt, a), *pb = virt(nt, b);
	uint64_t t0, t1;

	flush(pa);
	flush(pb);
	t0 = ticks();
	for (int i = 0; i < NATIVE_ALTERNATIONS; i++) {
		(void)*pa;
		(void)*pb;
		flush(pa);
		flush(pb);
		__asm__ volatile("mfence" : : : "memory");
	}
	t1 = ticks();
	return (uint32_t)((t1 - t0) / NATIVE_ALTERNATIONS);
}

bool native_expired(void *ctx)
{
	const struct native *nt = ctx;
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > nt->deadline.tv_sec ||
	       (now.tv_sec == nt->deadline.tv_sec && now.tv_nsec >= nt->deadline.tv_nsec);
}
