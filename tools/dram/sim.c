// SPDX-License-Identifier: GPL-2.0-or-later
// The simulated memory controller (sim.h).
#include "sim.h"

#include "dram/decode.h"

void sim_init(struct sim *s, const struct sim_config *cfg, uint64_t seed)
{
	*s = (struct sim){ .cfg = *cfg, .rng = seed };
}

// splitmix64 (Steele, Lea, Flood 2014).
static uint64_t next(struct sim *s)
{
	uint64_t z = (s->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint32_t sim_bank(const struct sim *s, uint64_t addr)
{
	uint32_t bank = 0;

	for (unsigned i = 0; i < s->cfg.map.nfuncs; i++)
		bank |= (uint32_t)__builtin_parityll(s->cfg.map.funcs[i] & addr) << i;
	return bank;
}

uint64_t sim_row(const struct sim *s, uint64_t addr)
{
	unsigned lo = s->cfg.map.row_lo, width = s->cfg.map.row_hi - lo + 1;

	return addr >> lo & (width == 64 ? ~0ull : (1ull << width) - 1);
}

// Tell the hook about count activations of addr's row.
static void activate(struct sim *s, uint64_t addr, uint32_t count)
{
	if (s->activate)
		s->activate(s->activate_ctx, sim_bank(s, addr), sim_row(s, addr), count);
}

uint32_t sim_time_pair(void *ctx, uint64_t a, uint64_t b)
{
	struct sim *s = ctx;
	uint32_t t;

	s->rounds++;
	if (sim_bank(s, a) != sim_bank(s, b)) {
		t = SIM_OTHER_BANK;
		activate(s, a, 1);
		activate(s, b, 1);
	} else if (sim_row(s, a) == sim_row(s, b)) {
		t = SIM_ROW_HIT;
		activate(s, a, 1);
	} else {
		// Each read closes the other's row: every read activates.
		t = SIM_CONFLICT;
		activate(s, a, SIM_ALTERNATIONS);
		activate(s, b, SIM_ALTERNATIONS);
	}
	t += (uint32_t)(next(s) % SIM_JITTER);
	if (next(s) % 100 < s->cfg.noise)
		t += (uint32_t)(next(s) % SIM_DELAY);
	return t;
}

// ---- The disturbance (row hammer) model (sim.h) ----

static int cell_order(const struct sim_cell *a, uint32_t bank, uint64_t row, uint64_t addr)
{
	if (a->bank != bank)
		return a->bank < bank ? -1 : 1;
	if (a->row != row)
		return a->row < row ? -1 : 1;
	return a->addr < addr ? -1 : a->addr > addr;
}

// The first cell not before (bank, row, addr).
static unsigned cell_lower_bound(const struct sim_hammer *h, uint32_t bank, uint64_t row,
				 uint64_t addr)
{
	unsigned lo = 0, hi = h->ncells;

	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		if (cell_order(&h->cells[mid], bank, row, addr) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

// A row that has both neighbours in its bank below the model's size.
static bool has_neighbours(const struct sim *s, uint64_t addr)
{
	uint64_t x;

	return dram_row_neighbour(&s->cfg.map, addr, -1, s->cfg.size, &x) &&
	       dram_row_neighbour(&s->cfg.map, addr, 1, s->cfg.size, &x);
}

// Insert the cell at addr's bit, keeping the order; false if it is there.
static bool add_cell(struct sim_hammer *h, uint64_t addr, uint64_t bit, uint64_t charged)
{
	const struct sim *s = h->s;
	uint32_t bank = sim_bank(s, addr);
	uint64_t row = sim_row(s, addr);
	unsigned at = cell_lower_bound(h, bank, row, addr);

	for (unsigned i = at; i < h->ncells && h->cells[i].addr == addr; i++)
		if (h->cells[i].bit == bit)
			return false;
	for (unsigned i = h->ncells; i > at; i--)
		h->cells[i] = h->cells[i - 1];
	h->cells[at] = (struct sim_cell){ .addr = addr, .bit = bit, .charged = charged,
					  .bank = bank, .row = row };
	h->ncells++;
	return true;
}

bool sim_hammer_init(struct sim_hammer *h, const struct sim *s, uint64_t seed)
{
	struct sim rng = { .rng = seed };
	unsigned want = s->cfg.victims < SIM_MAX_VICTIMS ? s->cfg.victims : SIM_MAX_VICTIMS;

	*h = (struct sim_hammer){ .s = s };
	// A bounded number of draws: a map can leave no row with neighbours.
	for (unsigned tries = 0; h->ncells < want && tries < 64 * want + 64; tries++) {
		uint64_t addr = next(&rng) % s->cfg.size & ~7ull;
		uint64_t r = next(&rng), bit = 1ull << (r % 64);
		if (has_neighbours(s, addr))
			add_cell(h, addr, bit, r >> 6 & 1 ? bit : 0);
	}
	return h->ncells == s->cfg.victims;
}

static struct sim_row_data *row_data(struct sim_hammer *h, uint32_t bank, uint64_t row)
{
	if (h->last < h->ndata && h->data[h->last].bank == bank && h->data[h->last].row == row)
		return &h->data[h->last];
	for (unsigned i = 0; i < h->ndata; i++)
		if (h->data[i].bank == bank && h->data[i].row == row)
			return &h->data[h->last = i];
	return NULL;
}

// The lowest address bit a bank function reads: the bank is the same over
// aligned chunks of that many bits, never less than a word.
static unsigned bank_chunk_bits(const struct sim *s)
{
	unsigned bits = s->cfg.map.row_lo;

	for (unsigned i = 0; i < s->cfg.map.nfuncs; i++)
		if (s->cfg.map.funcs[i] && (unsigned)__builtin_ctzll(s->cfg.map.funcs[i]) < bits)
			bits = (unsigned)__builtin_ctzll(s->cfg.map.funcs[i]);
	return bits < 3 ? 3 : bits;
}

static void write_row(struct sim_hammer *h, uint32_t bank, uint64_t row, uint64_t value)
{
	struct sim_row_data *d = row_data(h, bank, row);

	if (!d) {
		d = &h->data[h->next_data];
		h->next_data = (h->next_data + 1) % SIM_HAMMER_ROWS;
		if (h->ndata < SIM_HAMMER_ROWS)
			h->ndata++;
	}
	*d = (struct sim_row_data){ bank, row, value, ++h->gen };
}

void sim_hammer_fill(void *ctx, uint64_t start, uint64_t end, uint64_t value)
{
	struct sim_hammer *h = ctx;
	uint64_t chunk = 1ull << bank_chunk_bits(h->s);

	for (uint64_t a = start; a < end; a = (a | (chunk - 1)) + 1)
		write_row(h, sim_bank(h->s, a), sim_row(h->s, a), value);
}

uint64_t sim_hammer_read(void *ctx, uint64_t addr)
{
	struct sim_hammer *h = ctx;
	uint32_t bank = sim_bank(h->s, addr);
	uint64_t row = sim_row(h->s, addr);
	struct sim_row_data *d = row_data(h, bank, row);

	if (!d)
		return SIM_UNWRITTEN;
	uint64_t v = d->value;
	for (unsigned i = cell_lower_bound(h, bank, row, addr);
	     i < h->ncells && h->cells[i].addr == addr; i++)
		if (h->cells[i].flipped == d->gen)
			v ^= h->cells[i].bit;
	return v;
}

// The bits of the victim cells in the word at addr.
static uint64_t victim_bits(const struct sim_hammer *h, uint64_t addr)
{
	const struct sim *s = h->s;
	uint64_t bits = 0;

	for (unsigned i = cell_lower_bound(h, sim_bank(s, addr), sim_row(s, addr), addr);
	     i < h->ncells && h->cells[i].addr == addr; i++)
		bits |= h->cells[i].bit;
	return bits;
}

// The leaky cells of (bank, row) lose their charge, where it holds one.
static void disturb(struct sim_hammer *h, uint32_t bank, uint64_t row)
{
	struct sim_row_data *d = row_data(h, bank, row);

	if (!d)
		return;
	for (unsigned i = cell_lower_bound(h, bank, row, 0);
	     i < h->ncells && h->cells[i].bank == bank && h->cells[i].row == row; i++) {
		struct sim_cell *c = &h->cells[i];
		if (c->flipped != d->gen && (d->value & c->bit) == c->charged)
			c->flipped = d->gen;
	}
}

// count more activations of (bank, row) in this window; at the model's
// threshold its neighbours leak.
static void add_acts(struct sim_hammer *h, uint32_t bank, uint64_t row, uint64_t count)
{
	struct sim_row_acts *a = NULL;

	for (unsigned i = 0; i < h->nacts && !a; i++)
		if (h->acts[i].bank == bank && h->acts[i].row == row)
			a = &h->acts[i];
	if (!a) {
		if (h->nacts == SIM_HAMMER_ROWS)
			return;
		a = &h->acts[h->nacts++];
		*a = (struct sim_row_acts){ bank, row, 0 };
	}
	a->count += count;
	if (h->s->cfg.hammer && a->count >= h->s->cfg.hammer) {
		if (row > 0)
			disturb(h, bank, row - 1);
		disturb(h, bank, row + 1);
	}
}

// Move the clock to t; a new window starts with no activations counted.
static void advance(struct sim_hammer *h, uint64_t t)
{
	if (t / SIM_WINDOW_NS != h->now / SIM_WINDOW_NS)
		h->nacts = 0;
	h->now = t;
}

// Whether aggressor i opens its row on every round: another aggressor in
// its bank reads another row in between.
static bool reopens(const struct sim *s, const uint64_t *aggr, unsigned naggr, unsigned i)
{
	for (unsigned j = 0; j < naggr; j++)
		if (j != i && sim_bank(s, aggr[j]) == sim_bank(s, aggr[i]) &&
		    sim_row(s, aggr[j]) != sim_row(s, aggr[i]))
			return true;
	return false;
}

uint64_t sim_hammer_activate(void *ctx, const uint64_t *aggr, unsigned naggr,
			     uint32_t count, uint64_t hold_ticks)
{
	struct sim_hammer *h = ctx;
	const struct sim *s = h->s;
	uint64_t start = h->now, round = (uint64_t)naggr * SIM_HAMMER_NS;
	bool first = true;

	for (uint64_t left = count; left && naggr; first = false) {
		uint64_t window_end = (h->now / SIM_WINDOW_NS + 1) * SIM_WINDOW_NS;
		uint64_t n = (window_end - h->now + round - 1) / round;
		n = n < left ? n : left;
		for (unsigned i = 0; i < naggr; i++) {
			uint32_t bank = sim_bank(s, aggr[i]);
			uint64_t row = sim_row(s, aggr[i]);
			if (reopens(s, aggr, naggr, i))
				add_acts(h, bank, row, n);
			else if (first && h->open_row[bank] != row + 1)
				add_acts(h, bank, row, 1);
			h->open_row[bank] = row + 1;
		}
		advance(h, h->now + n * round);
		left -= n;
	}
	uint64_t took = h->now - start;
	if (hold_ticks > took)
		advance(h, start + hold_ticks);
	return took;
}

void sim_hammer_report(void *ctx, uint64_t addr, uint64_t expected, uint64_t actual)
{
	struct sim_hammer *h = ctx;
	const struct sim *s = h->s;
	bool victim = false;

	for (unsigned i = cell_lower_bound(h, sim_bank(s, addr), sim_row(s, addr), addr);
	     i < h->ncells && h->cells[i].addr == addr; i++)
		if ((expected ^ actual) & h->cells[i].bit)
			victim = h->cells[i].reported = true;
	if (!victim || ((expected ^ actual) & ~victim_bits(h, addr)))
		h->strays++;
}

unsigned sim_hammer_found(const struct sim_hammer *h)
{
	unsigned n = 0;

	for (unsigned i = 0; i < h->ncells; i++)
		n += h->cells[i].reported;
	return n;
}
