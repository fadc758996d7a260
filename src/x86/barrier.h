// SPDX-License-Identifier: GPL-2.0-or-later
// A sense-reversing barrier for the CPUs that run one job (src/smp.c), and
// the watch that tells a CPU that stopped from one that is slow. The
// barrier's count and sense each sit on a cache line of their own, and each
// CPU's own state (struct barrier_cpu) on its own line, so the spinning
// waiters read one shared line that is written once per episode. Header
// only and free of hardware, so tests/unit/test_barrier.c runs it on host
// threads; the image calls it from src/smp.c.
#ifndef RAMSIFT_SRC_X86_BARRIER_H
#define RAMSIFT_SRC_X86_BARRIER_H

#include <stdbool.h>
#include <stdint.h>

struct barrier {
	volatile uint32_t count __attribute__((aligned(64)));	// yet to arrive
	volatile uint32_t sense __attribute__((aligned(64)));	// flips when all have
	uint32_t n;
};

// One CPU's side: its sense, how often it has arrived (others read it to
// see who is missing), and its heartbeat (see struct watch).
struct barrier_cpu {
	uint32_t sense;
	volatile uint32_t arrivals;
	volatile uint64_t beat;
} __attribute__((aligned(64)));

// Ready b for n CPUs, and each of them with barrier_cpu_init, before any
// arrives.
static inline void barrier_init(struct barrier *b, uint32_t n)
{
	b->n = n;
	b->count = n;
	b->sense = 0;
}

static inline void barrier_cpu_init(struct barrier_cpu *c)
{
	c->sense = 0;
	c->arrivals = 0;
}

// me arrives at b. Returns the sense to wait for: the episode is over once
// barrier_done(b, sense) holds, which it already does for the last CPU to
// arrive (it releases the others). me->arrivals counts the arrival first,
// so a waiter that finds another CPU's count below its own knows that CPU
// is missing.
static inline uint32_t barrier_arrive(struct barrier *b, struct barrier_cpu *me)
{
	uint32_t sense = me->sense ^ 1;

	me->sense = sense;
	__atomic_store_n(&me->arrivals, me->arrivals + 1, __ATOMIC_RELEASE);
	if (__atomic_sub_fetch(&b->count, 1, __ATOMIC_ACQ_REL) == 0) {
		// The last: nobody touches count again until sense flips.
		__atomic_store_n(&b->count, b->n, __ATOMIC_RELAXED);
		__atomic_store_n(&b->sense, sense, __ATOMIC_RELEASE);
	}
	return sense;
}

static inline bool barrier_done(const struct barrier *b, uint32_t sense)
{
	return __atomic_load_n(&b->sense, __ATOMIC_ACQUIRE) == sense;
}

// Whether c has not yet arrived where the CPU that has arrived arrival times
// waits.
static inline bool barrier_missing(const struct barrier_cpu *c, uint32_t arrival)
{
	return __atomic_load_n(&c->arrivals, __ATOMIC_ACQUIRE) < arrival;
}

// Watching one suspect (a CPU others wait for): it counts as stopped when
// its heartbeat has not moved for stall_ms of the watcher's own clock, so
// the CPUs' clocks need not agree. Start with a zeroed struct watch.
struct watch {
	bool on;
	unsigned who;
	uint64_t beat, since;
};

// Look at suspect who, whose heartbeat is now beat, at now_ms. Returns true
// when it has shown no life for stall_ms; a new suspect or a moved heartbeat
// starts the count again.
static inline bool watch_stalled(struct watch *w, unsigned who, uint64_t beat, uint64_t now_ms,
				 uint64_t stall_ms)
{
	if (!w->on || w->who != who || w->beat != beat) {
		*w = (struct watch){ true, who, beat, now_ms };
		return false;
	}
	return now_ms - w->since >= stall_ms;
}

#endif
