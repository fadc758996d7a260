// SPDX-License-Identifier: GPL-2.0-or-later
// Free-RAM bookkeeping (see ram.h).
#include "page.h"
#include "run/ram.h"

_Static_assert(WORK_SMP % PAGE_SIZE == 0, "the APs' memory begins on a page");

void ram_release_all(struct ram *ram)
{
	for (size_t i = 0; i < ram->nusable; i++)
		ram->free[i] = ram->usable[i];
	ram->nfree = ram->nusable;
	ram->nowned = 0;
}

void ram_claim(struct ram *ram, struct range r, const char *what)
{
	r.start &= ~(PAGE_SIZE - 1);
	r.end = (r.end + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	ram->nfree = range_subtract(ram->free, ram->nfree, RAM_RANGES_MAX, r);
	if (ram->nowned < RAM_OWNED_MAX)
		ram->owned[ram->nowned++] = (struct owned_range){ r, what };
}

uint64_t ram_find(const struct ram *ram, uint64_t bytes, uint64_t limit)
{
	bytes = (bytes + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	for (size_t i = ram->nfree; i-- > 0;) {
		struct range f = ram->free[i];
		uint64_t end = f.end < limit ? f.end : limit;
		if (end > f.start && end - f.start >= bytes)
			return end - bytes;
	}
	return 0;
}

uint64_t ram_alloc(struct ram *ram, uint64_t bytes, uint64_t limit, const char *what)
{
	uint64_t start = ram_find(ram, bytes, limit);
	if (start != 0)
		ram_claim(ram, (struct range){ start, start + bytes }, what);
	return start;
}

uint64_t footprint_bytes(const struct footprint *fp)
{
	return fp->image_bytes + fp->table_bytes + fp->work_bytes;
}

struct range footprint_image(const struct footprint *fp)
{
	return (struct range){ fp->image, fp->image + fp->image_bytes };
}

struct range footprint_data(const struct footprint *fp)
{
	return (struct range){ fp->tables, fp->tables + fp->table_bytes + fp->work_bytes };
}

uint64_t footprint_work(const struct footprint *fp)
{
	return fp->tables + fp->table_bytes;
}

struct footprint footprint_at(const struct footprint *fp, uint64_t dest)
{
	struct footprint to = *fp;

	to.image = dest;
	to.tables = dest + fp->image_bytes;
	return to;
}

void ram_claim_footprint(struct ram *ram, const struct footprint *fp)
{
	ram_claim(ram, footprint_image(fp), FOOTPRINT_IMAGE_WHAT);
	ram_claim(ram, footprint_data(fp), FOOTPRINT_DATA_WHAT);
}
