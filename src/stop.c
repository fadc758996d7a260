// SPDX-License-Identifier: GPL-2.0-or-later
// The request to stop the run (see stop.h).
#include "stop.h"

static bool requested;

void stop_request(void)
{
	__atomic_store_n(&requested, true, __ATOMIC_RELAXED);
}

bool stop_requested(void)
{
	return __atomic_load_n(&requested, __ATOMIC_RELAXED);
}
