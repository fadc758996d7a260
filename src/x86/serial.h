// SPDX-License-Identifier: GPL-2.0-or-later
// 16550 UART console on COM1..COM4.
#ifndef RAMSIFT_SRC_X86_SERIAL_H
#define RAMSIFT_SRC_X86_SERIAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// Probe COMn (port 0..3 = ttyS0..ttyS3) with the loopback test and, if a
// UART answers, program it for baud 8N1 with FIFOs on. Returns false when no
// UART is there; serial_write() is then a no-op.
bool serial_init(unsigned port, uint32_t baud);

// Write n bytes, turning "\n" into "\r\n". Each byte waits a bounded time for
// the transmitter, so a wedged UART slows output but never hangs the run.
void serial_write(const char *s, size_t n);

// The next byte received, or -1 when none waits (or no UART is in use).
int serial_read(void);

#endif
