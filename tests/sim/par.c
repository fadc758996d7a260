// SPDX-License-Identifier: GPL-2.0-or-later
// The parallel schedule of par.h. Each simulated CPU runs its instance of the
// test on a stack of its own, a coroutine on the one host thread: par_run is
// the scheduler, and a CPU hands the turn back to it at a barrier (its sync),
// at its end, and, in the interleaved order, every PAR_TURN_ACCESSES accesses
// (simmem's tick). Only one CPU runs at a time, so the simulated memory needs
// no locks and every run is reproducible. The switch is a few instructions of
// assembly (x86-64, System V: the callee-saved registers and the stack
// pointer); ucontext's swapcontext would make a system call per switch, and
// the interleaved order switches about once per two words. AddressSanitizer
// is told of every switch (__sanitizer_start/finish_switch_fiber), so it
// checks each stack as a stack.
#include <stdio.h>
#include <stdlib.h>

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

#include "memrw.h" // sim_flush_cache: the running CPU's cache
#include "par.h"
#include "simmem.h"

// A CPU's stack: the tests need little, AddressSanitizer's frames more.
#define STACK_BYTES (256u << 10)

// Save the callee-saved registers and the stack pointer in *save, then
// continue on the stack to (saved the same way, or made by cpu_stack).
void par_co_switch(void **save, void *to);
// Where a new CPU starts: r12 holds its number.
void par_co_start(void);
void par_cpu_main(unsigned c);

__asm__(".text\n"
	".globl par_co_switch\n"
	".type par_co_switch, @function\n"
	"par_co_switch:\n"
	"	pushq %rbp\n	pushq %rbx\n	pushq %r12\n"
	"	pushq %r13\n	pushq %r14\n	pushq %r15\n"
	"	movq %rsp, (%rdi)\n"
	"	movq %rsi, %rsp\n"
	"	popq %r15\n	popq %r14\n	popq %r13\n"
	"	popq %r12\n	popq %rbx\n	popq %rbp\n"
	"	ret\n"
	".size par_co_switch, . - par_co_switch\n"
	".globl par_co_start\n"
	".type par_co_start, @function\n"
	"par_co_start:\n"
	"	movq %r12, %rdi\n"
	"	call par_cpu_main\n"
	"	ud2\n"
	".size par_co_start, . - par_co_start\n");

struct cpu {
	unsigned id;
	void *sp;          // saved while it is not running
	struct mt_ctx ctx; // its instance's context: its share, sync
	bool ran, done, waiting;
};

static unsigned char stacks[PAR_MAX_CPUS][STACK_BYTES]
	__attribute__((aligned(64)));

static struct {
	const struct mt_test *t;
	const struct par_setup *set;
	struct par_result *res;
	struct cpu cpu[PAR_MAX_CPUS];
	struct range ranges[PAR_MAX_RANGES];
	size_t first[PAR_MAX_CPUS], count[PAR_MAX_CPUS];
	void *main_sp;
	const void *main_bottom;
	size_t main_size;
	unsigned cur;       // the CPU running (in_cpu)
	bool in_cpu;
	bool aborting;      // a CPU stopped early: every sync says stop
	unsigned turn;      // accesses in the current turn (interleaved)
	uint64_t phase_start_s; // when the current phase began
} par;

static void die(const char *what)
{
	fprintf(stderr, "par: %s\n", what);
	abort();
}

unsigned par_cpu(void)
{
	return par.in_cpu ? par.cur : 0;
}

// Run CPU c until it hands the turn back (from the scheduler).
static void to_cpu(unsigned c)
{
#ifdef __SANITIZE_ADDRESS__
	void *fake = NULL;
#endif

	par.cur = c;
	par.in_cpu = true;
	par.turn = 0;
	sim_set_cpu(c);
#ifdef __SANITIZE_ADDRESS__
	__sanitizer_start_switch_fiber(&fake, stacks[c], STACK_BYTES);
#endif
	par_co_switch(&par.main_sp, par.cpu[c].sp);
#ifdef __SANITIZE_ADDRESS__
	__sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
	par.in_cpu = false;
}

