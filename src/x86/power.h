// SPDX-License-Identifier: GPL-2.0-or-later
// Leaving the tester: halt, power off, reboot, or exit QEMU with a status.
// Power-off and the first way to reset come from the firmware's tables
// (the ACPI FADT, read at start-up); the caller hands them over as plain
// register locations and values.
#ifndef RAMSIFT_SRC_X86_POWER_H
#define RAMSIFT_SRC_X86_POWER_H

#include <stdbool.h>
#include <stdint.h>

// What halting says.
#define POWER_HALTED_LINE "ramsift: halted; it is safe to power off or reset the machine"
#define POWER_REBOOTING_LINE "ramsift: rebooting"
#define POWER_OFF_LINE "ramsift: powering off"

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
// tried first by power_reboot().
void power_set_reset(struct power_reg reg, uint8_t value);

// Say it is safe to power off, and halt this CPU for good.
_Noreturn void power_halt(void);

// Power the machine off through ACPI S5 (power_set_sleep). Without it, or
// when the machine is still on 2 s later, says so and halts. The caller has
// said POWER_OFF_LINE.
_Noreturn void power_off(void);

// Say POWER_REBOOTING_LINE, then power_reset().
_Noreturn void power_reboot(void);

// Reset the machine: the ACPI reset register (power_set_reset), then the
// keyboard controller, then port 0xcf9, then a triple fault; each way is
// logged before it is tried. Halts if none of them works.
_Noreturn void power_reset(void);

// Write code to QEMU's isa-debug-exit port (0xf4): QEMU exits with status
// (code << 1) | 1. Without the device, says so and halts.
_Noreturn void power_qemu_exit(uint8_t code);

#endif
