// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for src/x86/barrier.h, the image's barrier built for the host
// (mk/unit-src.mk): played step by step for three CPUs (who is missing, the
// release by the last, the count ready for the next episode), then run by
// real threads for thousands of episodes, each thread checking on leaving
// every episode that all threads had arrived at it and none had gone past
// the next; and the stall watch against a table of observations. An alarm
// kills the program if the threads deadlock.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#include <cmocka.h>

#include "x86/barrier.h"

#define HANG_LIMIT_S 60
#define THREADS 5
#define EPISODES 3000

static void test_steps(void **state)
{
	static struct barrier b;
	static struct barrier_cpu cpu[3];
	(void)state;

	barrier_init(&b, 3);
	for (int i = 0; i < 3; i++)
		barrier_cpu_init(&cpu[i]);
	for (uint32_t episode = 1; episode <= 3; episode++) {
		uint32_t s0 = barrier_arrive(&b, &cpu[0]);
		uint32_t s2 = barrier_arrive(&b, &cpu[2]);
		assert_int_equal(cpu[0].arrivals, episode);
		assert_false(barrier_done(&b, s0));
		assert_false(barrier_done(&b, s2));
		// CPU 1 is the one missing, as its own count tells.
		assert_true(barrier_missing(&cpu[1], episode));
		assert_false(barrier_missing(&cpu[2], episode));
		assert_int_equal(b.count, 1);
		uint32_t s1 = barrier_arrive(&b, &cpu[1]);
		assert_true(barrier_done(&b, s1));
		assert_true(barrier_done(&b, s0));
		assert_true(barrier_done(&b, s2));
		assert_int_equal(b.count, 3);	// ready for the next episode
		assert_false(barrier_missing(&cpu[1], episode));
	}
	// One CPU: every arrival is the last.
	barrier_init(&b, 1);
	barrier_cpu_init(&cpu[0]);
	assert_true(barrier_done(&b, barrier_arrive(&b, &cpu[0])));
	assert_true(barrier_done(&b, barrier_arrive(&b, &cpu[0])));
}

static struct barrier shared;
static struct barrier_cpu side[THREADS];
static volatile uint32_t arrived[EPISODES + 1];
static volatile int broken;

static void *thread(void *arg)
{
	struct barrier_cpu *me = arg;

	for (uint32_t e = 0; e < EPISODES; e++) {
		__atomic_add_fetch(&arrived[e], 1, __ATOMIC_RELAXED);
		uint32_t sense = barrier_arrive(&shared, me);
		while (!barrier_done(&shared, sense))
			sched_yield();	// the host has fewer cores than threads
		// Everyone arrived at e; nobody can have left e + 1 behind yet,
		// as that takes this thread too.
		if (__atomic_load_n(&arrived[e], __ATOMIC_RELAXED) != THREADS ||
		    __atomic_load_n(&arrived[e + 1], __ATOMIC_RELAXED) >= THREADS)
			broken = 1;
	}
	return NULL;
}

static void test_threads(void **state)
{
	pthread_t t[THREADS];
	(void)state;

	alarm(HANG_LIMIT_S);
	barrier_init(&shared, THREADS);
	for (int i = 0; i < THREADS; i++) {
		barrier_cpu_init(&side[i]);
		assert_int_equal(pthread_create(&t[i], NULL, thread, &side[i]), 0);
	}
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	alarm(0);
	assert_false(broken);
	for (int i = 0; i < THREADS; i++)
		assert_int_equal(side[i].arrivals, EPISODES);
	assert_int_equal(shared.count, THREADS);
}

// The watch: a suspect counts as stopped once its heartbeat stood still for
// the whole stall time of the watcher's clock; any change starts over.
static void test_watch(void **state)
{
	static const struct {
		unsigned who;
		uint64_t beat, now;
		bool stalled;
	} steps[] = {
		{ 3, 10, 1000, false },		// first look
		{ 3, 10, 60999, false },	// 59.999 s still
		{ 3, 11, 61000, false },	// it moved: the count restarts
		{ 3, 11, 120999, false },
		{ 3, 11, 121000, true },	// 60 s without a beat
		{ 5, 11, 121001, false },	// another suspect: start over
		{ 5, 11, 181001, true },
		{ 5, 11, 999999, true },
	};
	struct watch w = { 0 };
	(void)state;

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (watch_stalled(&w, steps[i].who, steps[i].beat, steps[i].now, 60000) != steps[i].stalled)
			fail_msg("step %zu (cpu %u, beat %llu, at %llu ms): want stalled=%d", i,
				 steps[i].who, (unsigned long long)steps[i].beat,
				 (unsigned long long)steps[i].now, steps[i].stalled);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steps),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_watch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
