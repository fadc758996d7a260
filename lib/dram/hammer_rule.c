// SPDX-License-Identifier: GPL-2.0-or-later
// The two-rate rule of the row hammer test, after MemTest86's test 13: a
// flip that shows at the maximum rate the machine reaches but not at about
// 200 K activations per window says the module is vulnerable to row hammer
// at that rate, which every DDR4 module is at some rate; it is counted
// apart. A flip that also shows at the lower rate, or that the retest could
// not rule out, is a plain error.
#include "dram/hammer.h"

bool hammer_same_flip(const struct hammer_flip *f, const struct hammer_flip *g)
{
	uint64_t both = (f->expected ^ f->actual) & (g->expected ^ g->actual);

	return f->addr == g->addr && both != 0;
}

bool hammer_only_at_max(const struct hammer_flip *f, uint32_t rate,
			uint32_t low_rate, const struct hammer_flip *low,
			size_t nlow, bool lost)
{
	// At or below the lower rate the maximum was no stress beyond it.
	if (rate <= low_rate || lost)
		return false;
	for (size_t i = 0; i < nlow; i++)
		if (hammer_same_flip(f, &low[i]))
			return false;
	return true;
}
