// SPDX-License-Identifier: GPL-2.0-or-later
// The panic path: how ramsift stops when something went wrong that it cannot
// go on from (a CPU exception, an NMI, a machine check, a broken lock). It
// never waits on a lock: the report and the result line go to the consoles
// through console_takeover(), so it works even if the CPU was interrupted in
// the middle of writing a line (the report then starts on a fresh line).
#ifndef RAMSIFT_SRC_PANIC_H
#define RAMSIFT_SRC_PANIC_H

// The last line of a report whose cause is ramsift itself or the memory it
// runs from (log_error adds "error: ").
#define PANIC_BUG_ADVICE "ramsift stopped: a bug in ramsift or a fault in the memory it runs " \
	"from; please report the lines above"

// Begin a report that ends the run: take the consoles over (console_takeover:
// from here on this CPU writes without their lock, on a fresh line; if
// another CPU panicked first, halt here). A report may itself be interrupted
// once (a fault or NMI while reporting) and begin again; the third on one CPU
// halts at once, so a fault in the report path cannot recurse until the
// stack overflows. The caller then logs its lines and calls panic_end().
// Requires cpu_init_bsp().
void panic_begin(void);

// Set how the run ends ABORTED: kmain() gives the run's end (the result
// line, then onexit=) before anything can panic. A hook, so that the paths
// below the run that end it (this one, a stalled CPU, a failed self-check)
// do not include src/run.h, the top of src/.
void panic_set_end(void (*end_aborted)(void));

// End the run ABORTED through that hook; halts this CPU if none is set or
// the hook returns.
_Noreturn void panic_end(void);

// What stopped a CPU, as its trap handler (src/x86/trap.c) saw it.
enum panic_cause {
	PANIC_FAULT,		// any CPU exception but these two
	PANIC_NMI,
	PANIC_MACHINE_CHECK,
};

// Called by the trap handler after panic_begin() and its line naming the
// exception: say what the cause means and what to do (for a machine check,
// the banks: machcheck_exception), and end the run ABORTED. cpu is the
// calling CPU.
_Noreturn void panic_exception(enum panic_cause cause, unsigned cpu);

// Report "error: <fmt...>" and PANIC_BUG_ADVICE through the panic path and
// end the run ABORTED. For a bug ramsift detects in itself.
_Noreturn void panic(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
