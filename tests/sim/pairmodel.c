// SPDX-License-Identifier: GPL-2.0-or-later
// The exhaustive two-word model of pairmodel.h. The state of a case is only
// the two bits (a's bit p, v's bit q); a race's outcomes make a set of
// states, followed element by element (at most four states, so every
// outcome of every race is covered without enumerating the 3^30 of them).
#include <stdbool.h>
#include <stdlib.h>

#include "pairmodel.h"

// How an element orders a and v: a first, v first, or a race.
enum visit { A_FIRST, V_FIRST, RACE };

// Step orders of an element (march.c): none (a race for every pair), or a
// family's, forward (⇑) or reversed (⇓).
enum order { NONE, A_UP, A_DOWN, C_UP, C_DOWN };

struct element {
	enum order order;
	bool reads, writes;
	uint64_t read, write; // what it expects, what it writes
};

#define MAX_ELEMENTS 64

// A coupling: kind 0 idempotent (trigger: a becomes t; v := y), 1 inversion
// (a becomes t; v := !v), 2 state (while a == t, v is y).
struct coupling {
	int kind, t, y;
};

static const struct coupling couplings[] = {
	{ 0, 0, 0 }, { 0, 0, 1 }, { 0, 1, 0 }, { 0, 1, 1 }, { 1, 0, 0 },
	{ 1, 1, 0 }, { 2, 0, 0 }, { 2, 0, 1 }, { 2, 1, 0 }, { 2, 1, 1 },
};

// A relation under one family: a before v (forward), after, or no order.
enum rel { BEFORE, AFTER, UNORDERED };

static int enforce(const struct coupling *c, int a, int v)
{
	return c->kind == 2 && a == c->t ? c->y : v;
}

static void write_a(const struct coupling *c, int *a, int *v, int bit)
{
	int old = *a;

	*a = bit;
	if (old != bit && bit == c->t) {
		if (c->kind == 0)
			*v = c->y;
		else if (c->kind == 1)
			*v = !*v;
	}
	*v = enforce(c, *a, *v);
}

static void write_v(const struct coupling *c, int a, int *v, int bit)
{
	*v = enforce(c, a, bit);
}

static enum visit visit_of(enum order o, enum rel ra, enum rel rc)
{
	enum rel r = o == A_UP || o == A_DOWN ? ra : rc;

	if (o == NONE || r == UNORDERED)
		return RACE;
	if (o == A_DOWN || o == C_DOWN)
		return r == BEFORE ? V_FIRST : A_FIRST;
	return r == BEFORE ? A_FIRST : V_FIRST;
}

// Whether every outcome of the races finds the coupling.
static bool found(const struct element *e, int n, const struct coupling *c,
		  unsigned p, unsigned q, enum rel ra, enum rel rc)
{
	unsigned states = 0; // bit 2 * a + v: a state some outcome reaches

	for (int a = 0; a < 2; a++)
		for (int v = 0; v < 2; v++)
			states |= 1u << (2 * a + enforce(c, a, v));
	for (int i = 0; i < n; i++) {
		enum visit vis = visit_of(e[i].order, ra, rc);
		int rv = (int)(e[i].read >> q & 1), wa = (int)(e[i].write >> p & 1);
		int wv = (int)(e[i].write >> q & 1);
		unsigned next = 0;

		for (unsigned s = 0; s < 4; s++) {
			if (!(states >> s & 1))
				continue;
			// Outcomes: a first, v first, and (races only) v read,
			// then a written, then v written.
			for (int out = A_FIRST; out <= RACE; out++) {
				int a = (int)(s >> 1), v = (int)(s & 1);

				if (vis != RACE && out != (int)vis)
					continue;
				if (out == A_FIRST && e[i].writes)
					write_a(c, &a, &v, wa);
				if (e[i].reads && v != rv)
					continue; // v's read finds it
				if (e[i].writes) {
					if (out == RACE)
						write_a(c, &a, &v, wa);
					write_v(c, a, &v, wv);
					if (out == V_FIRST)
						write_a(c, &a, &v, wa);
				}
				next |= 1u << (2 * a + v);
			}
		}
		states = next;
		if (!states)
			return true;
	}
	return false;
}

