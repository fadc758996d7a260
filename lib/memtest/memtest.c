// SPDX-License-Identifier: GPL-2.0-or-later
// The table of memory tests: name, algorithm, parameters, summary, whether
// the default pass runs it, its sweeps, whether several CPUs may run it over
// shares, and its sweeps then. The one list the command line (tests=), the
// run loop and the coverage simulator (tests/sim) read. The default pass is
// chosen for fault coverage per second from the simulator's table; the
// reasoning is in docs/memory-tests.md ("Fault coverage").
#include "capacity.h"
#include "memtest.h"
#include "algos.h"
#include "string.h"

// Data backgrounds for march-c: solid, then one per bit of a bit index
// (0..5), so every pair of bits in a word differs in some background.
static const uint64_t march_backgrounds[] = {
	0x0000000000000000ull, 0x5555555555555555ull, 0x3333333333333333ull,
	0x0f0f0f0f0f0f0f0full, 0x00ff00ff00ff00ffull, 0x0000ffff0000ffffull,
	0x00000000ffffffffull,
};
#define NBACKGROUNDS (sizeof(march_backgrounds) / sizeof(march_backgrounds[0]))
// Over shares, march-c makes the second background's march a core (march.c).
_Static_assert(NBACKGROUNDS >= 2, "march-c needs a further background");

static const struct mt_march_param march_c = { march_backgrounds,
					       NBACKGROUNDS };
static const struct mt_movinv_param mi_ones = { MT_MI_SOLID, 2 };
static const struct mt_movinv_param mi_8bit = { MT_MI_WALK8, 8 };
static const struct mt_movinv_param mi_random = { MT_MI_RANDOM, 2 };
static const struct mt_movinv_param mi_walk64 = { MT_MI_WALK64, 64 };
static const struct mt_modulo_param modulo_20 = { 20 };

const struct mt_test mt_tests[] = {
	{ "address-walk", mt_addrwalk, NULL,
	  "walking ones and zeros over the address lines: stuck, open and "
	  "shorted address lines",
	  true, 0, false, 0 },
	{ "own-address", mt_ownaddr, NULL,
	  "each word holds its own address, then its complement: address "
	  "aliasing and decoder faults, stuck bits",
	  false, 4, true, 4 },
	{ "march-c", mt_march, &march_c,
	  "March C- plus 6 data backgrounds: stuck-at, transition, decoder "
	  "and coupling faults, also inside a word",
	  true, 3 * NBACKGROUNDS + 3, true, 3 * NBACKGROUNDS + 3 + 2 },
	{ "mi-ones", mt_movinv, &mi_ones,
	  "moving inversions, all zeros and all ones: stuck bits, transition "
	  "faults",
	  false, 3 * 2, true, 3 * 2 },
	{ "mi-8bit", mt_movinv, &mi_8bit,
	  "moving inversions, a one (and a zero) walking in every byte",
	  false, 3 * 8, true, 3 * 8 },
	{ "mi-random", mt_movinv, &mi_random,
	  "moving inversions, two seeded random patterns", false, 3 * 2, true,
	  3 * 2 },
	{ "mi-walk64", mt_movinv, &mi_walk64,
	  "moving inversions, a one (and a zero) walking through the 64-bit "
	  "word",
	  false, 3 * 64, true, 3 * 64 },
	{ "random", mt_random, NULL,
	  "seeded random sequence, then its complement: data-dependent faults",
	  false, 4, true, 4 },
	{ "modulo-20", mt_modulo, &modulo_20,
	  "every 20th word against all others written after it: "
	  "disturbance between neighbours",
	  false, 6 * 20, true, 6 * 20 },
	{ "block-move", mt_blockmove, NULL,
	  "block patterns moved with string copies and compared: faults "
	  "under burst traffic",
	  false, 12, true, 12 },
	{ "bit-fade", mt_bitfade, NULL,
	  "fill, wait bitfade= seconds, check, both polarities: data "
	  "retention",
	  true, 4, true, 4 },
};

const size_t mt_ntests = sizeof(mt_tests) / sizeof(mt_tests[0]);
_Static_assert(sizeof(mt_tests) / sizeof(mt_tests[0]) <= MAX_TESTS,
	       "the command line can name at most MAX_TESTS tests (capacity.h)");

const struct mt_test *mt_find(const char *name, size_t len)
{
	for (size_t i = 0; i < mt_ntests; i++)
		if (str_eq_n(name, len, mt_tests[i].name))
			return &mt_tests[i];
	return NULL;
}
