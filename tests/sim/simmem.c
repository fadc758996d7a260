// SPDX-License-Identifier: GPL-2.0-or-later
// The simulated faulty memory behind tests/sim/memrw.h: word storage, the one
// injected fault, simulated time, and the cache-discipline check (a load of a
// word stored through the cache since its CPU last flushed is a bug in the
// test: hardware would have served it from a cache). Linked into the host archive
// build/host/libramsift.a (mk/coverage.mk) because the host build of lib/
// includes tests/sim/memrw.h. Models are in simmem.h.
#include <stdio.h>
#include <stdlib.h>

#include "memrw.h"
#include "simmem.h"
#include "memtest/prng.h"

static struct {
	uint64_t base;
	size_t nwords;
	uint64_t cells[SIM_MAX_WORDS];
	// dirty[w] == epoch[owner[w]]: word w (by address) holds a cached
	// store that CPU owner[w] has not flushed yet. Flushing bumps the
	// CPU's epoch instead of clearing the arrays; 0 is never an epoch.
	uint32_t dirty[SIM_MAX_WORDS];
	uint8_t owner[SIM_MAX_WORDS];
	uint32_t epoch[SIM_MAX_CPUS];
	unsigned cpu;
	void (*tick)(void);
	bool lax;          // count discipline breaks instead of aborting
	bool history;      // keep hist[]
	uint64_t hist[SIM_MAX_WORDS];
	uint64_t breaks;
	struct sim_fault f;
	uint64_t now_s, written_s;
	uint64_t reads, writes;
} sim;

_Static_assert(SIM_MAX_CPUS <= 256, "owner[] holds a CPU in a byte");

static void die(const char *what, uint64_t value)
{
	fprintf(stderr, "simmem: %s: 0x%016llx\n", what,
		(unsigned long long)value);
	abort();
}

// Fold an access into word w's digest (sim_set_history).
static void remember(size_t w, uint64_t kind, uint64_t value)
{
	uint64_t h = (sim.hist[w] ^ kind) * 0x100000001b3ull;

	sim.hist[w] = (h ^ value ^ (h >> 29)) * 0xbf58476d1ce4e5b9ull;
}

static inline bool bit(uint64_t w, unsigned b)
{
	return (w >> b) & 1;
}

static inline uint64_t with_bit(uint64_t w, unsigned b, bool v)
{
	return (w & ~(1ull << b)) | ((uint64_t)v << b);
}

// Word index of addr, or abort when the test strayed outside its memory.
static size_t word_of(uint64_t addr)
{
	if (addr & 7)
		die("unaligned access", addr);
	if (addr < sim.base || (addr - sim.base) / 8 >= sim.nwords)
		die("access outside the simulated memory", addr);
	return (size_t)((addr - sim.base) / 8);
}

// The cell an address's word index reaches through a faulty decoder line.
static size_t aline(size_t w)
{
	size_t c = (size_t)with_bit(w, sim.f.abit, sim.f.value);

	return c < sim.nwords ? c : w;
}

static void enforce_state_coupling(void)
{
	const struct sim_fault *f = &sim.f;

	if (bit(sim.cells[f->aword], f->abit) == f->state)
		sim.cells[f->vword] = with_bit(sim.cells[f->vword], f->vbit,
					       f->value);
}

// Store v into cell c, applying the cell faults.
static void store_cell(size_t c, uint64_t v)
{
	const struct sim_fault *f = &sim.f;
	uint64_t old = sim.cells[c];

	if (c == f->vword) {
		if (f->kind == SIM_SAF)
			v = with_bit(v, f->vbit, f->value);
		if (f->kind == SIM_TF && bit(old, f->vbit) != f->up &&
		    bit(v, f->vbit) == f->up)
			v = with_bit(v, f->vbit, !f->up);
		if (f->kind == SIM_RET)
			sim.written_s = sim.now_s;
	}
	sim.cells[c] = v;
	if ((f->kind == SIM_CFIN || f->kind == SIM_CFID) && c == f->aword &&
	    bit(old, f->abit) != f->up && bit(v, f->abit) == f->up) {
		uint64_t *vw = &sim.cells[f->vword];

		*vw = with_bit(*vw, f->vbit,
			       f->kind == SIM_CFIN ? !bit(*vw, f->vbit) : f->value);
	}
	if (f->kind == SIM_CFST && (c == f->aword || c == f->vword))
		enforce_state_coupling();
}

void sim_write(uint64_t addr, uint64_t value, bool cached)
{
	if (sim.tick)
		sim.tick();

	size_t w = word_of(addr);
	const struct sim_fault *f = &sim.f;

	sim.writes++;
	if (sim.history)
		remember(w, cached ? 2 : 3, value);
	sim.dirty[w] = cached ? sim.epoch[sim.cpu] : 0;
	sim.owner[w] = (uint8_t)sim.cpu;
	if (f->kind == SIM_ALINE) {
		store_cell(aline(w), value);
		return;
	}
	if (w != f->vword) {
		store_cell(w, value);
		return;
	}
	switch (f->kind) {
	case SIM_AF_ALIAS:
		store_cell(f->aword, value);
		break;
	case SIM_AF_NONE:
		break;
	case SIM_AF_MULTI:
		store_cell(f->aword, value);
		store_cell(w, value);
		break;
	default:
		store_cell(w, value);
		break;
	}
}

