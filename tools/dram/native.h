// SPDX-License-Identifier: GPL-2.0-or-later
// The machine ramsift-dram runs on, as lib/dram's timing callback sees it
// (Linux, x86-64, root): a buffer of 2 MiB huge pages (hugetlbfs, raising
// /proc/sys/vm/nr_hugepages for the run if it must, else transparent huge
// pages checked for physical contiguity), their physical addresses from
// /proc/self/pagemap, and the latency of a pair from clflush, mfence and
// rdtsc (lfence-ordered: rdtscp is not on every x86-64 a hypervisor shows).
#ifndef RAMSIFT_TOOLS_DRAM_NATIVE_H
#define RAMSIFT_TOOLS_DRAM_NATIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "range.h"

#define NATIVE_HUGE (2u << 20)
#define NATIVE_MAX_PAGES 64	// 128 MiB of huge pages at most

struct native {
	struct range ranges[NATIVE_MAX_PAGES];	// sorted by physical address
	uint8_t *virt[NATIVE_MAX_PAGES];	// where ranges[i] is mapped
	size_t n;
	void *buf;
	size_t len;
	long saved_nr;		// nr_hugepages before the run, -1: untouched
	struct timespec deadline;
};

// Map pages huge pages (1..NATIVE_MAX_PAGES) and find their physical
// addresses; the run must end seconds from now. NULL on success, else why
// not, for a person ("not root", "no huge pages: ...").
const char *native_open(struct native *nt, size_t pages, unsigned seconds);

// Unmap the buffer and restore nr_hugepages.
void native_close(struct native *nt);

// lib/dram's callbacks (ctx: a struct native).
uint32_t native_time_pair(void *ctx, uint64_t a, uint64_t b);
bool native_expired(void *ctx);

#endif
