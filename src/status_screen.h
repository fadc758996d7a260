// SPDX-License-Identifier: GPL-2.0-or-later
// The status screen and the result panel on the screen console (VGA text or
// a framebuffer): the layouts are lib/screen's (status_view, result_view);
// this feeds them from the run status and draws them, under the console
// lock. The serial console never sees any of it; with no screen, every call
// here does nothing.
#ifndef RAMSIFT_SRC_STATUS_SCREEN_H
#define RAMSIFT_SRC_STATUS_SCREEN_H

#include <stdint.h>

#include "boot/cmdline.h"
#include "boot/multiboot.h"
#include "run/status.h"
#include "run_ctx.h"

// The run begins: the header's facts (the boot information, usable RAM from
// the run status), the pass's work from run's tests over its free memory
// and ramsift's own footprint, then the status rows at the top of the
// screen and the log below them; the rows follow run->status from then
// on. Nothing on a screen under 80x25. Called once, on the BSP, before the
// first pass.
void status_screen_start(const struct run_ctx *run, const struct bootinfo *bi);

// The BSP's progress path (between chunks of a test, in bit-fade's wait):
// redraw the status rows from the run status, at most every
// STATUS_SCREEN_EVERY_MS.
#define STATUS_SCREEN_EVERY_MS 250
void status_screen_tick(void);

// bit-fade waits seconds now (the status rows say so, the estimate knows).
void status_screen_waiting(uint32_t seconds);

// The end, before the result line is printed: the text of the result
// panel's QR code, the result line (result_line) and, on FAIL, the
// GRUB_BADRAM= and memmap= lines of the last fold; a line that would make
// the text longer than QR version 40-L holds is left out, the last first,
// and a summary line says so. Nothing without a screen.
void status_screen_prepare_result(enum result r, const char *result_line);

// After the result line: the result panel (src/run.c's run_finish, also on
// the panic path: it takes no lock and waits on nothing). What the keys do
// now depends on onexit. On an 80x25 VGA text screen it switches to 80x50
// first, so that the QR code fits.
void status_screen_result(enum result r, enum onexit onexit);

#endif
