// SPDX-License-Identifier: GPL-2.0-or-later
// The clock of the pass running: where src/pass.c is in the pass's steps
// (lib/run/schedule.h), for the time-left estimate that the status screen
// shows and the `pass P: left_s=N` line prints. Written by the BSP alone.
#ifndef RAMSIFT_SRC_PASSCLOCK_H
#define RAMSIFT_SRC_PASSCLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "run/schedule.h"
#include "run/status.h"

// Pass s->pass begins at now with the steps and work of c.
void passclock_begin(const struct sched_clock *c, const struct run_status *s, uint64_t now);

// Step i begins at now; a job of the step ended, having done work; the
// window's last fill ended at now.
void passclock_step(size_t i, uint64_t now);
void passclock_job_end(uint64_t work);
void passclock_filled(uint64_t now);

// The pass's time left at now; false when not known (no pass, no rate yet).
bool passclock_left(uint64_t now, uint64_t *left_ms);

// Print "pass P: left_s=N t=S" when one is due (every 10 s).
void passclock_tick(uint64_t now);

// The pass ended: no estimate until the next begins.
void passclock_end(void);

#endif
