// SPDX-License-Identifier: GPL-2.0-or-later
// Console fan-out, its lock, and the lock-free takeover of the panic path
// (as xv6's panic: once a CPU panics, it alone writes, without the lock).
#include <stdbool.h>

#include "console.h"
#include "x86/cpu.h"
#include "x86/io.h"
#include "x86/spinlock.h"
#include "x86/timer.h"

#include "capacity.h"
#define EARLY_LOG_SIZE 8192
// How long a takeover waits for another CPU's line: 512 bytes (log.c's
// longest line, LOG_LINE_MAX) at 9600 baud, 10 bits a byte, take about
// 540 ms. At slower rates the line is cut and the report starts on the next.
#define TAKEOVER_WAIT_MS 600

static const struct console *consoles[MAX_CONSOLES];
static size_t nconsoles;
static struct spinlock console_lock = SPINLOCK_INIT("console");

// Per console: a line has begun on it and not ended, as far as the bytes
// handed to its write() and returned from it tell. See write_one().
static bool line_open[MAX_CONSOLES];

// The CPU that took the consoles over, + 1; 0 while none has.
static unsigned takeover_cpu;

// Everything logged before the command line has chosen the consoles (the
// banner, warnings about the boot information and the command line itself),
// replayed to each console as it joins.
static char early_log[EARLY_LOG_SIZE];
static size_t early_len;

// line_open errs only towards an empty line, never towards a report glued to
// half a line: it is set before the first byte can reach the device, and
// cleared only after the line's last byte, which goes in a call of its own,
// has. The signal fences keep the compiler from moving the flag across the
// calls, as an interrupt on this CPU sees it.
static void write_one(size_t i, const char *s, size_t n)
{
	const struct console *c = consoles[i];

	if (n == 0)
		return;
	if (s[0] != '\n')
		line_open[i] = true;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (n > 1)
		c->write(s, n - 1);
	c->write(s + n - 1, 1);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	line_open[i] = s[n - 1] != '\n';
}

static void write_all(const char *s, size_t n)
{
	if (nconsoles == 0) {
		size_t room = EARLY_LOG_SIZE - early_len;
		size_t k = n < room ? n : room;
		for (size_t i = 0; i < k; i++)
			early_log[early_len++] = s[i];
	}
	for (size_t i = 0; i < nconsoles; i++)
		write_one(i, s, n);
}

// Take the console lock, or return false if the consoles were taken over:
// by this CPU (write without the lock) or by another one (halt). The same
// owner check as spin_lock(): a write from inside a write on this CPU (a
// console driver that logs) is a bug, reported rather than spun on.
static bool lock_or_takeover(void)
{
	unsigned me = this_cpu()->id + 1;

	if (spin_held(&console_lock) && __atomic_load_n(&takeover_cpu, __ATOMIC_ACQUIRE) != me)
		spin_lock_misuse(&console_lock, me - 1, SPIN_TAKEN_AGAIN, spin_here());
	for (;;) {
		unsigned t = __atomic_load_n(&takeover_cpu, __ATOMIC_ACQUIRE);
		if (t == me)
			return false;
		if (t)
			cpu_halt_forever();
		if (spin_trylock(&console_lock))
			return true;
		cpu_relax();
	}
}

void console_register(const struct console *c)
{
	bool locked = lock_or_takeover();
	if (nconsoles < MAX_CONSOLES) {
		consoles[nconsoles++] = c;
		write_one(nconsoles - 1, early_log, early_len);
	}
	if (locked)
		spin_unlock(&console_lock);
}

void console_write(const char *s, size_t n)
{
	bool locked = lock_or_takeover();
	write_all(s, n);
	if (locked)
		spin_unlock(&console_lock);
}

void console_locked(void (*fn)(void *arg), void *arg)
{
	bool locked = lock_or_takeover();
	fn(arg);
	if (locked)
		spin_unlock(&console_lock);
}

void console_takeover(void)
{
	unsigned me = this_cpu()->id + 1, none = 0;

	if (!__atomic_compare_exchange_n(&takeover_cpu, &none, me, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE) && none != me)
		cpu_halt_forever();
	// Another CPU inside console_write() either finishes its line and
	// releases the lock (which we then keep), or halts at its next write.
	// If this CPU holds the lock, it was interrupted inside: do not wait.
	if (!spin_held(&console_lock)) {
		uint64_t end = timer_ms() + TAKEOVER_WAIT_MS;
		while (!spin_trylock(&console_lock) && timer_ms() < end)
			cpu_relax();
	}
	for (size_t i = 0; i < nconsoles; i++)
		if (line_open[i])
			write_one(i, "\n", 1);
}
