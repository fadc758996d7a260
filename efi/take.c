// SPDX-License-Identifier: GPL-2.0-or-later
// Taking the plan's pages (take.h). Each run of planned pages inside one
// descriptor of the snapshot is allocated whole when it is free memory, or
// page by page to find which pages are held and by what; the lines say
// what was taken and what was not, joined into ranges.
#include <efi.h>
#include <efilib.h>

#include "take.h"

#define LINES_MAX 40	// reserved ranges listed before a count (pages not taken: all)

static UINT8 map_now[256 * 1024];	// the map after our allocations (reports)

struct take {
	const struct take_plan *plan;
	// The source being expanded: pages in the plan's ranges (once they are
	// done) and pages pair[0..pairs_done) matches were taken or named already.
	BOOLEAN ranges_done;
	size_t pairs_done;
	UINT32 type;			// of the snapshot's descriptor being expanded
	UINT64 taken, held;		// pages
	UINT64 pend_start, pend_end;	// the range being reported
	UINT32 pend_type;		// EfiUnusableMemory: taken by us
	UINTN taken_lines;
};

static void flush(struct take *t)
{
	UINT64 pages = (t->pend_end - t->pend_start) / MAP_PAGE;

	if (t->pend_end == t->pend_start)
		return;
	if (t->pend_type == EfiUnusableMemory) {
		if (t->taken_lines++ < LINES_MAX)
			Print(L"ramsift-reserve: reserved 0x%lx-0x%lx (%ld pages)\n", t->pend_start,
			      t->pend_end - 1, pages);
	} else {
		Print(L"ramsift-reserve: cannot take 0x%lx-0x%lx (%ld pages): already in use as %a%a\n",
		      t->pend_start, t->pend_end - 1, pages, map_type_text(t->pend_type),
		      map_os_reuses(t->pend_type)
			      ? "; the OS uses it after boot, so the bad page stays in use"
			      : "; the OS keeps off it too");
	}
	t->pend_start = t->pend_end = 0;
}

// Report [start, end) as taken (type EfiUnusableMemory) or held as type,
// joined with the range before when it continues it.
static void note(struct take *t, UINT64 start, UINT64 end, UINT32 type)
{
	if (type == EfiUnusableMemory)
		t->taken += (end - start) / MAP_PAGE;
	else
		t->held += (end - start) / MAP_PAGE;
	if (t->pend_end != start || t->pend_type != type)
		flush(t);
	if (t->pend_end == t->pend_start) {
		t->pend_start = start;
		t->pend_type = type;
	}
	t->pend_end = end;
}

static BOOLEAN in_ranges(const struct take_plan *p, UINT64 addr)
{
	size_t lo = 0, hi = p->nranges;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (addr < p->range[mid].start)
			hi = mid;
		else if (addr >= p->range[mid].end)
			lo = mid + 1;
		else
			return TRUE;
	}
	return FALSE;
}

// Whether an earlier source of the plan holds the page at addr.
static BOOLEAN seen(const struct take *t, UINT64 addr)
{
	if (t->ranges_done && in_ranges(t->plan, addr))
		return TRUE;
	for (size_t k = 0; k < t->pairs_done; k++)
		if ((addr & t->plan->pair[k].mask) == t->plan->pair[k].addr)
			return TRUE;
	return FALSE;
}

// Pages [start, end) held as type that no earlier source named: those are
// reported now. Only pages in use cost this page-by-page look: the firmware
// holds few.
static void note_held(struct take *t, UINT64 start, UINT64 end, UINT32 type)
{
	if (!t->ranges_done && t->pairs_done == 0) {
		note(t, start, end, type);
		return;
	}
	for (UINT64 a = start; a < end; a += MAP_PAGE)
		if (!seen(t, a))
			note(t, a, a + MAP_PAGE, type);
}

// What the firmware's map says the page at addr is now.
static UINT32 type_now(UINT64 addr)
{
	UINTN size = sizeof(map_now), key, dsize;
	UINT32 version;

	if (EFI_ERROR(uefi_call_wrapper(BS->GetMemoryMap, 5, &size, (EFI_MEMORY_DESCRIPTOR *)map_now,
					 &key, &dsize, &version)))
		return MAP_UNKNOWN;
	for (UINT8 *p = map_now; p < map_now + size; p += dsize) {
		EFI_MEMORY_DESCRIPTOR *d = (EFI_MEMORY_DESCRIPTOR *)p;
		if (addr >= d->PhysicalStart && addr - d->PhysicalStart < d->NumberOfPages * MAP_PAGE)
			return d->Type;
	}
	return MAP_UNKNOWN;
}

