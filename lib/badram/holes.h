// SPDX-License-Identifier: GPL-2.0-or-later
// The ranges of Linux's memmap=SIZE$ADDR[,SIZE$ADDR...] line: the failing
// pages merged into runs, then, while the line would be too long for the
// kernel command line, the cheapest gaps between runs filled (fewest good
// RAM pages first; a gap holding non-RAM, e.g. the PCI hole, only as a last
// resort, since reserving MMIO can upset PCI resource allocation). Filling
// the k cheapest gaps is the least memory any k-merge can cost, so the line
// sacrifices the fewest good pages that let it fit. When a failure lies
// where Linux may put its kernel, the same filling also keeps the ranges
// few enough for Linux's KASLR (see HOLES_LINUX_MAX_MEMMAP_REGIONS).
#ifndef RAMSIFT_LIB_BADRAM_HOLES_H
#define RAMSIFT_LIB_BADRAM_HOLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "badram/cube.h"
#include "range.h"

#define HOLES_PREFIX "memmap="

// Linux's x86 decompressor (arch/x86/boot/compressed/kaslr.c) honours at
// most MAX_MEMMAP_REGIONS = 4 memmap= regions when it picks where the kernel
// goes; given more, it turns KASLR off, puts the kernel at LOAD_PHYSICAL_ADDR
// (16 MiB) whatever they reserve, and later hands its own image back as RAM,
// so a failing page there ends up under the kernel. With at most 4 regions
// KASLR stays on and places the kernel clear of them.
#define HOLES_LINUX_MAX_MEMMAP_REGIONS 4
// End of where a kernel loaded at 16 MiB may sit: 16 MiB + 256 MiB, a
// generous bound on a distribution kernel's image and bss.
#define HOLES_LINUX_KERNEL_WINDOW_END ((16ULL + 256) << 20)

// How a memmap SIZE is written: bytes = value << shift, with the unit letter
// ('G', 'M' or 'K') of the largest unit that divides bytes (a multiple of
// 4 KiB).
struct holes_size {
	uint64_t value;
	char unit;
};
struct holes_size holes_size_of(uint64_t bytes);

// Length of the memmap line for the byte ranges r[0..n) (n >= 1): "memmap="
// then "SIZE$0xADDR" per range, comma-separated, no trailing NUL.
size_t holes_line_len(const struct range *r, size_t n);

// The failures holes_ranges reserves, and the room it has.
struct holes_request {
	const uint64_t *page;		// failing pages, sorted and distinct
	size_t npages;
	const struct cube *extra;	// failing cubes, each taken as the span
	size_t nextra;			// from its lowest to its highest page
	const struct universe *u;	// the RAM
	size_t max_chars;		// the line's length at most
	struct range *work;		// scratch for the extra cubes' pieces,
	size_t work_cap;		// at least nextra * (u->nram + 1) of them
};

// Compute the memmap ranges for req's failing pages and every page of its
// extra cubes, as far as they are RAM: memmap= can only take RAM away, so
// failures outside the map are left out. Writes byte ranges, sorted and
// disjoint, to out[0..cap) and returns their count, choosing the fewest
// good RAM pages for which the line is at most req->max_chars long (raised
// to BADRAM_MEMMAP_MIN_CHARS) and the count at most cap (cap >= 1). If a
// failing RAM page lies below HOLES_LINUX_KERNEL_WINDOW_END and that choice
// has more than HOLES_LINUX_MAX_MEMMAP_REGIONS ranges, the count is held to
// that many instead (again the fewest good RAM pages) and *kaslr_capped
// set; otherwise *kaslr_capped is false. Returns 0 when there is nothing to
// reserve or req->work is too small. Time O((npages + pieces) * log(nram))
// per probe, about 70 probes (140 when capped).
size_t holes_ranges(const struct holes_request *req, struct range *out, size_t cap,
		    bool *kaslr_capped);

#endif
