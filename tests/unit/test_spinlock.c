// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for src/x86/spinlock.h, the image's lock built for the host
// (mk/unit-src.mk): its spin_*_as() forms take the CPU id as an argument, so
// a table of steps can play several CPUs. A take by the CPU that holds the
// lock, or a release by one that does not, must reach spin_lock_misuse()
// (here a longjmp back to the case) instead of spinning for ever; trylock
// never reports, it only fails. A real second thread then checks that
// spin_lock_as() does wait while another CPU holds the lock. An alarm kills
// the program if a take spins when it should report.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>
#include <cmocka.h>

#include "x86/spinlock.h"

#define HANG_LIMIT_S 10
#define STR(x) STR_(x)
#define STR_(x) #x

static struct {
	jmp_buf back;
	int calls;
	const struct spinlock *lock;
	unsigned cpu;
	enum spin_misuse how;
	uintptr_t at;
} misuse;

_Noreturn void spin_lock_misuse(const struct spinlock *l, unsigned cpu, enum spin_misuse how,
				uintptr_t at)
{
	misuse.calls++;
	misuse.lock = l;
	misuse.cpu = cpu;
	misuse.how = how;
	misuse.at = at;
	longjmp(misuse.back, 1);
}

enum op { LOCK, UNLOCK, TRY_OK, TRY_FAIL, END };

struct step {
	enum op op;
	unsigned cpu;
};

#define NO_MISUSE (-1)

static const struct {
	const char *name;
	struct step steps[6];
	int misuse_step;		// index of the step that must report, or NO_MISUSE
	enum spin_misuse how;		// what it reports
	unsigned owner;			// the lock word after the steps (CPU + 1, 0 free)
} cases[] = {
	{ "take and release", { { LOCK, 0 }, { UNLOCK, 0 }, { END, 0 } }, NO_MISUSE, 0, 0 },
	{ "two CPUs in turn", { { LOCK, 3 }, { UNLOCK, 3 }, { LOCK, 5 }, { END, 0 } }, NO_MISUSE, 0, 6 },
	{ "trylock free", { { TRY_OK, 1 }, { END, 0 } }, NO_MISUSE, 0, 2 },
	{ "trylock held by another CPU", { { LOCK, 0 }, { TRY_FAIL, 1 }, { END, 0 } }, NO_MISUSE, 0, 1 },
	{ "trylock held by itself", { { LOCK, 2 }, { TRY_FAIL, 2 }, { END, 0 } }, NO_MISUSE, 0, 3 },
	{ "trylock then release", { { TRY_OK, 0 }, { UNLOCK, 0 }, { TRY_OK, 1 }, { END, 0 } },
	  NO_MISUSE, 0, 2 },
	{ "recursive take", { { LOCK, 0 }, { LOCK, 0 }, { END, 0 } }, 1, SPIN_TAKEN_AGAIN, 1 },
	{ "recursive take by CPU 7", { { LOCK, 7 }, { LOCK, 7 }, { END, 0 } }, 1, SPIN_TAKEN_AGAIN, 8 },
	{ "take after trylock", { { TRY_OK, 4 }, { LOCK, 4 }, { END, 0 } }, 1, SPIN_TAKEN_AGAIN, 5 },
	{ "release a free lock", { { UNLOCK, 0 }, { END, 0 } }, 0, SPIN_NOT_HELD, 0 },
	{ "release another CPU's lock", { { LOCK, 1 }, { UNLOCK, 0 }, { END, 0 } }, 1, SPIN_NOT_HELD, 2 },
	{ "release twice", { { LOCK, 0 }, { UNLOCK, 0 }, { UNLOCK, 0 }, { END, 0 } }, 2, SPIN_NOT_HELD, 0 },
};