static BOOLEAN allocate(UINT64 start, UINT64 pages)
{
	EFI_PHYSICAL_ADDRESS a = start;

	return !EFI_ERROR(uefi_call_wrapper(BS->AllocatePages, 4, AllocateAddress, EfiUnusableMemory,
					    pages, &a));
}

// One run of planned pages inside a descriptor of type t->type. A page an
// earlier source of the plan holds was counted there; one the snapshot
// had free that is EfiUnusableMemory now is protected already, and is
// neither taken by us nor held.
static void take_run(void *ctx, uint64_t start, uint64_t end)
{
	struct take *t = ctx;

	if (t->type != EfiConventionalMemory) {
		note_held(t, start, end, t->type);
		return;
	}
	if (allocate(start, (end - start) / MAP_PAGE)) {
		note(t, start, end, EfiUnusableMemory);
		return;
	}
	for (UINT64 a = start; a < end; a += MAP_PAGE) {
		UINT32 type;
		if (seen(t, a))
			continue;
		if (allocate(a, 1))
			note(t, a, a + MAP_PAGE, EfiUnusableMemory);
		else if ((type = type_now(a)) != EfiUnusableMemory)
			note(t, a, a + MAP_PAGE, type);
	}
}

static void count_run(void *ctx, uint64_t start, uint64_t end)
{
	(void)ctx, (void)start, (void)end;
}

static BOOLEAN skipped(const EFI_MEMORY_DESCRIPTOR *d)
{
	return d->Type == EfiMemoryMappedIO || d->Type == EfiMemoryMappedIOPortSpace ||
	       d->NumberOfPages == 0;
}

// Expand pair[0..n) over every descriptor of m with fn; returns the
// matched bytes. t->pairs_done follows the pair being expanded.
static UINT64 each_pair_run(const struct map *m, const struct reserve_pair *pair, size_t n,
			    reserve_run_fn fn, struct take *t)
{
	UINT64 bytes = 0;

	for (UINTN i = 0; i < m->n; i++) {
		EFI_MEMORY_DESCRIPTOR *d = map_at(m, i);
		if (skipped(d))
			continue;
		t->type = d->Type;
		for (size_t k = 0; k < n; k++) {
			t->pairs_done = k;
			bytes += reserve_runs(&pair[k], d->PhysicalStart,
					      d->PhysicalStart + d->NumberOfPages * MAP_PAGE, fn, t);
		}
	}
	t->pairs_done = 0;
	return bytes;
}

// Take every range of the plan, a descriptor's part at a time.
static void take_ranges(const struct map *m, struct take *t)
{
	for (size_t r = 0; r < t->plan->nranges; r++) {
		UINT64 start = t->plan->range[r].start, end = t->plan->range[r].end;
		for (UINTN i = 0; i < m->n; i++) {
			EFI_MEMORY_DESCRIPTOR *d = map_at(m, i);
			UINT64 lo = d->PhysicalStart, hi = lo + d->NumberOfPages * MAP_PAGE;
			if (skipped(d) || hi <= start || lo >= end)
				continue;
			t->type = d->Type;
			take_run(t, lo > start ? lo : start, hi < end ? hi : end);
		}
	}
}

UINT64 take_matched_bytes(const struct map *m, const struct reserve_pair *pair, size_t n)
{
	struct take t = { 0 };

	return each_pair_run(m, pair, n, count_run, &t);
}

void take_pages(const struct map *m, const struct take_plan *p)
{
	struct take t = { .plan = p };

	take_ranges(m, &t);
	t.ranges_done = TRUE;
	each_pair_run(m, p->pair, p->npairs, take_run, &t);
	flush(&t);
	if (t.taken_lines > LINES_MAX)
		Print(L"ramsift-reserve: (%ld more reserved ranges not listed)\n",
		      (UINT64)(t.taken_lines - LINES_MAX));
	Print(L"ramsift-reserve: %ld pages reserved as EfiUnusableMemory, %ld pages already in use "
	      L"could not be taken\n", t.taken, t.held);
}
