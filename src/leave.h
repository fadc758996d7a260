// SPDX-License-Identifier: GPL-2.0-or-later
// How ramsift leaves the machine: halt, power off, reboot or exit QEMU
// (src/x86/power.h does it), and what it says when a way does not work.
// Only the bootstrap processor leaves; the others are halted or parked.
#ifndef RAMSIFT_SRC_LEAVE_H
#define RAMSIFT_SRC_LEAVE_H

#include <stdint.h>

// What the ways out say, before the result line (run_finish) or as they go.
#define LEAVE_HALTED_LINE "ramsift: halted; it is safe to power off or reset the machine"
#define LEAVE_REBOOTING_LINE "ramsift: rebooting"
#define LEAVE_POWER_OFF_LINE "ramsift: powering off"

// Say LEAVE_HALTED_LINE, and halt this CPU for good.
_Noreturn void leave_halt(void);

// Power off through ACPI S5 (onexit=poweroff). Without it, or when the
// machine is still on after it, says so and halts. The caller has said
// LEAVE_POWER_OFF_LINE.
_Noreturn void leave_power_off(void);

// Reset the machine: the ACPI reset register, then the legacy ways
// (onexit=reboot); halts if none works. The caller has said
// LEAVE_REBOOTING_LINE.
_Noreturn void leave_reset(void);

// Say LEAVE_REBOOTING_LINE, then leave_reset() (the r key, a key after the
// result).
_Noreturn void leave_reboot(void);

// Exit QEMU with code (onexit=qemu); without its isa-debug-exit device,
// says so and halts.
_Noreturn void leave_qemu(uint8_t code);

#endif