// Run the steps on l until one reports; return its index, or NO_MISUSE.
static int run_steps(size_t c, struct spinlock *l)
{
	volatile int i = 0;

	misuse.calls = 0;
	if (setjmp(misuse.back))
		return i;
	for (; cases[c].steps[i].op != END; i++) {
		unsigned cpu = cases[c].steps[i].cpu;
		switch (cases[c].steps[i].op) {
		case LOCK:
			spin_lock_as(l, cpu);
			break;
		case UNLOCK:
			spin_unlock_as(l, cpu);
			break;
		case TRY_OK:
			if (!spin_trylock_as(l, cpu))
				fail_msg("%s: step %d: trylock by CPU %u failed", cases[c].name, i, cpu);
			break;
		case TRY_FAIL:
			if (spin_trylock_as(l, cpu))
				fail_msg("%s: step %d: trylock by CPU %u succeeded", cases[c].name, i, cpu);
			break;
		case END:
			break;
		}
	}
	return NO_MISUSE;
}

static void test_cases(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct spinlock l = SPINLOCK_INIT("test");
		int got = run_steps(c, &l);

		if (got != cases[c].misuse_step)
			fail_msg("%s: misuse reported at step %d, want %d", cases[c].name, got,
				 cases[c].misuse_step);
		if (misuse.calls != (got == NO_MISUSE ? 0 : 1))
			fail_msg("%s: %d misuse reports", cases[c].name, misuse.calls);
		if (got != NO_MISUSE) {
			const struct step *s = &cases[c].steps[got];
			if (misuse.lock != &l || misuse.cpu != s->cpu || misuse.how != cases[c].how)
				fail_msg("%s: report names lock %p CPU %u how %d, want %p CPU %u how %d",
					 cases[c].name, (const void *)misuse.lock, misuse.cpu,
					 (int)misuse.how, (void *)&l, s->cpu, (int)cases[c].how);
			if (misuse.at == 0)
				fail_msg("%s: report gives no address", cases[c].name);
		}
		if (l.owner != cases[c].owner)
			fail_msg("%s: lock word %u after the steps, want %u", cases[c].name, l.owner,
				 cases[c].owner);
		if (l.owner && l.held_at == 0)
			fail_msg("%s: held lock does not say where it was taken", cases[c].name);
	}
}

// The name and the address of where the holder took it reach the report.
static void test_report_details(void **state)
{
	(void)state;
	static struct spinlock named = SPINLOCK_INIT("console");
	static struct spinlock unnamed;

	if (setjmp(misuse.back) == 0) {
		spin_lock_as(&named, 0);
		spin_lock_as(&named, 0);
		fail_msg("recursive take of a static lock returned");
	}
	assert_string_equal(misuse.lock->name, "console");
	assert_int_not_equal(misuse.lock->held_at, 0);
	assert_int_not_equal(misuse.at, 0);
	assert_null(unnamed.name);
	assert_int_equal(unnamed.owner, 0);
}

static struct spinlock shared;
static volatile int other_has_it;

static void *other_cpu(void *arg)
{
	(void)arg;
	spin_lock_as(&shared, 1);
	other_has_it = 1;
	spin_unlock_as(&shared, 1);
	return NULL;
}

// Another CPU's take waits while CPU 0 holds the lock, and gets it after.
static void test_waits_for_other_cpu(void **state)
{
	(void)state;
	pthread_t t;

	spin_lock_as(&shared, 0);
	assert_int_equal(pthread_create(&t, NULL, other_cpu, NULL), 0);
	usleep(100 * 1000);
	if (other_has_it)
		fail_msg("CPU 1 took the lock while CPU 0 held it");
	spin_unlock_as(&shared, 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(other_has_it, 1);
	assert_int_equal(shared.owner, 0);
}

static void hung(int sig)
{
	static const char msg[] = "test_spinlock: a lock take spun for "
		STR(HANG_LIMIT_S) " s: a recursive take that should have been reported?\n";
	(void)sig;
	(void)!write(2, msg, sizeof(msg) - 1);
	_exit(1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_report_details),
		cmocka_unit_test(test_waits_for_other_cpu),
	};

	signal(SIGALRM, hung);
	alarm(HANG_LIMIT_S);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
