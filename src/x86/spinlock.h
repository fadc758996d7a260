// SPDX-License-Identifier: GPL-2.0-or-later
// A spinlock that knows its owner, for the few things CPUs share (the
// consoles, the error table). The lock word is the holder's CPU id + 1 (0:
// free), so taking again a lock one holds (a handler that logs while its CPU
// was inside the lock) is reported as a bug through spin_lock_misuse() and
// the panic path instead of spinning forever. Interrupts stay off, so no
// lock masks them; NMI and machine-check handlers take none
// (console_takeover() in src/console.h). The spin_*_as() forms take the CPU
// id explicitly: they are the logic, built on the host for
// tests/unit/test_spinlock.c; the image's plain forms pass this_cpu()->id.
#ifndef RAMSIFT_SRC_X86_SPINLOCK_H
#define RAMSIFT_SRC_X86_SPINLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "cpu.h"
#include "io.h"

struct spinlock {
	const char *name;		// for reports; NULL for an unnamed lock
	volatile unsigned owner;	// holder's CPU id + 1; 0 = free
	uintptr_t held_at;		// where the holder took it (an address in its code)
};

// A named lock, free: static struct spinlock l = SPINLOCK_INIT("console");
// An all-zero struct spinlock is a free unnamed lock.
#define SPINLOCK_INIT(lock_name) { .name = (lock_name), .owner = 0, .held_at = 0 }

enum spin_misuse {
	SPIN_TAKEN_AGAIN,	// spin_lock by the CPU that holds the lock
	SPIN_NOT_HELD,		// spin_unlock by a CPU that does not hold it
};

// CPU cpu misused lock l as how says; at is an address in the code that did
// it. Defined by the program (src/panic.c: reports through the panic path and
// ends the run ABORTED), or by a host test. Never returns.
_Noreturn void spin_lock_misuse(const struct spinlock *l, unsigned cpu, enum spin_misuse how,
				uintptr_t at);

// The address of the code this is inlined into (for held_at and reports).
static inline __attribute__((always_inline)) uintptr_t spin_here(void)
{
	uintptr_t ip;
	__asm__ volatile("lea 0(%%rip), %0" : "=r"(ip));
	return ip;
}

// Try once to take l for CPU cpu. Returns true if it is now held by cpu;
// false if it is held, by another CPU or by cpu itself (no misuse report: a
// panic path uses this to learn whether it may wait).
static inline __attribute__((always_inline)) bool spin_trylock_as(struct spinlock *l,
								   unsigned cpu)
{
	unsigned free = 0;
	if (!__atomic_compare_exchange_n(&l->owner, &free, cpu + 1, false, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED))
		return false;
	l->held_at = spin_here();
	return true;
}

// Take l for CPU cpu, spinning while another CPU holds it. If cpu holds it
// already, calls spin_lock_misuse() (which does not return) instead of
// spinning forever. Only cpu ever writes cpu + 1 to the lock word, so that
// check cannot be fooled by another CPU.
static inline __attribute__((always_inline)) void spin_lock_as(struct spinlock *l, unsigned cpu)
{
	if (__atomic_load_n(&l->owner, __ATOMIC_RELAXED) == cpu + 1)
		spin_lock_misuse(l, cpu, SPIN_TAKEN_AGAIN, spin_here());
	while (!spin_trylock_as(l, cpu))
		while (l->owner)
			cpu_relax();
}

// Release l, which CPU cpu must hold (else spin_lock_misuse()).
static inline __attribute__((always_inline)) void spin_unlock_as(struct spinlock *l, unsigned cpu)
{
	if (__atomic_load_n(&l->owner, __ATOMIC_RELAXED) != cpu + 1)
		spin_lock_misuse(l, cpu, SPIN_NOT_HELD, spin_here());
	__atomic_store_n(&l->owner, 0, __ATOMIC_RELEASE);
}

// Whether CPU cpu holds l.
static inline bool spin_held_as(const struct spinlock *l, unsigned cpu)
{
	return __atomic_load_n(&l->owner, __ATOMIC_RELAXED) == cpu + 1;
}

// The same for the calling CPU; require cpu_init_bsp() (this_cpu()).
static inline __attribute__((always_inline)) bool spin_trylock(struct spinlock *l)
{
	return spin_trylock_as(l, this_cpu()->id);
}

static inline __attribute__((always_inline)) void spin_lock(struct spinlock *l)
{
	spin_lock_as(l, this_cpu()->id);
}

static inline __attribute__((always_inline)) void spin_unlock(struct spinlock *l)
{
	spin_unlock_as(l, this_cpu()->id);
}

static inline bool spin_held(const struct spinlock *l)
{
	return spin_held_as(l, this_cpu()->id);
}

#endif
