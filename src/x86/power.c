// SPDX-License-Identifier: GPL-2.0-or-later
// Halt, reboot and QEMU exit.
#include "io.h"
#include "log.h"
#include "power.h"
#include "timer.h"

#define QEMU_DEBUG_EXIT	0xf4
#define KBC_STATUS	0x64
#define KBC_PULSE_RESET	0xfe
#define RESET_CONTROL	0xcf9

static void reboot(void)
{
	for (int i = 0; i < 100000 && (inb(KBC_STATUS) & 0x02); i++)
		cpu_relax();
	outb(KBC_STATUS, KBC_PULSE_RESET);
	timer_delay_ms(500);
	outb(RESET_CONTROL, 0x02);
	outb(RESET_CONTROL, 0x06);
	timer_delay_ms(500);
	// Last resort: an empty IDT turns the next interrupt into a triple fault.
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) none = { 0, 0 };
	__asm__ volatile("lidt %0; int3" : : "m"(none));
}

_Noreturn void power_halt(void)
{
	log_info(POWER_HALTED_LINE);
	cpu_halt_forever();
}

_Noreturn void power_reboot(void)
{
	log_info("ramsift: rebooting");
	reboot();
	power_halt();
}

_Noreturn void power_qemu_exit(uint8_t code)
{
	outb(QEMU_DEBUG_EXIT, code);
	log_warn("onexit=qemu: no isa-debug-exit device at port 0xf4; halting instead");
	power_halt();
}
