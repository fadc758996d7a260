// SPDX-License-Identifier: GPL-2.0-or-later
// memmap= range selection (see holes.h). Filling a gap removes an
// entry, so the line shrinks as more gaps are filled (but for a digit the
// merged size may gain). The gaps to fill are found by binary search on a
// cost threshold (every gap cheaper than it), then on how many of the gaps
// costing exactly the threshold, leftmost first, are needed; the search only
// ever settles on a probe that fit. Each probe is one pass over the runs,
// so the gaps are never stored or sorted. When a failure lies below the
// kernel window and the answer has too many ranges for KASLR, the search
// runs again with the count held to Linux's limit.
#include <stdbool.h>

#include "badram/badram.h"
#include "badram/holes.h"

// Added to the cost of a gap that holds non-RAM, so every RAM-only gap is
// filled before any of them (page counts stay below 2^40).
#define NONRAM_PENALTY (1ULL << 53)

struct holes_size holes_size_of(uint64_t bytes)
{
	struct holes_size s;

	if (bytes % (1ULL << 30) == 0) {
		s.value = bytes >> 30;
		s.unit = 'G';
	} else if (bytes % (1ULL << 20) == 0) {
		s.value = bytes >> 20;
		s.unit = 'M';
	} else {
		s.value = bytes >> 10;
		s.unit = 'K';
	}
	return s;
}

static size_t dec_digits(uint64_t v)
{
	size_t d = 1;

	while (v >= 10) {
		v /= 10;
		d++;
	}
	return d;
}

static size_t hex_digits(uint64_t v)
{
	return v == 0 ? 1 : (size_t)(67 - __builtin_clzll(v)) / 4;
}

// "SIZE$0xADDR" for the byte range [start, end).
static size_t entry_len(uint64_t start, uint64_t end)
{
	return dec_digits(holes_size_of(end - start).value) + 1 + 1 + 2 +
	       hex_digits(start);
}

size_t holes_line_len(const struct range *r, size_t n)
{
	size_t len = sizeof(HOLES_PREFIX) - 1 + (n - 1);

	for (size_t i = 0; i < n; i++)
		len += entry_len(r[i].start, r[i].end);
	return len;
}

// RAM pages in [lo, hi).
static uint64_t ram_between(const struct universe *u, uint64_t lo,
			    uint64_t hi)
{
	size_t i = 0, top = u->nram;
	uint64_t n = 0;

	while (i < top) {   // first range ending after lo
		size_t mid = i + (top - i) / 2;
		if (u->ram[mid].end > lo)
			top = mid;
		else
			i = mid + 1;
	}
	for (; i < u->nram && u->ram[i].start < hi; i++) {
		uint64_t a = u->ram[i].start > lo ? u->ram[i].start : lo;
		uint64_t b = u->ram[i].end < hi ? u->ram[i].end : hi;
		if (a < b)
			n += b - a;
	}
	return n;
}

static uint64_t gap_cost(const struct universe *u, uint64_t lo, uint64_t hi)
{
	uint64_t ram = ram_between(u, lo, hi);

	return ram < hi - lo ? ram + NONRAM_PENALTY : ram;
}

// Insert [lo, hi) into the sorted pieces w[0..*r), keeping them sorted.
static void insert_piece(struct range *w, size_t *r, uint64_t lo, uint64_t hi)
{
	size_t i = *r;

	while (i > 0 && w[i - 1].start > lo) {
		w[i] = w[i - 1];
		i--;
	}
	w[i].start = lo;
	w[i].end = hi;
	(*r)++;
}

// The extra cubes' spans clipped to each RAM range they meet, sorted by
// start; returns their count.
static size_t build_pieces(const struct cube *extra, size_t nextra,
			   const struct universe *u, struct range *w)
{
	size_t r = 0;

	for (size_t k = 0; k < nextra; k++) {
		uint64_t lo = extra[k].val;
		uint64_t hi = (extra[k].val | (~extra[k].care & CUBE_DOMAIN)) + 1;
		for (size_t i = 0; i < u->nram; i++) {
			uint64_t a = u->ram[i].start > lo ? u->ram[i].start : lo;
			uint64_t b = u->ram[i].end < hi ? u->ram[i].end : hi;
			if (a < b)
				insert_piece(w, &r, a, b);
		}
	}
	return r;
}

// Runs of failing RAM pages merged with the pieces, in address order,
// produced one at a time: overlapping or touching runs come out as one.
struct runs {
	const uint64_t *page;
	size_t n, i;
	const struct range *piece;
	size_t npiece, j;
	const struct universe *u;
	size_t r;               // RAM range of page[i] or the next one
};

// Move it->i past pages outside RAM.
static void skip_non_ram(struct runs *it)
{
	for (; it->i < it->n; it->i++) {
		uint64_t p = it->page[it->i];
		while (it->r < it->u->nram && it->u->ram[it->r].end <= p)
			it->r++;
		if (it->r < it->u->nram && it->u->ram[it->r].start <= p)
			return;
	}
}

static bool next_run(struct runs *it, struct range *run)
{
	bool first = true;

	for (;;) {
		uint64_t s, e;
		skip_non_ram(it);
		if (it->i < it->n &&
		    (it->j == it->npiece || it->page[it->i] < it->piece[it->j].start)) {
			s = it->page[it->i];
			e = s + 1;
			if (!first && s > run->end)
				return true;
			it->i++;
		} else if (it->j < it->npiece) {
			s = it->piece[it->j].start;
			e = it->piece[it->j].end;
			if (!first && s > run->end)
				return true;
			it->j++;
		} else {
			return !first;
		}
		if (first) {
			run->start = s;
			run->end = e;
			first = false;
		} else if (e > run->end) {
			run->end = e;
		}
	}
}