// Hand the turn back to the scheduler (from the running CPU). A CPU that has
// ended says so (ended): it is never resumed.
static void to_scheduler(bool ended)
{
#ifdef __SANITIZE_ADDRESS__
	void *fake = NULL;

	__sanitizer_start_switch_fiber(ended ? NULL : &fake, par.main_bottom,
				       par.main_size);
#endif
	par_co_switch(&par.cpu[par.cur].sp, par.main_sp);
#ifdef __SANITIZE_ADDRESS__
	__sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
	(void)ended;
}

void par_cpu_main(unsigned c)
{
	struct cpu *p = &par.cpu[c];

#ifdef __SANITIZE_ADDRESS__
	__sanitizer_finish_switch_fiber(NULL, &par.main_bottom, &par.main_size);
#endif
	par.res->returned[c] = par.t->run(&p->ctx, par.t->param);
	if (!par.res->returned[c])
		par.aborting = true;
	p->done = true;
	to_scheduler(true);
	die("a CPU that ended was resumed");
}

// A stack for CPU c that starts in par_co_start with r12 = c.
static void *cpu_stack(unsigned c)
{
	// The top 16-byte aligned; after par_co_switch pops the six registers
	// and returns, the stack pointer is back at it, as a call expects.
	uint64_t *top = (uint64_t *)(stacks[c] + STACK_BYTES - 64);
	uint64_t *sp = top - 7;

#ifdef __SANITIZE_ADDRESS__
	// A CPU that ended left its frames' red zones poisoned.
	ASAN_UNPOISON_MEMORY_REGION(stacks[c], STACK_BYTES);
#endif
	for (int i = 0; i < 6; i++)
		sp[i] = 0;
	sp[3] = c;				// r12
	sp[6] = (uint64_t)(uintptr_t)par_co_start; // the return address
	return sp;
}

static void tick(void)
{
	if (par.in_cpu && ++par.turn >= PAR_TURN_ACCESSES)
		to_scheduler(false);
}

static void on_error(void *cb, uint64_t addr, uint64_t expected,
		     uint64_t actual)
{
	const struct mt_ctx *b = par.set->base;

	(void)cb;
	b->error(b->cb_ctx, addr, expected, actual);
}

static bool on_progress(void *cb, uint64_t bytes)
{
	const struct mt_ctx *b = par.set->base;
	struct cpu *p = cb;

	par.res->progress[p->id] += bytes;
	if (!b->progress(b->cb_ctx, bytes))
		par.aborting = true;
	return !par.aborting;
}

static bool on_sleep(void *cb, uint32_t seconds)
{
	const struct mt_ctx *b = par.set->base;
	uint64_t end = par.phase_start_s + seconds, now = sim_now();

	(void)cb;
	// The CPUs left the last barrier together and memory accesses take no
	// simulated time: every wait of the phase began at its start.
	if (!b->sleep(b->cb_ctx, end > now ? (uint32_t)(end - now) : 0))
		par.aborting = true;
	return !par.aborting;
}

// The barrier: wait until every CPU still running has arrived.
static bool on_sync(void *cb, bool flush)
{
	struct cpu *p = cb;
	unsigned c = p->id, waiting = 0, running = 0;

	par.res->syncs[c]++;
	if (par.aborting)
		return false;
	for (unsigned k = 0; k < par.set->ncpus; k++) {
		running += par.cpu[k].ran && !par.cpu[k].done;
		waiting += par.cpu[k].waiting;
	}
	if (flush) {
		par.res->flushes[c]++;
		if (par.set->flush == PAR_FLUSH_EACH || waiting + 1 == running)
			sim_flush_cache();
	}
	p->waiting = true;
	to_scheduler(false);
	return !par.aborting;
}

// The address of byte b of r[0..n) taken end to end (b below their sum).
static uint64_t address_of_byte(const struct range *r, size_t n, uint64_t b)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t size = r[i].end - r[i].start;

		if (b < size)
			return r[i].start + b;
		b -= size;
	}
	return n ? r[n - 1].end : 0;
}

