// SPDX-License-Identifier: GPL-2.0-or-later
// The row hammer test's plan: which rows each pass hammers. A site's rows
// are consecutive rows of one bank: aggressor, victim, aggressor, ...,
// aggressor, then the decoys a few rows further. Sites sit at every row
// block inside a range where they fit (two positions per step of 2 rows per
// victim, and the last two positions, so that every row but a range's
// edges and its last decoys' rows is a victim of some site), once per bank. All sites are numbered bank first, so that a pass's run of
// numbers goes round the banks, and the positions are visited in the order
// of a multiplicative permutation, so that a pass's few positions are
// spread over all of memory rather than packed at its start.
#include "dram/decode.h"
#include "dram/hammer.h"

// The highest physical address bit a guessed row may use (RANGE_MAX_ADDR).
#define GUESS_ROW_HI 51

// The guess's lowest bank bit: a DDR3/DDR4 rank's row is 8 KiB (eight x8
// chips of 1 KiB pages, JESD79-3/-4), so a bank's part of a row is often
// 8 KiB in one piece when no channel bit interleaves below it.
#define GUESS_BANK_LO 13

static uint64_t low_mask(unsigned n)
{
	return n >= 64 ? UINT64_MAX : (1ull << n) - 1;
}

static bool map_usable(const struct dram_map *map)
{
	return map != NULL && map->row_lo <= map->row_hi;
}

// A guessed map: rows of row_stride bytes, and each address bit from
// GUESS_BANK_LO up to the row a bank bit of its own (the highest
// DRAM_MAX_FUNCS of them), so that every 8 KiB piece of a row gets its
// own aggressors. On a controller that XORs row bits into the bank (all
// of DRAMA's), the aggressors fall in other banks than their victim's
// and hardly activate: the guess then shows little.
static bool guess_map(uint64_t row_stride, struct dram_map *map)
{
	if (row_stride < 64 || (row_stride & (row_stride - 1)) != 0 ||
	    row_stride > (1ull << GUESS_ROW_HI))
		return false;
	unsigned row_lo = (unsigned)__builtin_ctzll(row_stride), lo = GUESS_BANK_LO;

	*map = (struct dram_map){ .nfuncs = 0, .row_lo = row_lo, .row_hi = GUESS_ROW_HI };
	if (row_lo > lo + DRAM_MAX_FUNCS)
		lo = row_lo - DRAM_MAX_FUNCS;
	for (unsigned bit = lo; bit < row_lo; bit++)
		map->funcs[map->nfuncs++] = 1ull << bit;
	return true;
}

// Rows from a site's first aggressor to its last decoy, inclusive.
static uint64_t site_rows(unsigned sides, unsigned decoys)
{
	uint64_t aggr = 2ull * sides - 1;

	return decoys ? aggr + 4 + 2ull * (decoys - 1) : aggr;
}

// Row offset of decoy k from the site's first aggressor: far enough past
// the last aggressor that no row is next to both an aggressor and a decoy.
static uint64_t decoy_row(unsigned sides, unsigned k)
{
	return 2ull * sides + 2 + 2ull * k;
}

// How far apart sites of one parity are: the rows their victims span.
static uint64_t site_step(const struct hammer_plan *p)
{
	return 2ull * (p->sides - 1);
}

// Whole row blocks of r: [*q0, *q1).
static void range_blocks(const struct hammer_plan *p, const struct range *r,
			 uint64_t *q0, uint64_t *q1)
{
	unsigned sh = p->map.row_lo;

	*q0 = (r->start >> sh) + ((r->start & low_mask(sh)) != 0);
	*q1 = r->end >> sh;
}

// Row blocks in r that a site's rows can start at: 0 .. the return value.
static bool range_room(const struct hammer_plan *p, const struct range *r, uint64_t *room)
{
	uint64_t q0, q1, rows = site_rows(p->sides, p->decoys);

	range_blocks(p, r, &q0, &q1);
	if (q1 < q0 || q1 - q0 < rows)
		return false;
	*room = q1 - q0 - rows;
	return true;
}

// Whether offset o is one of the tiling's: 0, 1, step, step + 1, 2 step, ...
// (the second of each pair covers the other parity's rows).
static bool tiled(const struct hammer_plan *p, uint64_t o)
{
	return o % site_step(p) <= 1;
}

// The site offsets in r (where its first aggressor starts, in row blocks
// from r's first whole block), in order: the tiling's up to the room, then
// the last two offsets that fit, if the tiling missed them, so that
// many-sided sites reach the last rows too.
static uint64_t range_groups(const struct hammer_plan *p, const struct range *r)
{
	uint64_t room, s = site_step(p);

	if (!range_room(p, r, &room))
		return 0;
	uint64_t n = room / s + 1 + (room >= 1 ? (room - 1) / s + 1 : 0);
	return n + (room >= 1 && !tiled(p, room - 1)) + !tiled(p, room);
}

