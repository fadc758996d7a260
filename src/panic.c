// SPDX-License-Identifier: GPL-2.0-or-later
// The panic path (see panic.h), and the report of a misused lock, which the
// locks in src/x86/spinlock.h call.
#include <stdarg.h>
#include <stdint.h>

#include "console.h"
#include "fmt.h"
#include "log.h"
#include "machcheck.h"
#include "panic.h"
#include "x86/cpu.h"
#include "x86/io.h"
#include "x86/spinlock.h"

// Reports begun on each CPU: the first, and one fault while reporting it.
#define PANIC_MAX_NESTED 2

static uint8_t begun[MAX_CPUS];

static void (*end_aborted)(void);

void panic_set_end(void (*end)(void))
{
	end_aborted = end;
}

_Noreturn void panic_end(void)
{
	if (end_aborted)
		end_aborted();
	cpu_halt_forever();
}

void panic_begin(void)
{
	unsigned cpu = this_cpu()->id;

	if (begun[cpu] >= PANIC_MAX_NESTED)
		cpu_halt_forever();
	begun[cpu]++;
	console_takeover();
}

_Noreturn void panic(const char *fmt, ...)
{
	char msg[LOG_LINE_MAX];
	va_list ap;

	panic_begin();
	va_start(ap, fmt);
	fmt_vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_error("%s", msg);
	log_error(PANIC_BUG_ADVICE);
	panic_end();
}

_Noreturn void panic_exception(enum panic_cause cause, unsigned cpu)
{
	switch (cause) {
	case PANIC_MACHINE_CHECK:
		machcheck_exception(cpu);
		break;
	case PANIC_NMI:
		log_error("ramsift stopped: the hardware signalled an error it could not correct "
			  "(memory ECC or parity, bus, watchdog) or the NMI button was pressed; "
			  "check the machine's event log and test again");
		break;
	case PANIC_FAULT:
		log_error(PANIC_BUG_ADVICE);
		break;
	}
	panic_end();
}

_Noreturn void spin_lock_misuse(const struct spinlock *l, unsigned cpu, enum spin_misuse how,
				uintptr_t at)
{
	const char *name = l->name ? l->name : "unnamed";
	unsigned owner = l->owner;

	if (how == SPIN_TAKEN_AGAIN)
		panic("lock %s at 0x%llx taken again by CPU %u, which holds it since "
		      "rip=0x%016llx: at rip=0x%016llx", name, (unsigned long long)(uintptr_t)l,
		      cpu, (unsigned long long)l->held_at, (unsigned long long)at);
	if (owner)
		panic("lock %s at 0x%llx released by CPU %u, but CPU %u holds it: at rip=0x%016llx",
		      name, (unsigned long long)(uintptr_t)l, cpu, owner - 1, (unsigned long long)at);
	panic("lock %s at 0x%llx released by CPU %u, but it is free: at rip=0x%016llx",
	      name, (unsigned long long)(uintptr_t)l, cpu, (unsigned long long)at);
}
