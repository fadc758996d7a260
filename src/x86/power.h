// SPDX-License-Identifier: GPL-2.0-or-later
// The machine's ways out: power off, reset, or exit QEMU with a status.
// Power-off and the first way to reset come from the firmware's tables
// (the ACPI FADT, read at start-up); the caller hands them over as plain
// register locations and values. Each returns when it did not work, and
// the caller (src/leave.c) says what that means.
#ifndef RAMSIFT_SRC_X86_POWER_H
#define RAMSIFT_SRC_X86_POWER_H

#include <stdbool.h>
#include <stdint.h>

// How long power_off() waits for the machine to go off.
#define POWER_OFF_WAIT_MS 2000

// QEMU's isa-debug-exit port.
#define POWER_QEMU_EXIT_PORT 0xf4

// Where a register is: an I/O port, a physical address the page tables
// map, or bus 0's PCI configuration space (addr: device << 32 | function
// << 16 | offset, as ACPI encodes it).
enum power_space { POWER_SPACE_IO, POWER_SPACE_MEMORY, POWER_SPACE_PCI };

struct power_reg {
	enum power_space space;
	uint64_t addr;		// 0: there is no such register
};

// ACPI S5 for power_off(): the PM1a (and PM1b, addr 0: none) control
// registers, 16 bits wide, and the SLP_TYP value for each. To put the
// machine in ACPI mode first (when SCI_EN is clear), acpi_enable is written
// to the I/O port smi_cmd (0: not needed or not possible).
void power_set_sleep(struct power_reg pm1a, struct power_reg pm1b, uint8_t slp_typ_a,
		     uint8_t slp_typ_b, uint16_t smi_cmd, uint8_t acpi_enable);

// The ACPI reset register (8 bits) and the value that resets the machine,
// tried by power_reset_acpi().
void power_set_reset(struct power_reg reg, uint8_t value);

// The firmware says there is no keyboard controller: power_reset_legacy()
// leaves port 0x64 alone (something else may answer there).
void power_set_no_kbc(void);

// Whether the firmware gave ACPI S5 (power_set_sleep) for power_off().
bool power_off_known(void);

// Put the firmware in ACPI mode when it is not (SCI_EN clear) and it can
// be asked to; returns whether it is.
bool power_acpi_mode(void);

// Enter ACPI S5. Requires power_off_known(); returns when the machine is
// still on POWER_OFF_WAIT_MS later.
void power_off(void);

// Reset through the ACPI reset register (power_set_reset), logged first:
// false when there is none, true when the machine is still on a moment
// after the write.
bool power_reset_acpi(void);

// Reset through the keyboard controller (unless power_set_no_kbc()), then
// port 0xcf9, then a triple fault, each logged before it is tried; returns
// when none worked.
void power_reset_legacy(void);

// Write code to QEMU's isa-debug-exit port: QEMU exits with status
// (code << 1) | 1. Returns when there is no such device.
void power_qemu_exit(uint8_t code);

#endif