// Offset number l (< range_groups()) of r.
static uint64_t group_offset(const struct hammer_plan *p, const struct range *r, uint64_t l)
{
	uint64_t room = 0, s = site_step(p);

	range_room(p, r, &room);
	uint64_t tiles = room / s + 1 + (room >= 1 ? (room - 1) / s + 1 : 0);
	if (l < tiles)
		return l / 2 * s + l % 2;
	// The extra ends: room - 1 first when it is one of them.
	bool before_last = room >= 1 && !tiled(p, room - 1);
	return l == tiles && before_last ? room - 1 : room;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

// A step coprime with groups near groups / golden ratio: multiplying by it
// modulo groups permutes the positions and puts neighbours in the pass far
// apart (Fibonacci hashing's spread).
static uint64_t spread_stride(uint64_t groups)
{
	if (groups <= 2)
		return 1;
	uint64_t k = groups / 1000 * 618 + groups % 1000 * 618 / 1000;
	while (gcd(k, groups) != 1)
		k++;
	return k;
}

bool hammer_plan_init(struct hammer_plan *p, const struct dram_map *map,
		      uint64_t row_stride, const struct range *ranges,
		      size_t nranges, unsigned sides, unsigned decoys,
		      uint32_t per_pass)
{
	if (sides < 2 || sides > HAMMER_MAX_SIDES || decoys > HAMMER_MAX_DECOYS ||
	    per_pass == 0 || (nranges && ranges == NULL))
		return false;
	p->guessed = !map_usable(map);
	if (p->guessed) {
		if (!guess_map(row_stride, &p->map))
			return false;
	} else {
		if (map->nfuncs > DRAM_MAX_FUNCS || map->row_hi > 63)
			return false;
		p->map = *map;
	}
	p->ranges = ranges;
	p->nranges = nranges;
	p->sides = sides;
	p->decoys = decoys;
	p->banks = 1u << p->map.nfuncs;
	p->groups = 0;
	for (size_t i = 0; i < nranges; i++)
		p->groups += range_groups(p, &ranges[i]);
	p->sites = p->groups * p->banks;
	p->per_pass = p->sites < per_pass ? (uint32_t)p->sites : per_pass;
	p->stride = spread_stride(p->groups);
	return true;
}

// The global number of site i of pass: false when there is none (the last
// pass of a round of all sites is short).
static bool site_number(const struct hammer_plan *p, uint64_t pass, uint32_t i,
			uint64_t *x)
{
	if (i >= p->per_pass)
		return false;
	uint64_t passes = (p->sites + p->per_pass - 1) / p->per_pass;
	uint64_t n = pass % passes * p->per_pass + i;
	if (n >= p->sites)
		return false;
	*x = n;
	return true;
}

// Range and first row block of position g (< p->groups).
static const struct range *locate(const struct hammer_plan *p, uint64_t g,
				  uint64_t *block)
{
	for (size_t i = 0; i < p->nranges; i++) {
		uint64_t n = range_groups(p, &p->ranges[i]), q0, q1;
		if (g >= n) {
			g -= n;
			continue;
		}
		range_blocks(p, &p->ranges[i], &q0, &q1);
		*block = q0 + group_offset(p, &p->ranges[i], g);
		return &p->ranges[i];
	}
	return NULL;
}

// The address of column 0 of bank in row block q (bits above row_hi
// included).
static bool row_start(const struct dram_map *map, uint64_t q, uint32_t bank,
		      uint64_t *addr)
{
	unsigned width = map->row_hi - map->row_lo + 1;
	struct dram_addr a = { .bank = bank, .row = q & low_mask(width), .column = 0 };
	uint64_t x;

	if (!dram_encode(map, &a, &x))
		return false;
	uint64_t high = width >= 64 ? 0 : q >> width;
	*addr = map->row_hi >= 63 ? x : x | high << (map->row_hi + 1);
	return true;
}

bool hammer_plan_site(const struct hammer_plan *p, uint64_t pass, uint32_t i,
		      struct hammer_site *s)
{
	uint64_t x, q, first;

	if (!site_number(p, pass, i, &x))
		return false;
	// Bank b's j-th site is at position (j + b) * stride: consecutive sites
	// are on consecutive banks and far apart in memory, so a pass that its
	// budget cuts short is still spread over all of it.
	uint64_t g = (uint64_t)((unsigned __int128)(x / p->banks + x % p->banks) * p->stride %
				p->groups);
	const struct range *r = locate(p, g, &q);
	s->bank = (uint32_t)(x % p->banks);
	if (r == NULL || !row_start(&p->map, q, s->bank, &first))
		return false;
	s->nvictims = p->sides - 1;
	s->naggr = p->sides + p->decoys;
	for (unsigned k = 0; k < p->sides; k++) {
		if (!dram_row_neighbour(&p->map, first, 2 * k, r->end, &s->aggr[k]) ||
		    (k && !dram_row_neighbour(&p->map, first, 2 * k - 1, r->end,
					      &s->victim[k - 1])))
			return false;
	}
	for (unsigned k = 0; k < p->decoys; k++)
		if (!dram_row_neighbour(&p->map, first, (int64_t)decoy_row(p->sides, k),
					r->end, &s->aggr[p->sides + k]))
			return false;
	return true;
}

unsigned hammer_site_cpu(const struct hammer_plan *p, uint64_t pass,
			 uint32_t i, unsigned ncpus)
{
	uint64_t x;

	if (ncpus <= 1 || !site_number(p, pass, i, &x))
		return 0;
	return (unsigned)(x % p->banks % ncpus);
}
