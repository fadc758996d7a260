// SPDX-License-Identifier: GPL-2.0-or-later
// Run state and the result line. Owned by the bootstrap processor; the test
// loops never touch it directly.
#include <stdbool.h>

#include "console.h"
#include "errors.h"
#include "keypoll.h"
#include "leave.h"
#include "log.h"
#include "record_keep.h"
#include "fold_report.h"
#include "run.h"
#include "status_screen.h"
#include "x86/io.h"
#include "x86/timer.h"
#include "version.h"

static struct {
	struct config cfg;	// defaults until run_begin()
	bool cfg_set;
	struct run_status status;
	bool finishing;
} run;

struct run_status *run_begin(const struct config *cfg, uint64_t usable_bytes)
{
	run.cfg = *cfg;
	run.cfg_set = true;
	run.status.usable_bytes = usable_bytes;
	return &run.status;
}

// What happens after the result line, said before it: the result line is
// the log's last when it all goes as said (docs/output-contract.md).
static void announce_end(enum onexit e)
{
	switch (e) {
	case ONEXIT_QEMU:
		break;
	case ONEXIT_REBOOT:
		log_info(LEAVE_REBOOTING_LINE);
		break;
	case ONEXIT_POWEROFF:
		log_info(LEAVE_POWER_OFF_LINE);
		break;
	case ONEXIT_HALT:
		log_info(LEAVE_HALTED_LINE);
		log_info(KEYS_ANY_KEY_LINE);
		break;
	}
}

_Noreturn void run_finish(enum result r)
{
	char line[LOG_LINE_MAX];

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
	uint64_t now = timer_ms();
	status_line_result(line, sizeof(line), errors_to_status(&run.status), r, now,
			   RAMSIFT_VERSION);
	status_screen_prepare_result(r, line);	// may say the QR code leaves lines out
	// The result panel before the lines that end the log: a screen test
	// that sees them on serial finds it drawn.
	status_screen_result(r, run.cfg.onexit);
	// A firmware that hangs in its SetVariable cannot cost the result: it
	// is printed before the call as well as last.
	if (nvram_will_call(r, errors_to_status(&run.status)))
		log_info("%s", line);
	nvram_keep(r, errors_to_status(&run.status), now);
	announce_end(run.cfg.onexit);
	report_json(&run.cfg, errors_to_status(&run.status), r, now, nvram_outcome());	// the line before the result
	log_info("%s", line);
	switch (run.cfg.onexit) {
	case ONEXIT_QEMU:
		leave_qemu((uint8_t)r);
	case ONEXIT_REBOOT:
		leave_reset();
	case ONEXIT_POWEROFF:
		leave_power_off();
	case ONEXIT_HALT:
		break;
	}
	keys_reboot_on_any();
}
