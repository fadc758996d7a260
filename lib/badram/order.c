// SPDX-License-Identifier: GPL-2.0-or-later
// GRUB-safe pattern order (see order.h), by repeatedly emitting a
// cube none of whose pages lies inside the span of a cube still waiting:
// its holes then split no later pattern's region. Cubes whose spans miss RAM
// are cut in reserved regions only and constrain nothing.
#include "badram/order.h"
#include "memstr.h"

static uint64_t span_end(struct cube c)
{
	return c.val | (~c.care & CUBE_DOMAIN);
}

// True when some page of a lies inside b's span.
static bool lands_in(struct cube a, struct cube b)
{
	uint64_t y;

	return cube_next(a, b.val, &y) && y <= span_end(b);
}

// True when b's span meets RAM (then it must not be split).
static bool spans_ram(struct cube b, const struct universe *u)
{
	return cube_ram_pages(b, u) > 0;
}

bool order_cubes(struct cube *c, size_t n, const struct universe *u)
{
	struct cube out[CUBE_MAX_CUBES];
	bool used[CUBE_MAX_CUBES] = { false }, guards[CUBE_MAX_CUBES];

	for (size_t i = 0; i < n; i++) {
		if (!cube_in_one_range(c[i], u))
			return false;
		guards[i] = spans_ram(c[i], u);
	}
	for (size_t pos = 0; pos < n; pos++) {
		size_t pick = n;
		for (size_t i = 0; i < n && pick == n; i++) {
			if (used[i])
				continue;
			pick = i;
			for (size_t j = 0; j < n && pick == i; j++)
				if (j != i && !used[j] && guards[j] && lands_in(c[i], c[j]))
					pick = n;
		}
		if (pick == n)
			return false;
		used[pick] = true;
		out[pos] = c[pick];
	}
	mem_copy(c, out, n * sizeof(*c));
	return true;
}
