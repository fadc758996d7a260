// SPDX-License-Identifier: GPL-2.0-or-later
// Memory-map normalisation and range arithmetic (see range.h). mmap_normalize
// needs no scratch space: it sweeps the address line from low to high,
// jumping from one entry boundary to the next. At each boundary one pass
// over the entries tells whether the address is covered by usable and by
// unusable entries, and where the next boundary is; a maximal usable stretch
// becomes one output range. Results come out sorted and merged by
// construction, and stop cleanly when out is full.
#include <stdbool.h>

#include "range.h"
#include "memstr.h"

// The entry's extent clipped to RANGE_MAX_ADDR, or false when it is empty
// or starts beyond the limit. Pure, so the sweep can call it every pass.
static bool entry_span(const struct mmap_entry *e, uint64_t *start,
		       uint64_t *end)
{
	if (e->len == 0 || e->base >= RANGE_MAX_ADDR)
		return false;
	*start = e->base;
	// base < 2^52, so comparing len with the room left cannot overflow.
	*end = e->len > RANGE_MAX_ADDR - e->base ? RANGE_MAX_ADDR
						 : e->base + e->len;
	return true;
}

static void warn_entry(range_warn_fn warn, void *ctx,
		       const struct mmap_entry *e, const char *why)
{
	if (warn != NULL)
		warn(ctx, e, why);
}

// First pass: one warning per suspicious entry.
static void check_entries(const struct mmap_entry *in, size_t n,
			  range_warn_fn warn, void *ctx)
{
	for (size_t i = 0; i < n; i++) {
		const struct mmap_entry *e = &in[i];
		uint64_t s, t;

		if (e->len == 0) {
			warn_entry(warn, ctx, e, "zero length; ignored");
			continue;
		}
		if (e->base >= RANGE_MAX_ADDR) {
			warn_entry(warn, ctx, e, "starts above the 52-bit physical address limit; ignored");
			continue;
		}
		if (e->len > UINT64_MAX - e->base)
			warn_entry(warn, ctx, e, "base + length overflows 64 bits; clipped to the 52-bit physical address limit");
		else if (e->base + e->len > RANGE_MAX_ADDR)
			warn_entry(warn, ctx, e, "ends above the 52-bit physical address limit; clipped");
		if (e->type != MMAP_USABLE || !entry_span(e, &s, &t))
			continue;
		for (size_t j = 0; j < n; j++) {
			uint64_t rs, rt;

			if (in[j].type == MMAP_USABLE || !entry_span(&in[j], &rs, &rt))
				continue;
			if (rs < t && s < rt) {
				warn_entry(warn, ctx, e, "overlaps a reserved entry; the overlap is treated as reserved");
				break;
			}
		}
	}
}

// Page-align a usable stretch and append it; false when out is full.
static bool emit(struct range *out, size_t cap, size_t *count, uint64_t start,
		 uint64_t end, range_warn_fn warn, void *ctx)
{
	const uint64_t mask = PAGE_SIZE - 1;
	// end <= 2^52, so rounding start up cannot overflow.
	uint64_t s = (start + mask) & ~mask;
	uint64_t t = end & ~mask;

	if (s >= t) {
		struct mmap_entry tmp = { start, end - start, MMAP_USABLE };

		warn_entry(warn, ctx, &tmp, "smaller than a 4 KiB page after alignment; dropped");
		return true;
	}
	if (*count == cap) {
		warn_entry(warn, ctx, NULL, "more usable ranges than fit; the highest are ignored");
		return false;
	}
	out[*count].start = s;
	out[*count].end = t;
	(*count)++;
	return true;
}

size_t mmap_normalize(const struct mmap_entry *in, size_t n, struct range *out,
		      size_t cap, range_warn_fn warn, void *ctx)
{
	size_t count = 0;
	uint64_t pos = 0;
	uint64_t run_start = 0;
	bool in_run = false;

	check_entries(in, n, warn, ctx);
	for (;;) {
		bool usable = false, reserved = false;
		// No span ends above RANGE_MAX_ADDR, so UINT64_MAX means "none".
		uint64_t next = UINT64_MAX;

		for (size_t i = 0; i < n; i++) {
			uint64_t s, t;

			if (!entry_span(&in[i], &s, &t))
				continue;
			if (s <= pos && pos < t) {
				if (in[i].type == MMAP_USABLE)
					usable = true;
				else
					reserved = true;
			}
			if (s > pos && s < next)
				next = s;
			if (t > pos && t < next)
				next = t;
		}
		usable = usable && !reserved;
		if (usable && !in_run) {
			run_start = pos;
			in_run = true;
		} else if (!usable && in_run) {
			in_run = false;
			if (!emit(out, cap, &count, run_start, pos, warn, ctx))
				break;
		}
		// Past the last boundary nothing is covered, so no run is open.
		if (next == UINT64_MAX)
			break;
		pos = next;
	}
	return count;
}

size_t range_subtract(struct range *r, size_t n, size_t cap, struct range cut)
{
	size_t i = 0;

	if (cut.start >= cut.end)
		return n;
	while (i < n) {
		struct range *x = &r[i];

		if (x->end <= cut.start || x->start >= cut.end) {
			i++;            // disjoint
		} else if (x->start >= cut.start && x->end <= cut.end) {
			mem_move(x, x + 1, (n - i - 1) * sizeof(*x));
			n--;            // wholly inside cut
		} else if (x->start < cut.start && x->end > cut.end) {
			// cut is strictly inside x: split, or keep only the
			// lower part when there is no slot for the upper one.
			if (n < cap) {
				mem_move(x + 2, x + 1, (n - i - 1) * sizeof(*x));
				x[1].start = cut.end;
				x[1].end = x->end;
				n++;
			}
			x->end = cut.start;
			break;          // the list is disjoint: nothing else overlaps
		} else if (x->start < cut.start) {
			x->end = cut.start;
			i++;
		} else {
			x->start = cut.end;
			i++;
		}
	}
	return n;
}

uint64_t range_total(const struct range *r, size_t n)
{
	uint64_t total = 0;

	for (size_t i = 0; i < n; i++)
		total += r[i].end - r[i].start;
	return total;
}
