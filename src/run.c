// SPDX-License-Identifier: GPL-2.0-or-later
// Run state and the result line. Owned by the bootstrap processor; the test
// loops never touch it directly.
#include <stdbool.h>

#include "console.h"
#include "errors.h"
#include "x86/io.h"
#include "log.h"
#include "x86/power.h"
#include "run.h"
#include "x86/timer.h"

static struct {
	struct config cfg;	// defaults until run_begin()
	bool cfg_set;
	uint32_t passes;
	uint64_t tested_bytes;
	uint64_t usable_bytes;
	bool finishing;
} run;

void run_begin(const struct config *cfg, uint64_t usable_bytes)
{
	run.cfg = *cfg;
	run.cfg_set = true;
	run.usable_bytes = usable_bytes;
}

void run_pass_done(uint64_t tested_bytes)
{
	run.passes++;
	if (tested_bytes > run.tested_bytes)
		run.tested_bytes = tested_bytes;
}

uint64_t run_tested_bytes(void)
{
	return run.tested_bytes;
}

_Noreturn void run_finish(enum result r)
{
	static const char *const names[] = { "PASS", "FAIL", "ABORTED" };

	// The result line is the log's last: from here on this CPU alone writes,
	// without the console lock, so this works from an exception handler that
	// interrupted a console write (the line then starts afresh). Before the
	// finishing check: a CPU that lost the takeover to a panicking one halts
	// there, and the panicking one still prints its result.
	console_takeover();
	if (__atomic_exchange_n(&run.finishing, true, __ATOMIC_ACQ_REL))
		cpu_halt_forever();
	if (!run.cfg_set)
		config_defaults(&run.cfg);
	uint64_t ms = timer_ms();
	log_info("ramsift: result=%s passes=%u errors=%llu tested_bytes=%llu usable_bytes=%llu "
		 "elapsed_s=%llu.%03llu",
		 names[r], run.passes, (unsigned long long)errors_total(),
		 (unsigned long long)run.tested_bytes, (unsigned long long)run.usable_bytes,
		 (unsigned long long)(ms / 1000), (unsigned long long)(ms % 1000));
	power_exit(run.cfg.onexit, (uint8_t)r);
}
