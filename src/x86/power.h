// SPDX-License-Identifier: GPL-2.0-or-later
// Leaving the tester: halt, reboot, or exit QEMU with a status.
#ifndef RAMSIFT_SRC_X86_POWER_H
#define RAMSIFT_SRC_X86_POWER_H

#include "boot/cmdline.h"

// End the program as `how` says. code is the value written to QEMU's
// isa-debug-exit port (0xf4) for ONEXIT_QEMU; QEMU then exits with status
// (code << 1) | 1. If the chosen way does not work (no debug-exit device,
// reset ignored), falls back to halting.
_Noreturn void power_exit(enum onexit how, uint8_t code);

#endif
