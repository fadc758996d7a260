// SPDX-License-Identifier: GPL-2.0-or-later
// What a 16550 UART can do, as the command line (lib/boot/cmdline.c) and the
// driver (src/x86/serial.c) must both know it: the one definition of which
// baud rates are valid. Numbers only; no port is touched here.
#ifndef RAMSIFT_LIB_UART_H
#define RAMSIFT_LIB_UART_H

#include <stdbool.h>
#include <stdint.h>

// The divisor latch counts the 1.8432 MHz crystal divided by 16: baud =
// UART_CLOCK / divisor, divisor 1..UART_CLOCK / UART_BAUD_MIN.
#define UART_CLOCK		115200u
#define UART_BAUD_MIN		50u	// divisor 2304, the slowest PC rate
#define UART_BAUD_DEFAULT	UART_CLOCK

// The rates ramsift programs: UART_CLOCK / d for an integer d, from
// UART_BAUD_MIN up.
static inline bool uart_baud_valid(uint64_t baud)
{
	return baud >= UART_BAUD_MIN && baud <= UART_CLOCK && UART_CLOCK % baud == 0;
}

#endif