uint64_t sim_read(uint64_t addr)
{
	if (sim.tick)
		sim.tick();

	size_t w = word_of(addr);
	const struct sim_fault *f = &sim.f;
	uint64_t a, b;

	sim.reads++;
	if (sim.history)
		remember(w, 1, 0);
	if (sim.dirty[w] && sim.dirty[w] == sim.epoch[sim.owner[w]]) {
		if (!sim.lax)
			die("load of a cached store not flushed (missing "
			    "mem_flush_cache)", addr);
		sim.breaks++;
	}
	if (f->kind == SIM_ALINE)
		return sim.cells[aline(w)];
	if (w != f->vword)
		return sim.cells[w];
	switch (f->kind) {
	case SIM_AF_ALIAS:
		return sim.cells[f->aword];
	case SIM_AF_NONE:
		return f->value ? ~0ull : 0;
	case SIM_AF_MULTI:
		a = sim.cells[w];
		b = sim.cells[f->aword];
		return f->value ? a | b : a & b;
	case SIM_RET:
		if (sim.now_s - sim.written_s >= f->delay_s)
			sim.cells[w] = with_bit(sim.cells[w], f->vbit, f->value);
		return sim.cells[w];
	default:
		return sim.cells[w];
	}
}

void sim_flush_cache(void)
{
	// Epoch 0 marks "clean", so skip it on wrap-around.
	if (++sim.epoch[sim.cpu] == 0)
		sim.epoch[sim.cpu] = 1;
}

void sim_reset(uint64_t base, size_t nwords, uint64_t seed)
{
	if (nwords == 0 || nwords > SIM_MAX_WORDS)
		die("bad simulated memory size", nwords);
	if ((base & 7) || base + 8 * (nwords - 1) < base)
		die("bad simulated memory base", base);
	sim.base = base;
	sim.nwords = nwords;
	// splitmix64: any seed gives well-mixed words.
	for (size_t i = 0; i < nwords; i++) {
		sim.cells[i] = prng_splitmix64(&seed);
		sim.dirty[i] = 0;
	}
	for (unsigned c = 0; c < SIM_MAX_CPUS; c++)
		sim.epoch[c] = 1;
	sim.cpu = 0;
	sim.tick = NULL;
	sim.lax = false;
	sim.breaks = 0;
	sim.history = false;
	sim.f = (struct sim_fault){ .kind = SIM_NONE, .vword = SIZE_MAX,
				    .aword = SIZE_MAX };
	sim.now_s = sim.written_s = 0;
	sim.reads = sim.writes = 0;
}

void sim_inject(const struct sim_fault *f)
{
	bool two_words = f->kind == SIM_AF_ALIAS || f->kind == SIM_AF_MULTI ||
			 f->kind == SIM_CFIN || f->kind == SIM_CFID ||
			 f->kind == SIM_CFST;

	if (f->kind != SIM_ALINE && (f->vword >= sim.nwords || f->vbit > 63))
		die("fault victim outside the memory", f->vword);
	if (two_words && (f->aword >= sim.nwords || f->abit > 63))
		die("fault aggressor outside the memory", f->aword);
	if (f->kind == SIM_ALINE &&
	    (f->abit > 63 || (1ull << f->abit) >= sim.nwords))
		die("address line beyond the memory", f->abit);
	sim.f = *f;
	if (!two_words)
		sim.f.aword = SIZE_MAX;
	if (f->kind == SIM_ALINE)
		sim.f.vword = SIZE_MAX;
	if (f->kind == SIM_SAF)
		sim.cells[f->vword] = with_bit(sim.cells[f->vword], f->vbit,
					       f->value);
	if (f->kind == SIM_CFST)
		enforce_state_coupling();
	sim.written_s = sim.now_s;
}

uint64_t sim_addr(size_t word)
{
	return sim.base + 8 * (uint64_t)word;
}

uint64_t sim_cell(size_t word)
{
	if (word >= sim.nwords)
		die("sim_cell outside the memory", word);
	return sim.cells[word];
}

void sim_sleep(uint32_t seconds)
{
	sim.now_s += seconds;
}

uint64_t sim_reads(void)
{
	return sim.reads;
}

uint64_t sim_writes(void)
{
	return sim.writes;
}

void sim_set_cpu(unsigned cpu)
{
	if (cpu >= SIM_MAX_CPUS)
		die("no such simulated CPU", cpu);
	sim.cpu = cpu;
}

void sim_set_tick(void (*tick)(void))
{
	sim.tick = tick;
}

void sim_set_strict(bool strict)
{
	sim.lax = !strict;
}

uint64_t sim_discipline_breaks(void)
{
	return sim.breaks;
}

uint64_t sim_now(void)
{
	return sim.now_s;
}

void sim_set_history(bool on)
{
	sim.history = on;
	for (size_t i = 0; on && i < sim.nwords; i++)
		sim.hist[i] = 0;
}

uint64_t sim_history(size_t word)
{
	if (word >= sim.nwords)
		die("sim_history outside the memory", word);
	return sim.hist[word];
}
