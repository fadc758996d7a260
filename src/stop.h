// SPDX-License-Identifier: GPL-2.0-or-later
// A request to stop the run, which a key makes (KEY_STOP) wherever the keys
// are read: the pass loop ends at its next test, and the report covers what
// was found so far. A leaf: anything may ask or look, on any CPU.
#ifndef RAMSIFT_SRC_STOP_H
#define RAMSIFT_SRC_STOP_H

#include <stdbool.h>

// Ask the run to stop.
void stop_request(void);

// True once stop_request() was called.
bool stop_requested(void);

#endif
