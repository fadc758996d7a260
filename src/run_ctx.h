// SPDX-License-Identifier: GPL-2.0-or-later
// What the steps of a run share: kmain() fills it once the machine is set
// up and hands it down to the passes, the jobs, the self-check and the
// status screen, instead of each reading globals or taking a long list.
#ifndef RAMSIFT_SRC_RUN_CTX_H
#define RAMSIFT_SRC_RUN_CTX_H

#include <stdint.h>

#include "boot/cmdline.h"
#include "run/ram.h"
#include "run/status.h"

struct run_ctx {
	const struct config *cfg;
	struct ram *ram;		// usable RAM, what is free, the claims
	struct footprint *fp;		// where ramsift is now
	struct run_status *status;	// run_begin()'s
	uint64_t seed;			// the run's (plan_seed)
	uint64_t pass_seed;		// the pass's (plan_pass_seed), set as it begins
};

#endif
