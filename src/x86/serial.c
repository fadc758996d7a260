// SPDX-License-Identifier: GPL-2.0-or-later
// 16550 UART driver: detection by loopback, polled transmit with timeouts.
#include "serial.h"
#include "io.h"
#include "uart.h"

#define UART_THR	0	// transmit holding (DLAB=0, write)
#define UART_RBR	0	// receive buffer (DLAB=0, read)
#define UART_DLL	0	// divisor latch low (DLAB=1)
#define UART_IER	1
#define UART_DLM	1	// divisor latch high (DLAB=1)
#define UART_FCR	2
#define UART_LCR	3
#define UART_MCR	4
#define UART_LSR	5
#define UART_LCR_8N1	0x03
#define UART_LCR_DLAB	0x80
#define UART_FCR_ENABLE	0x07	// enable and clear both FIFOs
#define UART_MCR_DTR_RTS_OUT2 0x0b
#define UART_MCR_LOOP	0x10
#define UART_LSR_DR	0x01
#define UART_LSR_THRE	0x20
#define TX_SPINS	200000	// about 10 ms of polling: far more than one byte at 9600 baud

static const uint16_t com_base[4] = { 0x3f8, 0x2f8, 0x3e8, 0x2e8 };
static uint16_t base;	// 0: no UART in use

// The UART's own loopback: what we send must come back, which an empty bus
// (reads of 0xff) cannot fake.
static bool uart_loopback_ok(uint16_t b)
{
	static const uint8_t probe[2] = { 0xa5, 0x5a };

	outb(b + UART_MCR, UART_MCR_LOOP);
	// Drain stale input; an empty bus reads 0xff (data always "ready").
	for (int i = 0; i < 64 && (inb(b + UART_LSR) & UART_LSR_DR); i++)
		(void)inb(b + UART_RBR);
	for (int i = 0; i < 2; i++) {
		outb(b + UART_THR, probe[i]);
		int spins = TX_SPINS;
		while (!(inb(b + UART_LSR) & UART_LSR_DR) && --spins)
			cpu_relax();
		if (!spins || inb(b + UART_RBR) != probe[i])
			return false;
	}
	return true;
}

bool serial_init(unsigned port, uint32_t baud)
{
	base = 0;
	if (port >= 4 || !uart_baud_valid(baud))
		return false;
	uint16_t b = com_base[port];
	uint16_t div = UART_CLOCK / baud;

	outb(b + UART_IER, 0);
	outb(b + UART_LCR, UART_LCR_DLAB);
	outb(b + UART_DLL, div & 0xff);
	outb(b + UART_DLM, div >> 8);
	outb(b + UART_LCR, UART_LCR_8N1);
	outb(b + UART_FCR, UART_FCR_ENABLE);
	if (!uart_loopback_ok(b))
		return false;
	outb(b + UART_MCR, UART_MCR_DTR_RTS_OUT2);
	base = b;
	return true;
}

static void serial_putc(char c)
{
	int spins = TX_SPINS;
	while (!(inb(base + UART_LSR) & UART_LSR_THRE) && --spins)
		cpu_relax();
	outb(base + UART_THR, (uint8_t)c);
}

void serial_write(const char *s, size_t n)
{
	if (!base)
		return;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			serial_putc('\r');
		serial_putc(s[i]);
	}
}

int serial_read(void)
{
	if (!base || !(inb(base + UART_LSR) & UART_LSR_DR))
		return -1;
	return inb(base + UART_RBR);
}
