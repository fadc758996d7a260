// SPDX-License-Identifier: GPL-2.0-or-later
// Free-RAM bookkeeping (see ram.h).
#include "page.h"
#include "ram.h"


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
