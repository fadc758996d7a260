// SPDX-License-Identifier: GPL-2.0-or-later
// TSC calibration: PIT channel 2 in mode 0 counts down from a known value at
// 1.193182 MHz; its OUT pin (port 0x61 bit 5) rises when it reaches zero.
#include "io.h"
#include "timer.h"

#define PIT_HZ		1193182u
#define PIT_CH2		0x42
#define PIT_CMD		0x43
#define PIT_CMD_CH2_MODE0 0xb0	// channel 2, lobyte/hibyte, mode 0, binary
#define PORT_B		0x61
#define PORT_B_GATE2	0x01
#define PORT_B_SPEAKER	0x02
#define PORT_B_OUT2	0x20
#define CALIBRATE_MS	50
#define FALLBACK_HZ	1000000000ull
#define PIT_SPINS	100000000	// far beyond 50 ms even on a slow emulator

static uint64_t tsc_hz = FALLBACK_HZ;
static uint64_t tsc_start;

bool timer_init(void)
{
	uint16_t count = PIT_HZ / (1000 / CALIBRATE_MS);
	bool ok = false;

	outb(PORT_B, (inb(PORT_B) & ~PORT_B_SPEAKER) | PORT_B_GATE2);
	outb(PIT_CMD, PIT_CMD_CH2_MODE0);
	outb(PIT_CH2, count & 0xff);
	outb(PIT_CH2, count >> 8);
	uint64_t t0 = rdtsc();
	for (long spins = 0; spins < PIT_SPINS; spins++) {
		if (inb(PORT_B) & PORT_B_OUT2) {
			ok = true;
			break;
		}
	}
	uint64_t t1 = rdtsc();
	if (ok && t1 > t0)
		tsc_hz = (t1 - t0) * PIT_HZ / count;
	tsc_start = rdtsc();
	return ok;
}

uint64_t timer_tsc_hz(void)
{
	return tsc_hz;
}

// Ticks since timer_init() in units of 1/per_second s, without overflow
// (d % tsc_hz * per_second stays below 2^64 while tsc_hz < 2^44).
static uint64_t since_start(uint64_t per_second)
{
	uint64_t d = rdtsc() - tsc_start;
	return d / tsc_hz * per_second + d % tsc_hz * per_second / tsc_hz;
}

uint64_t timer_ms(void)
{
	return since_start(1000);
}

uint64_t timer_us(void)
{
	return since_start(1000000);
}

void timer_delay_us(uint64_t us)
{
	uint64_t start = rdtsc();
	uint64_t ticks = tsc_hz / 1000000 * us + tsc_hz % 1000000 * us / 1000000;
	while (rdtsc() - start < ticks)
		cpu_relax();
}

void timer_delay_ms(uint64_t ms)
{
	uint64_t end = timer_ms() + ms;
	while (timer_ms() < end)
		cpu_relax();
}
