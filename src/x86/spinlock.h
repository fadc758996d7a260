// SPDX-License-Identifier: GPL-2.0-or-later
// A test-and-set spinlock for the few things CPUs share (the consoles).
#ifndef RAMSIFT_SRC_X86_SPINLOCK_H
#define RAMSIFT_SRC_X86_SPINLOCK_H

#include "io.h"

struct spinlock {
	volatile int locked;
};

static inline void spin_lock(struct spinlock *l)
{
	while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
		while (l->locked)
			cpu_relax();
}

static inline void spin_unlock(struct spinlock *l)
{
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

#endif
