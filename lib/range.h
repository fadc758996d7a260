// SPDX-License-Identifier: GPL-2.0-or-later
// Physical address ranges and the firmware memory map. The loader's map is
// untrusted input: mmap_normalize() turns it into the sorted, disjoint,
// page-aligned list of RAM that is safe to test, reporting everything odd
// about it through a callback. All addresses are physical, in bytes.
#ifndef RAMSIFT_LIB_RANGE_H
#define RAMSIFT_LIB_RANGE_H

#include <stddef.h>
#include <stdint.h>

#include "page.h"

#define RANGE_MAX_ADDR (1ULL << 52)   // x86-64 MAXPHYADDR architectural limit

// A half-open physical range [start, end), start < end <= RANGE_MAX_ADDR.
struct range {
	uint64_t start, end;
};

// Memory-map entry types (Multiboot 1/2 and E820 share the numbering).
enum mmap_type {
	MMAP_USABLE = 1,
	MMAP_RESERVED = 2,
	MMAP_ACPI = 3,          // ACPI reclaimable
	MMAP_NVS = 4,           // ACPI NVS
	MMAP_BAD = 5,           // defective RAM
};

// One entry as the loader reported it: len bytes from base, of type.
struct mmap_entry {
	uint64_t base, len;
	uint32_t type;
};

// Reports an entry that was dropped or changed. e points to the caller's
// entry, or, for a warning about a merged range (a usable range that
// vanished after page alignment), to a temporary entry of type MMAP_USABLE
// describing that range; e is NULL for a warning about the map as a whole
// (more ranges than fit in the output). e is valid only during the call;
// why is a short NUL-terminated English reason.
typedef void (*range_warn_fn)(void *ctx, const struct mmap_entry *e,
			      const char *why);

// Compute the usable RAM described by in[0..n): the union of the
// MMAP_USABLE entries minus the union of all other entries (any type other
// than 1, including unknown ones, is unusable and wins over an overlapping
// usable entry), with each resulting range shrunk to PAGE_SIZE
// boundaries (start rounded up, end rounded down). Writes the result to
// out[0..cap), sorted by address, disjoint, adjacent ranges merged, and
// returns the count. in is not modified and may be in any order.
// Warns (warn may be NULL) and then:
//   - drops entries of length 0, or starting at or above RANGE_MAX_ADDR;
//   - clips to RANGE_MAX_ADDR entries ending above it, including those whose
//     base + len overflows 64 bits;
//   - once per usable entry that overlaps an unusable one, treats the
//     overlap as unusable;
//   - drops a usable range that vanishes under page alignment;
//   - when more than cap ranges result, keeps the lowest cap and warns once
//     with e == NULL.
// Needs no memory besides out and a few words of stack. Time is
// O(n^2) (about 2n passes over in), fine for the few thousand entries GRUB's
// badram can produce. in may be NULL when n == 0; out may be NULL when
// cap == 0.
size_t mmap_normalize(const struct mmap_entry *in, size_t n, struct range *out,
		      size_t cap, range_warn_fn warn, void *ctx);

// Remove cut from r[0..n) in place and return the new count. r must be
// sorted and disjoint, with room for cap >= n entries. Ranges wholly inside
// cut disappear; one straddling an edge of cut is trimmed; one containing
// cut is split in two, which needs one more slot; if n == cap already, the
// part above cut is dropped instead, so the result still never overlaps
// cut (compare range_total() before and after to detect the loss). A cut
// with start >= end changes nothing.
size_t range_subtract(struct range *r, size_t n, size_t cap, struct range cut);

// Sum of end - start over r[0..n), in bytes.
uint64_t range_total(const struct range *r, size_t n);

#endif