// Which gaps a probe fills: those costing less than tau, and the leftmost q
// costing exactly tau.
struct fill {
	uint64_t tau, q;
};

// Walk the runs with the gaps of f filled. When out is not NULL, write the
// merged ranges in bytes there. Returns the number of ranges; *len gets the
// line length.
static size_t walk(struct runs it, const struct universe *u, struct fill f,
		   struct range *out, size_t *len)
{
	size_t count = 0;
	struct range cur, next;
	bool more = next_run(&it, &cur);
	uint64_t start = cur.start;

	*len = sizeof(HOLES_PREFIX) - 1;
	while (more) {
		more = next_run(&it, &next);
		if (more) {
			uint64_t c = gap_cost(u, cur.end, next.start);
			bool fill = c < f.tau;
			if (!fill && c == f.tau && f.q > 0) {
				f.q--;
				fill = true;
			}
			if (fill) {
				cur = next;
				continue;
			}
		}
		uint64_t a = start << PAGE_SHIFT, b = cur.end << PAGE_SHIFT;
		*len += entry_len(a, b) + (count > 0);
		if (out != NULL) {
			out[count].start = a;
			out[count].end = b;
		}
		count++;
		if (more) {
			cur = next;
			start = next.start;
		}
	}
	return count;
}

static bool fits(struct runs it, const struct universe *u, struct fill f,
		 size_t max_chars, size_t cap)
{
	size_t len;
	size_t count = walk(it, u, f, NULL, &len);

	return len <= max_chars && count <= cap;
}

// Largest gap cost, largest cost of a RAM-only gap (*max_ram), and the
// number of gaps costing exactly tau (*ties).
static uint64_t gap_stats(struct runs it, const struct universe *u,
			  uint64_t tau, uint64_t *max_ram, uint64_t *ties)
{
	struct range cur, next;
	uint64_t max_cost = 0;

	*ties = *max_ram = 0;
	if (!next_run(&it, &cur))
		return 0;
	while (next_run(&it, &next)) {
		uint64_t c = gap_cost(u, cur.end, next.start);
		if (c > max_cost)
			max_cost = c;
		if (c < NONRAM_PENALTY && c > *max_ram)
			*max_ram = c;
		*ties += c == tau;
		cur = next;
	}
	return max_cost;
}

// The fill of fewest good RAM pages whose line fits max_chars and whose
// ranges number at most cap.
static struct fill choose(struct runs it, const struct universe *u,
			  size_t max_chars, size_t cap)
{
	uint64_t lo, hi, ties;

	// Smallest T such that filling every gap cheaper than T fits; T =
	// max_cost + 1 fills them all, leaving one range, which always fits.
	// Searching the RAM-only costs first keeps the search to about
	// log2(largest RAM gap) probes.
	uint64_t max_ram, max_cost = gap_stats(it, u, 0, &max_ram, &ties);
	struct fill all_ram = { max_ram + 1, 0 };
	lo = 0;
	hi = max_ram + 1;
	if (!fits(it, u, all_ram, max_chars, cap)) {
		lo = max_ram + 2;
		hi = max_cost + 1;
	}
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		struct fill f = { mid, 0 };
		if (fits(it, u, f, max_chars, cap))
			hi = mid;
		else
			lo = mid + 1;
	}
	struct fill f = { lo, 0 };
	if (lo > 0) {
		// Gaps cheaper than lo - 1 are not enough: fill as few of the
		// gaps costing exactly lo - 1 as will do, leftmost first.
		f.tau = lo - 1;
		gap_stats(it, u, f.tau, &max_ram, &ties);
		uint64_t qlo = 0, qhi = ties;
		while (qlo < qhi) {
			uint64_t mid = qlo + (qhi - qlo) / 2;
			struct fill g = { f.tau, mid };
			if (fits(it, u, g, max_chars, cap))
				qhi = mid;
			else
				qlo = mid + 1;
		}
		f.q = qlo;
	}
	return f;
}

size_t holes_ranges(const struct holes_request *req, struct range *out, size_t cap,
		    bool *kaslr_capped)
{
	const struct universe *u = req->u;
	struct runs it = { .page = req->page, .n = req->npages, .piece = req->work, .u = u };
	size_t len, max_chars = req->max_chars;

	*kaslr_capped = false;
	if (req->npages + req->nextra == 0 || req->work_cap < req->nextra * (u->nram + 1))
		return 0;
	if (max_chars < BADRAM_MEMMAP_MIN_CHARS)
		max_chars = BADRAM_MEMMAP_MIN_CHARS;
	it.npiece = build_pieces(req->extra, req->nextra, u, req->work);
	struct runs probe = it;
	struct range first;
	if (!next_run(&probe, &first))
		return 0;       // no failing page in RAM
	struct fill f = choose(it, u, max_chars, cap);
	// Runs come in address order, so the first one tells whether any
	// failure lies where Linux may load its kernel without KASLR.
	if (first.start < HOLES_LINUX_KERNEL_WINDOW_END >> PAGE_SHIFT &&
	    cap > HOLES_LINUX_MAX_MEMMAP_REGIONS &&
	    walk(it, u, f, NULL, &len) > HOLES_LINUX_MAX_MEMMAP_REGIONS) {
		f = choose(it, u, max_chars, HOLES_LINUX_MAX_MEMMAP_REGIONS);
		*kaslr_capped = true;
	}
	return walk(it, u, f, out, &len);
}