// A March C- core's four elements over background d, in family up's steps
// (down: the same family reversed).
static int core(struct element *e, enum order up, enum order down, uint64_t d)
{
	e[0] = (struct element){ up, true, true, d, ~d };
	e[1] = (struct element){ up, true, true, ~d, d };
	e[2] = (struct element){ down, true, true, d, ~d };
	e[3] = (struct element){ down, true, true, ~d, d };
	return 4;
}

// The elements of march-c over shares under schedule s (mt_march).
static int elements(const struct mt_march_param *p, enum pair_schedule s,
		    struct element *e)
{
	uint64_t d = p->backgrounds[0];
	bool ordered = s != PAIR_PLAIN;
	int n = 0;

	e[n++] = (struct element){ NONE, false, true, 0, d };
	n += core(e + n, ordered ? A_UP : NONE, ordered ? A_DOWN : NONE, d);
	if (s == PAIR_SOLID_CORES)
		n += core(e + n, C_UP, C_DOWN, d);
	for (size_t i = 1; i < p->count && n + 6 <= MAX_ELEMENTS; i++) {
		uint64_t b = p->backgrounds[i];

		e[n++] = (struct element){ NONE, true, true, d, b };
		if (i == 1 && s == PAIR_MARCH) {
			n += core(e + n, C_UP, C_DOWN, b);
		} else {
			e[n++] = (struct element){ NONE, true, true, b, ~b };
			e[n++] = (struct element){ NONE, true, true, ~b, b };
		}
		d = b;
	}
	e[n++] = (struct element){ NONE, true, false, d, 0 };
	return n;
}

void pair_check(const struct mt_march_param *p, enum pair_schedule s,
		struct pair_result *r)
{
	struct element e[MAX_ELEMENTS];
	int n = elements(p, s, e);

	*r = (struct pair_result){ 0 };
	for (int ra = BEFORE; ra <= UNORDERED; ra++) {
		for (int rc = BEFORE; rc <= UNORDERED; rc++) {
			if (ra == UNORDERED && rc == UNORDERED)
				continue; // never both (march.c)
			for (unsigned bp = 0; bp < 64; bp++) {
				for (unsigned bq = 0; bq < 64; bq++) {
					for (size_t k = 0; k < sizeof(couplings) /
							       sizeof(couplings[0]); k++) {
						const struct coupling *c = &couplings[k];

						r->cases++;
						if (found(e, n, c, bp, bq, ra, rc))
							continue;
						r->missed++;
						r->missed_id += c->kind == 0;
						r->missed_in += c->kind == 1;
						r->missed_st += c->kind == 2;
						r->missed_same_slice += ra == UNORDERED;
					}
				}
			}
		}
	}
}

// The case search of pair_free_orders_fail for one order of the elements:
// whether some case with the words in one slice (family A leaves them to the
// races) and aggressor bit in fixed (a mask) is missed.
static bool misses_one_slice(const struct element *e, int n, uint64_t fixed)
{
	for (unsigned bp = 0; bp < 64; bp++) {
		if (!(fixed >> bp & 1))
			continue;
		for (int rc = BEFORE; rc <= AFTER; rc++)
			for (unsigned bq = 0; bq < 64; bq++)
				for (size_t k = 0; k < sizeof(couplings) /
						       sizeof(couplings[0]); k++)
					if (!found(e, n, &couplings[k], bp, bq,
						   UNORDERED, rc))
						return true;
	}
	return false;
}

bool pair_free_orders_fail(const struct mt_march_param *p, uint64_t *orders)
{
	struct element e[MAX_ELEMENTS];
	int n = elements(p, PAIR_ONE_CORE, e);
	uint64_t fixed = ~0ull, total = 1;
	size_t nfree = 2 * (p->count - 1);
	static const enum order choice[] = { NONE, C_UP, C_DOWN };

	for (size_t i = 1; i < p->count; i++) {
		fixed &= ~(p->backgrounds[i - 1] ^ p->backgrounds[i]);
		total *= 9;
	}
	*orders = total;
	for (uint64_t o = 0; o < total; o++) {
		uint64_t x = o;

		// Elements 5 + 3 (i - 1) + 1 and + 2: background i's second and
		// third (after the fill and the core).
		for (size_t j = 0; j < nfree; j++, x /= 3)
			e[5 + 3 * (j / 2) + 1 + j % 2].order = choice[x % 3];
		if (!misses_one_slice(e, n, fixed))
			return false;
	}
	return true;
}
