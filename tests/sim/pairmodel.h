// SPDX-License-Identifier: GPL-2.0-or-later
// An exhaustive model of march-c over shares for a coupling between two
// words of different shares: what the fault simulator samples, this checks
// for every case: bits p and q of aggressor a and victim v (all 64 x 64),
// every coupling of the simulator's models, every relation of the two words
// under march-c's two step orders (march.c's families A and C). Where an
// element's steps do not order the two words, the two CPUs race and the
// model tries every outcome (a first, v first, or v's read and write on
// either side of a's write). A case is found when every outcome ends in a
// read of v that differs from what march-c expects. The elements mirror
// mt_march over the test table's backgrounds (docs/memory-tests.md, "march-c
// across shares").
#ifndef RAMSIFT_TESTS_SIM_PAIRMODEL_H
#define RAMSIFT_TESTS_SIM_PAIRMODEL_H

#include <stdint.h>

#include "memtest/algos.h"

// Which of march-c's element orders the model applies.
enum pair_schedule {
	PAIR_PLAIN,       // no order across shares: every element races
	PAIR_ONE_CORE,    // the core's elements in family A's steps only
	PAIR_SOLID_CORES, // and a second core over background 0 in family
			  // C's (march-c until 2026-12: 4 sweeps more)
	PAIR_MARCH,       // march-c over shares: the core in family A's
			  // steps, the first further background's march a
			  // core in family C's (2 sweeps more)
	PAIR_NSCHEDULES
};

struct pair_result {
	uint64_t cases;        // bit pairs x couplings x relations
	uint64_t missed;       // cases some outcome of the races hides
	uint64_t missed_id, missed_in, missed_st; // by kind of coupling
	uint64_t missed_same_slice; // of missed: a and v in one slice (A
				    // orders them not)
};

// Check every case under schedule s, march-c's backgrounds from p.
void pair_check(const struct mt_march_param *p, enum pair_schedule s,
		struct pair_result *r);

// Whether no schedule of march-c over shares without a sweep more than one
// core's finds every case: for each order of the backgrounds' second and
// third elements (none, family C's steps up or down; family A's order none
// of the pairs the core leaves to the races, those in one slice), some case
// is missed. The search looks among the cases whose aggressor bit no
// background's first element changes (for them the first elements' order
// does not matter: they never trigger it), so it covers every order of
// every background element. *orders: how many orders it tried.
bool pair_free_orders_fail(const struct mt_march_param *p, uint64_t *orders);

#endif
