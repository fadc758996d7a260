// SPDX-License-Identifier: GPL-2.0-or-later
// Polled keys from the keyboard and the serial console (see keypoll.h).
#include <stdbool.h>

#include "fmt.h"
#include "keypoll.h"
#include "leave.h"
#include "log.h"
#include "machine.h"
#include "usbkeys.h"
#include "x86/io.h"
#include "x86/kbd.h"
#include "x86/serial.h"
#include "x86/timer.h"

// A terminal sends Esc first in the sequences of its arrow and function keys
// (Esc [ A, Esc O P): an Esc followed this quickly by '[' or 'O' is one of
// those, not the Esc key. At 9600 baud a byte takes about 1 ms.
#define ESC_SEQUENCE_MS 30
#define SEQUENCE_MAX 16

static int pending = -1;	// a serial byte read after a lone Esc

static int serial_byte_within(uint64_t ms)
{
	uint64_t end = timer_ms() + ms;
	int c;

	while ((c = serial_read()) < 0 && timer_ms() < end)
		cpu_relax();
	return c;
}

static int serial_key(void)
{
	int c = pending >= 0 ? pending : serial_read();

	pending = -1;
	if (c != KEY_ESC)
		return c;
	int next = serial_byte_within(ESC_SEQUENCE_MS);
	if (next != '[' && next != 'O') {
		pending = next;
		return KEY_ESC;
	}
	// Swallow the sequence up to its final byte (0x40-0x7e).
	for (int i = 0; i < SEQUENCE_MAX; i++) {
		int b = serial_byte_within(ESC_SEQUENCE_MS);
		if (b < 0 || (b >= 0x40 && b <= 0x7e))
			break;
	}
	return -1;
}

static int key(void)
{
	int c = kbd_read();
	if (c < 0)
		c = usbkeys_read();
	return c >= 0 ? c : serial_key();
}

static int wait_key(void)
{
	int c;
	while ((c = key()) < 0)
		cpu_relax();
	return c;
}

// The i8042 is probed unless the FADT says there is none.
static bool ps2_init(void)
{
	const struct machine *m = machine_get();

	if (m && m->i8042 == ACPI_8042_ABSENT) {
		log_info("keys: the ACPI FADT says there is no i8042 keyboard controller; "
			 "it is not probed");
		return false;
	}
	return kbd_init();
}

// The keys: line naming every source read: "PS/2, USB keyboard at ...,
// serial ttyS0".
static void log_sources(bool ps2, const char *usb, const struct config *cfg, bool serial_ok)
{
	char line[LOG_LINE_MAX], serial[16] = "";

	if (serial_ok)
		fmt_snprintf(serial, sizeof(serial), "serial ttyS%u", cfg->serial_port);
	fmt_snprintf(line, sizeof(line), "%s%s%s%s%s", ps2 ? "PS/2" : "",
		     ps2 && (usb[0] || serial[0]) ? ", " : "", usb, usb[0] && serial[0] ? ", " : "",
		     serial);
	if (line[0])
		log_info("keys: %s", line);
	else
		log_warn("keys: no keyboard found and no serial console; only a reset stops the run "
			 "(plug in a keyboard, or boot with console=ttyS0)");
}

void keys_init(const struct config *cfg, bool serial_ok, uint64_t usb_mem)
{
	static char usb[USBKEYS_DESCRIBE_LEN];
	bool ps2 = ps2_init();

	usbkeys_start(usb_mem);
	usbkeys_describe(usb, sizeof(usb));
	if (ps2 || usb[0])
		log_info("keys: Esc or q stops, s skips a test, p pauses, r reboots, ? lists "
			 "them (keyboard and serial console)");
	else
		log_info("keys: no PS/2 keyboard controller; keys work on the serial console "
			 "only (Esc or q stops, s skips, p pauses, r reboots, ? lists them)");
	log_sources(ps2, usb, cfg, serial_ok);
}

static void help(void)
{
	for (const char *const *l = keys_help_lines; *l; l++)
		log_info("%s", *l);
}

static void reboot_if_confirmed(void)
{
	log_info("keys: reboot? press y to reboot, any other key to go on");
	int c = wait_key();
	if (c == 'y' || c == 'Y')
		leave_reboot();
	log_info("keys: not rebooting; the run goes on");
}

static enum key_action pause_until_key(void)
{
	log_info("keys: paused; p goes on, Esc or q stops");
	for (;;) {
		enum key_action a = keys_action(wait_key());
		switch (a) {
		case KEY_PAUSE:
			log_info("keys: going on");
			return KEY_NONE;
		case KEY_STOP:
		case KEY_SKIP:
			return a;
		case KEY_REBOOT:
			reboot_if_confirmed();
			break;
		case KEY_HELP:
			help();
			break;
		case KEY_NONE:
			break;
		}
	}
}

enum key_action keys_poll(void)
{
	enum key_action a = keys_action(key());

	switch (a) {
	case KEY_HELP:
		help();
		return KEY_NONE;
	case KEY_REBOOT:
		reboot_if_confirmed();
		return KEY_NONE;
	case KEY_PAUSE:
		return pause_until_key();
	default:
		return a;
	}
}

_Noreturn void keys_reboot_on_any(void)
{
	(void)wait_key();
	leave_reboot();
}
