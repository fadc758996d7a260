// SPDX-License-Identifier: GPL-2.0-or-later
// The table of memory tests: name, algorithm, parameters, summary, whether
// the default pass runs it, its sweeps, whether several CPUs may run it over
// shares, and its sweeps then. The one list the command line (tests=), the
// run loop and the coverage simulator (tests/sim) read. The default pass is
// chosen for fault coverage per second from the simulator's table; the
// reasoning is in docs/memory-tests.md ("Fault coverage").
#include "capacity.h"
#include "memtest/memtest.h"
#include "memtest/algos.h"
#include "memstr.h"

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
	{
		.name = "address-walk", .run = mt_addrwalk,
		.summary = "walking ones and zeros over the address lines: stuck, open and "
			   "shorted address lines",
		.in_default_pass = true,
		.sweeps = 0, .parallel = false, .shared_sweeps = 0,
	},
	{
		.name = "own-address", .run = mt_ownaddr,
		.summary = "each word holds its own address, then its complement: address "
			   "aliasing and decoder faults, stuck bits",
		.in_default_pass = false,
		.sweeps = 4, .parallel = true, .shared_sweeps = 4,
	},
	{
		.name = "march-c", .run = mt_march, .param = &march_c,
		.summary = "March C- plus 6 data backgrounds: stuck-at, transition, "
			   "decoder and coupling faults, also inside a word",
		.in_default_pass = true,
		.sweeps = 3 * NBACKGROUNDS + 3, .parallel = true, .shared_sweeps = 3 * NBACKGROUNDS + 3 + 2,
	},
	{
		.name = "mi-ones", .run = mt_movinv, .param = &mi_ones,
		.summary = "moving inversions, all zeros and all ones: stuck bits, "
			   "transition faults",
		.in_default_pass = false,
		.sweeps = 3 * 2, .parallel = true, .shared_sweeps = 3 * 2,
	},
	{
		.name = "mi-8bit", .run = mt_movinv, .param = &mi_8bit,
		.summary = "moving inversions, a one (and a zero) walking in every byte",
		.in_default_pass = false,
		.sweeps = 3 * 8, .parallel = true, .shared_sweeps = 3 * 8,
	},
	{
		.name = "mi-random", .run = mt_movinv, .param = &mi_random,
		.summary = "moving inversions, two seeded random patterns",
		.in_default_pass = false,
		.sweeps = 3 * 2, .parallel = true, .shared_sweeps = 3 * 2,
	},
	{
		.name = "mi-walk64", .run = mt_movinv, .param = &mi_walk64,
		.summary = "moving inversions, a one (and a zero) walking through the "
			   "64-bit word",
		.in_default_pass = false,
		.sweeps = 3 * 64, .parallel = true, .shared_sweeps = 3 * 64,
	},
	{
		.name = "random", .run = mt_random,
		.summary = "seeded random sequence, then its complement: data-dependent "
			   "faults",
		.in_default_pass = false,
		.sweeps = 4, .parallel = true, .shared_sweeps = 4,
	},
	{
		.name = "modulo-20", .run = mt_modulo, .param = &modulo_20,
		.summary = "every 20th word against all others written after it: "
			   "disturbance between neighbours",
		.in_default_pass = false,
		.sweeps = 6 * 20, .parallel = true, .shared_sweeps = 6 * 20,
	},
	{
		.name = "block-move", .run = mt_blockmove,
		.summary = "block patterns moved with string copies and compared: faults "
			   "under burst traffic",
		.in_default_pass = false,
		.sweeps = 12, .parallel = true, .shared_sweeps = 12,
	},
	{
		.name = "bit-fade", .run = mt_bitfade,
		.summary = "fill, wait bitfade= seconds, check, both polarities: data "
			   "retention",
		.in_default_pass = true,
		.sweeps = 4, .parallel = true, .shared_sweeps = 4, .retention = true,
	},
	{
		.name = "hammer", .run = mt_hammer,
		.summary = "row hammer: the rows beside victims activated as fast as the machine "
			   "can, double- and many-sided: disturbance between rows",
		.in_default_pass = false,
		.sweeps = 0, .parallel = true, .shared_sweeps = 0,
	},
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
