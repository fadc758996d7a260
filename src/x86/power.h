// SPDX-License-Identifier: GPL-2.0-or-later
// Leaving the tester: halt, reboot, or exit QEMU with a status.
#ifndef RAMSIFT_SRC_X86_POWER_H
#define RAMSIFT_SRC_X86_POWER_H

#include <stdint.h>

// What halting says.
#define POWER_HALTED_LINE "ramsift: halted; it is safe to power off or reset the machine"

// Say it is safe to power off, and halt this CPU for good.
_Noreturn void power_halt(void);

// Reset the machine (keyboard controller, then port 0xcf9, then a triple
// fault); halts if none of them works.
_Noreturn void power_reboot(void);

// Write code to QEMU's isa-debug-exit port (0xf4): QEMU exits with status
// (code << 1) | 1. Without the device, says so and halts.
_Noreturn void power_qemu_exit(uint8_t code);

#endif
