// SPDX-License-Identifier: GPL-2.0-or-later
// The ways out (see leave.h). The warnings name the onexit= value that
// chose the way, so a person knows which setting did not work.
#include "leave.h"
#include "log.h"
#include "x86/io.h"
#include "x86/power.h"

_Noreturn void leave_halt(void)
{
	log_info(LEAVE_HALTED_LINE);
	cpu_halt_forever();
}

_Noreturn void leave_power_off(void)
{
	if (!power_off_known()) {
		log_warn("onexit=poweroff: no ACPI S5 (the power: line at the start says why); "
			 "halting instead");
		leave_halt();
	}
	if (!power_acpi_mode())
		log_warn("onexit=poweroff: the firmware did not switch to ACPI mode (SCI_EN "
			 "clear); trying S5 anyway");
	power_off();
	log_warn("onexit=poweroff: the machine is still on %u s after ACPI S5; halting instead",
		 POWER_OFF_WAIT_MS / 1000);
	leave_halt();
}

_Noreturn void leave_reset(void)
{
	if (power_reset_acpi())
		log_warn("onexit=reboot: the ACPI reset register did not reset the machine");
	power_reset_legacy();
	leave_halt();
}

_Noreturn void leave_reboot(void)
{
	log_info(LEAVE_REBOOTING_LINE);
	leave_reset();
}

_Noreturn void leave_qemu(uint8_t code)
{
	power_qemu_exit(code);
	log_warn("onexit=qemu: no isa-debug-exit device at port 0x%x; halting instead",
		 POWER_QEMU_EXIT_PORT);
	leave_halt();
}