size_t par_split(const struct range *r, size_t n, unsigned parts,
		 uint64_t block, struct range *out, size_t cap, size_t *first,
		 size_t *count)
{
	uint64_t total = 0, lo = 0;
	size_t nout = 0, i = 0;

	for (size_t k = 0; k < n; k++)
		total += r[k].end - r[k].start;
	for (unsigned j = 0; j < parts; j++) {
		uint64_t hi = ~0ull;

		if (j + 1 < parts) {
			uint64_t at = address_of_byte(
				r, n, total / parts * (j + 1) +
					      total % parts * (j + 1) / parts);

			hi = (at + block / 2) / block * block;
			if (hi < lo)
				hi = lo;
		}
		first[j] = nout;
		while (i < n && r[i].start < hi) {
			uint64_t s = r[i].start > lo ? r[i].start : lo;
			uint64_t e = r[i].end < hi ? r[i].end : hi;

			if (s < e) {
				if (nout == cap)
					return 0;
				out[nout++] = (struct range){ s, e };
			}
			if (r[i].end > hi)
				break;
			i++;
		}
		count[j] = nout - first[j];
		lo = hi;
	}
	return nout;
}

bool par_run(const struct mt_test *t, const struct par_setup *set,
	     struct par_result *res)
{
	unsigned n = set->ncpus, rank[PAR_MAX_CPUS], nrun = 0;

	if (n == 0 || n > PAR_MAX_CPUS || set->block == 0 || par.t)
		die("bad setup (or a run inside a run)");
	*res = (struct par_result){ 0 };
	par.t = t;
	par.set = set;
	par.res = res;
	par.aborting = false;
	if (!par_split(set->base->ranges, set->base->nranges, n, set->block,
		       par.ranges, PAR_MAX_RANGES, par.first, par.count))
		die("too many ranges in the shares");
	for (unsigned j = 0; j < n; j++)
		rank[j] = par.count[j] ? nrun++ : 0;
	for (unsigned k = 0; k < n; k++) {
		struct cpu *p = &par.cpu[k];
		unsigned j = (k + set->rotation) % n;

		*p = (struct cpu){ .id = k, .ran = par.count[j] != 0 };
		p->ctx = *set->base;
		p->ctx.ranges = par.ranges + par.first[j];
		p->ctx.nranges = par.count[j];
		p->ctx.error = on_error;
		p->ctx.progress = on_progress;
		p->ctx.sleep = on_sleep;
		p->ctx.cb_ctx = p;
		p->ctx.sync = on_sync;
		p->ctx.share = set->plain ? 0 : rank[j];
		p->ctx.nshares = set->plain ? 1 : nrun;
		for (size_t i = 0; i < par.count[j]; i++)
			res->bytes[k] += p->ctx.ranges[i].end -
					 p->ctx.ranges[i].start;
		res->ran[k] = p->ran;
		res->share[k] = rank[j];
		if (p->ran)
			p->sp = cpu_stack(k);
	}
	res->nrunning = nrun;
	par.phase_start_s = sim_now();
	if (set->order == PAR_INTERLEAVED)
		sim_set_tick(tick);

	unsigned next = 0; // the interleaved order's next turn
	for (;;) {
		unsigned c = n, runnable = 0, live = 0;

		for (unsigned k = 0; k < n; k++) {
			const struct cpu *p = &par.cpu[k];

			live += p->ran && !p->done;
			runnable += p->ran && !p->done && !p->waiting;
		}
		if (live == 0)
			break;
		if (runnable == 0) {
			// Everyone still running is at the barrier: the
			// next phase begins, from the order's first CPU.
			for (unsigned k = 0; k < n; k++)
				par.cpu[k].waiting = false;
			par.phase_start_s = sim_now();
			next = 0;
			continue;
		}
		for (unsigned i = 0; i < n; i++) {
			unsigned k = set->order == PAR_ASCENDING  ? i
				   : set->order == PAR_DESCENDING ? n - 1 - i
								  : (next + i) % n;
			const struct cpu *p = &par.cpu[k];

			if (p->ran && !p->done && !p->waiting) {
				c = k;
				break;
			}
		}
		to_cpu(c);
		next = c + 1;
	}
	sim_set_tick(NULL);
	sim_set_cpu(0);
	res->all_returned = true;
	for (unsigned k = 0; k < n; k++)
		if (res->ran[k] && !res->returned[k])
			res->all_returned = false;
	par.t = NULL;
	return res->all_returned;
}
