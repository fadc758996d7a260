// SPDX-License-Identifier: GPL-2.0-or-later
// The CPUs that test (see smp.h). The BSP starts the APs one at a time
// (src/x86/smpboot.c), each on a slot of the working memory: its struct
// cpu, its mailbox, guard words, and its stack above them, so that an
// overflowing stack runs into its own guard and data before anyone else's
// (memtest86+ PR #630: an AP's stack overflowing into a neighbour's barrier
// flags deadlocked every CPU). An idle AP waits on its mailbox for a
// function to run, or to park (write its caches back and halt) before
// ramsift moves itself. At a flushing barrier every CPU executes WBINVD
// itself, as it reaches only the caches of the CPU that runs it
// (docs/design.md, "Barriers").
#include "boot/acpi.h"
#include "fmt.h"
#include "log.h"
#include "machcheck.h"
#include "panic.h"
#include "run/plan.h"
#include "run/status.h"
#include "smp.h"
#include "memstr.h"
#include "x86/apic.h"
#include "x86/cpu.h"
#include "x86/io.h"
#include "x86/layout.h"
#include "x86/smpboot.h"
#include "x86/timer.h"
#include "x86/trap.h"

#define GUARD_WORDS		64
#define SPINS_BEFORE_HALT	1024
#define WAKE_TICK_COUNT		(4u << 20)	// apic.h: 67 ms to 2.7 s
#define GUARD(i)		(0x67756172642d2d00ull + (i))	// "guard--" and the index
#define STALL_CHECK_SPINS	4096
#define PARK_TIMEOUT_MS		1000
#define SMP_GIVE_UP_AFTER	8
#define TICK_MS			100
#define TRAMPOLINE_WHAT		"AP start-up code"

enum cmd { CMD_RUN, CMD_PARK };

// The run's state of one CPU (its struct cpu's run). The BSP writes the
// mailbox only while the CPU is idle; the CPU writes the rest, on a cache
// line apart from the mailbox.
struct smp_cpu {
	volatile uint32_t seq;		// commands posted
	enum cmd cmd;
	void (*fn)(void *arg);
	void *arg;
	volatile uint32_t done __attribute__((aligned(64)));	// commands finished
	bool interrupts;		// may wait halted and send wake-ups (its APIC is set up)
	uint64_t *guard;		// GUARD_WORDS words below its stack
	struct barrier_cpu bar;		// its barrier side and heartbeat (own line)
} __attribute__((aligned(64)));

// An AP's memory: SMP_SLOT_BYTES from a page boundary, its stack ending at
// the slot's end and growing down towards the guard words.
struct slot {
	struct cpu cpu;
	struct smp_cpu run;
	uint64_t guard[GUARD_WORDS];
} __attribute__((aligned(64)));
_Static_assert(SMP_SLOT_BYTES % PAGE_SIZE == 0, "slots are whole pages");
_Static_assert(SMP_SLOT_BYTES - sizeof(struct slot) >= (16u << 10),
	       "an AP's stack is at least the BSP's 16 KiB");

// boot/entry.S: the BSP's stack, whose lowest words are its guard.
extern uint64_t bsp_stack[];

static struct smp_cpu bsp_run;
static struct acpi_cpu madt[ACPI_CPUS_MAX];

static struct {
	struct acpi_result acpi;
	enum apic_mode mode;
	uint32_t bsp_apic;
	uint32_t aps[MAX_CPUS];		// APIC IDs of the APs to start
	size_t naps;
	struct plan_cpus why;
	size_t nabsent;			// the last of aps are test_fault=ap-absent's
	uint32_t stall_ms;		// SMP_STALL_MS, or SMP_HOOK_STALL_MS
	const char *alone;		// why the BSP tests alone, or NULL
	struct range tramp;		// the start-up code's pages
	uint64_t slots;			// physical: CPU k's slot at slots + (k - 1) * SMP_SLOT_BYTES
	size_t ncpus;			// CPU numbers handed out
	size_t failed;			// APs that did not start
	bool online[MAX_CPUS];
	uint32_t apic[MAX_CPUS];	// by CPU number
} smp;

static struct slot *slot_of(unsigned id)
{
	return (struct slot *)(uintptr_t)(smp.slots + (uint64_t)(id - 1) * SMP_SLOT_BYTES);
}

static struct smp_cpu *run_of(unsigned id)
{
	return id == 0 ? &bsp_run : &slot_of(id)->run;
}

static void guard_set(uint64_t *g)
{
	for (size_t i = 0; i < GUARD_WORDS; i++)
		g[i] = GUARD(i);
}

const struct acpi_result *smp_acpi(void)
{
	return &smp.acpi;
}

uint64_t smp_find(const struct config *cfg, const struct bootinfo *bi, bootinfo_read_fn read,
		  bootinfo_warn_fn warn, struct ram *ram)
{
	struct cpu *me = this_cpu();

	me->run = &bsp_run;
	bsp_run.guard = bsp_stack;
	guard_set(bsp_stack);
	smp.ncpus = 1;
	smp.online[0] = true;
	smp.stall_ms = cfg->test_fault == TEST_FAULT_AP_HANG || cfg->test_fault == TEST_FAULT_AP_HANG_END
			       ? SMP_HOOK_STALL_MS : SMP_STALL_MS;
	if (acpi_find_cpus(bi, read, warn, NULL, madt, ACPI_CPUS_MAX, &smp.acpi) != ACPI_CPUS_FOUND)
		return 0;
	// The boot tables and the tables for all RAM both map the first 4 GiB.
	smp.mode = apic_init(BOOT_IDENTITY_BYTES);
	if (smp.mode == APIC_NONE) {
		smp.alone = "this CPU's local APIC is off or out of reach, so it cannot start the others";
		return 0;
	}
	smp.bsp_apic = smp.apic[0] = me->apic_id = apic_id();
	smp.naps = plan_aps(madt, smp.acpi.ncpus, smp.bsp_apic, cfg->cpus, smp.mode == APIC_X2APIC,
			    smp.aps, MAX_CPUS, &smp.why);
	if (cfg->test_fault == TEST_FAULT_AP_ABSENT || cfg->test_fault == TEST_FAULT_AP_ABSENT_MANY) {
		// Above any APIC ID listed: CPUs the machine does not have.
		size_t n = cfg->test_fault == TEST_FAULT_AP_ABSENT ? 1 : SMP_GIVE_UP_AFTER + 1;
		uint32_t absent = smp.bsp_apic;
		for (size_t i = 0; i < smp.acpi.ncpus; i++)
			if (madt[i].apic_id > absent)
				absent = madt[i].apic_id;
		for (size_t i = 0; i < n && smp.naps < MAX_CPUS - 1; i++) {
			if (smp.mode != APIC_X2APIC && absent + 1 > 254)
				break;
			smp.aps[smp.naps++] = ++absent;
			smp.nabsent++;
		}
	}
	if (smp.naps == 0)
		return 0;
	smp.tramp.start = ram_alloc(ram, SMPBOOT_BYTES, PLAN_TRAMPOLINE_END, TRAMPOLINE_WHAT);
	if (smp.tramp.start < PLAN_TRAMPOLINE_MIN) {
		smp.tramp.start = 0;
		smp.naps = 0;
		smp.alone = "no free memory below 640 KiB for the AP start-up code";
		return 0;
	}
	smp.tramp.end = smp.tramp.start + SMPBOOT_BYTES;
	return (uint64_t)smp.naps * SMP_SLOT_BYTES;
}

static void ap_main(void);

// Start CPU number id (its slot) as the AP with APIC ID apic.
static bool start(unsigned id, uint32_t apic)
{
	struct slot *s = slot_of(id);

	mem_set(s, 0, sizeof(*s));
	s->cpu.id = id;
	s->cpu.apic_id = apic;
	s->cpu.run = &s->run;
	s->run.guard = s->guard;
	guard_set(s->guard);
	return smpboot_start(&s->cpu, (uint64_t)(uintptr_t)s + SMP_SLOT_BYTES, ap_main,
			     SMP_START_TIMEOUT_MS);
}

static void warn_not_started(uint32_t apic, const char *when)
{
	log_warn("cpus: the CPU with APIC ID %u did not start %swithin %u ms of its INIT and STARTUP "
		 "IPIs; it is left out and the others test its share", apic, when,
		 SMP_START_TIMEOUT_MS);
}

// ", N something" appended to buf (a line being built) while it fits.
static void more(char *buf, size_t len, size_t n, const char *fmt, size_t a, size_t b)
{
	size_t at = str_len(buf);
	char part[96];

	if (n == 0)
		return;
	fmt_snprintf(part, sizeof(part), fmt, a, b);
	fmt_snprintf(buf + at, len - at, ", %zu %s", n, part);
}

// The mode of each started CPU's local APIC: the BSP's, which all share, or
// a warning for each AP in another (the SDM wants one mode for all).
static void log_apic_modes(void)
{
	size_t apart = 0;

	for (unsigned id = 1; id < smp.ncpus; id++) {
		enum apic_mode m = slot_of(id)->cpu.apic_mode;
		if (m == smp.mode)
			continue;
		apart++;
		log_warn("cpus: CPU %u (APIC ID %u) has its local APIC in %s mode, the BSP in %s mode; "
			 "it tests, but never waits halted (update the firmware, or test with cpus=1)",
			 id, smp.apic[id], apic_mode_name(m), apic_mode_name(smp.mode));
	}
	if (apart == 0)
		log_info("apic: %s mode on all %zu CPUs started, as the firmware left it",
			 apic_mode_name(smp.mode), smp.ncpus);
}

void smp_start(uint64_t slots)
{
	char line[LOG_LINE_MAX], extra[200] = "";
	uint32_t ids[MAX_CPUS];

	if (smp.acpi.status != ACPI_CPUS_FOUND) {
		log_warn("cpus: %s; the BSP tests alone", acpi_status_text(smp.acpi.status));
		return;
	}
	if (smp.alone) {
		log_warn("cpus: %zu found in the MADT, but %s; the BSP tests alone", smp.acpi.nenabled,
			 smp.alone);
		return;
	}
	smp.slots = slots;
	if (smp.naps) {
		if (smp.nabsent == 1)
			log_warn("cpus: test_fault=ap-absent: also starting APIC ID %u, which no CPU has "
				 "(a test hook)", smp.aps[smp.naps - 1]);
		else if (smp.nabsent)
			log_warn("cpus: test_fault=ap-absent-many: also starting APIC IDs %u to %u, which "
				 "no CPU has (a test hook)", smp.aps[smp.naps - smp.nabsent],
				 smp.aps[smp.naps - 1]);
		smpboot_install(smp.tramp.start);
	}
	for (size_t i = 0, in_a_row = 0; i < smp.naps; i++) {
		unsigned id = (unsigned)smp.ncpus;
		if (start(id, smp.aps[i])) {
			smp.online[id] = true;
			smp.apic[id] = smp.aps[i];
			smp.ncpus++;
			in_a_row = 0;
			continue;
		}
		smp.failed++;
		warn_not_started(smp.aps[i], "");
		// Each costs SMP_START_TIMEOUT_MS: a machine where none starts
		// must not take minutes to find out.
		if (++in_a_row == SMP_GIVE_UP_AFTER && i + 1 < smp.naps) {
			log_warn("cpus: %u CPUs in a row did not start; the %zu after them are not tried",
				 SMP_GIVE_UP_AFTER, smp.naps - i - 1);
			smp.failed += smp.naps - i - 1;
			break;
		}
	}
	for (unsigned id = 0; id < smp.ncpus; id++)
		ids[id] = smp.apic[id];
	more(extra, sizeof(extra), smp.failed, "did not start", 0, 0);
	more(extra, sizeof(extra), smp.why.by_cfg, "left out by cpus=%zu", smp.why.nstart + 1, 0);
	more(extra, sizeof(extra), smp.why.beyond_max, "left out: at most %zu test", MAX_CPUS, 0);
	more(extra, sizeof(extra), smp.why.unaddressable, "left out: x2APIC IDs in xAPIC mode", 0, 0);
	more(extra, sizeof(extra), smp.acpi.ncpus - smp.acpi.nenabled,
	     "more disabled but online-capable", 0, 0);
	more(extra, sizeof(extra), smp.acpi.beyond, "more beyond the %zu kept", ACPI_CPUS_MAX, 0);
	status_line_cpus(line, sizeof(line), smp.acpi.nenabled, ids, smp.ncpus, extra);
	log_info("%s", line);
	log_apic_modes();
}

struct range smp_trampoline(void)
{
	return smp.tramp;
}

size_t smp_cpus(void)
{
	return smp.ncpus;
}

bool smp_online(unsigned id)
{
	return id < smp.ncpus && smp.online[id];
}

size_t smp_online_count(void)
{
	size_t n = 0;
	for (unsigned id = 0; id < smp.ncpus; id++)
		n += smp.online[id];
	return n;
}

// Entered on each AP by smpboot's ap_entry, on its own stack and GDT: run
// what the BSP posts, until told to park.
static void ap_main(void)
{
	struct smp_cpu *me = this_cpu()->run;
	uint32_t seen = me->done;

	machcheck_cpu_start();
	me->interrupts = apic_wake_setup(TRAP_WAKE_VECTOR, TRAP_SPURIOUS_VECTOR, WAKE_TICK_COUNT);
	for (;;) {
		while (__atomic_load_n(&me->seq, __ATOMIC_ACQUIRE) == seen) {
			if (me->interrupts)
				cpu_wait_interrupt();
			else
				cpu_relax();
		}
		seen++;
		if (me->cmd == CMD_PARK) {
			wbinvd();
			__atomic_store_n(&me->done, seen, __ATOMIC_RELEASE);
			cpu_halt_forever();
		}
		me->fn(me->arg);
		__atomic_store_n(&me->done, seen, __ATOMIC_RELEASE);
	}
}

static void post(unsigned id, enum cmd cmd, void (*fn)(void *arg), void *arg)
{
	struct smp_cpu *r = run_of(id);

	r->cmd = cmd;
	r->fn = fn;
	r->arg = arg;
	__atomic_store_n(&r->seq, r->seq + 1, __ATOMIC_RELEASE);
	apic_send_fixed(smp.apic[id], TRAP_WAKE_VECTOR);
}

void smp_post(unsigned id, void (*fn)(void *arg), void *arg)
{
	post(id, CMD_RUN, fn, arg);
}

static bool finished(unsigned id)
{
	struct smp_cpu *r = run_of(id);
	return __atomic_load_n(&r->done, __ATOMIC_ACQUIRE) == r->seq;
}

_Noreturn static void stalled(unsigned id, const char *where, const char *what)
{
	panic_begin();
	log_error("cpus: CPU %u (APIC ID %u) stopped: no sign of life for %u s while %s, in test "
		  "%s; its share of the memory is not tested", id, smp.apic[id], smp.stall_ms / 1000,
		  where, what ? what : "none");
	log_error("ramsift stopped: a CPU hung (a fault in that CPU or in the memory ramsift runs "
		  "from, or a bug in ramsift); test again with cpus=1 and report the lines above");
	panic_end();
}

// Report CPU id when its heartbeat has stood still for SMP_STALL_MS.
static void watch(struct watch *w, unsigned id, const char *where, const char *what)
{
	uint64_t beat = __atomic_load_n(&run_of(id)->bar.beat, __ATOMIC_RELAXED);

	if (watch_stalled(w, id, beat, timer_ms(), smp.stall_ms))
		stalled(id, where, what);
}

void smp_wait(const unsigned *ids, size_t n, void (*tick)(void), const char *what)
{
	struct watch w = { 0 };
	uint64_t next = timer_ms() + TICK_MS;

	for (;;) {
		size_t i = 0;
		while (i < n && finished(ids[i]))
			i++;
		if (i == n)
			return;
		smp_beat();
		if (timer_ms() >= next) {
			if (tick)
				tick();
			next = timer_ms() + TICK_MS;
			watch(&w, ids[i], "the BSP waited for it to finish its share", what);
		}
		cpu_relax();
	}
}

void smp_barrier_init(struct smp_barrier *b, const unsigned *ids, size_t n, const char *what)
{
	barrier_init(&b->b, (uint32_t)n);
	b->cancelled = false;
	b->what = what;
	for (size_t i = 0; i < n; i++) {
		b->ids[i] = ids[i];
		barrier_cpu_init(&run_of(ids[i])->bar);
	}
}

bool smp_barrier_wait(struct smp_barrier *b, bool flush)
{
	const struct cpu *c = this_cpu();
	const struct smp_cpu *run = c->run;
	struct barrier_cpu *me = &((struct smp_cpu *)c->run)->bar;
	struct watch w = { 0 };

	if (flush)
		wbinvd();	// this CPU's own dirty lines: see the top of this file
	uint32_t sense = barrier_arrive(&b->b, me), arrival = me->arrivals;
	if (barrier_done(&b->b, sense)) {
		// The last to arrive: wake the APs that may have halted (an AP
		// that cannot send leaves them to their next tick).
		for (uint32_t i = 0; (c->id == 0 || run->interrupts) && i < b->b.n; i++)
			if (b->ids[i] != c->id && b->ids[i] != 0)
				apic_send_fixed(smp.apic[b->ids[i]], TRAP_WAKE_VECTOR);
		return !b->cancelled;
	}
	for (uint32_t spins = 1; !barrier_done(&b->b, sense); spins++) {
		if (b->cancelled)
			return false;
		bool halt = c->id != 0 && run->interrupts && spins > SPINS_BEFORE_HALT;
		if (halt)
			cpu_wait_interrupt();	// the last one's IPI, or a tick
		else
			cpu_relax();
		if (!halt && spins % STALL_CHECK_SPINS)
			continue;
		me->beat++;
		// Watch the first CPU still missing.
		for (uint32_t i = 0; i < b->b.n; i++) {
			if (barrier_missing(&run_of(b->ids[i])->bar, arrival)) {
				watch(&w, b->ids[i], "the other CPUs waited for it at a phase barrier",
				      b->what);
				break;
			}
		}
	}
	return !b->cancelled;
}

void smp_barrier_cancel(struct smp_barrier *b)
{
	b->cancelled = true;
	for (uint32_t i = 0; i < b->b.n; i++)
		if (b->ids[i] != 0)
			apic_send_fixed(smp.apic[b->ids[i]], TRAP_WAKE_VECTOR);
}

void smp_beat(void)
{
	struct smp_cpu *me = this_cpu()->run;

	if (me)
		me->bar.beat++;
}

void smp_check_stack(const char *what)
{
	const struct cpu *c = this_cpu();
	const struct smp_cpu *me = c->run;

	if (!me || !me->guard)
		return;
	for (size_t i = 0; i < GUARD_WORDS; i++)
		if (me->guard[i] != GUARD(i))
			panic("cpu %u (APIC ID %u): its stack overflowed into the guard words below it "
			      "(0x%llx), in test %s", c->id, c->apic_id,
			      (unsigned long long)(uintptr_t)&me->guard[i], what ? what : "none");
}

void smp_test_hook(enum test_fault f, bool end)
{
	struct smp_cpu *me = this_cpu()->run;

	if (this_cpu()->id != 1)
		return;
	if (!end && f == TEST_FAULT_AP_UD2)
		__asm__ volatile("ud2");
	if ((!end && f == TEST_FAULT_AP_HANG) || (end && f == TEST_FAULT_AP_HANG_END))
		cpu_halt_forever();
	// The first word an overflowing stack writes below its end.
	if (!end && f == TEST_FAULT_AP_STACK)
		me->guard[GUARD_WORDS - 1] = 0;
}

void smp_park(void)
{
	for (unsigned id = 1; id < smp.ncpus; id++)
		if (smp.online[id])
			post(id, CMD_PARK, NULL, NULL);
	uint64_t end = timer_ms() + PARK_TIMEOUT_MS;
	for (unsigned id = 1; id < smp.ncpus; id++) {
		while (smp.online[id] && !finished(id) && timer_ms() < end)
			cpu_relax();
		if (smp.online[id] && !finished(id)) {
			uint32_t apic = smp.apic[id];
			smpboot_stop(apic);
			smp.online[id] = false;
			log_warn("cpus: CPU %u (APIC ID %u) did not park within %u ms; it was stopped with "
				 "INIT and is left out", id, apic, PARK_TIMEOUT_MS);
		}
	}
}

static bool has_bad_page(const struct badram_table *bad, struct range r)
{
	for (uint64_t a = r.start; a < r.end; a += PAGE_SIZE)
		if (badram_table_has(bad, a))
			return true;
	return false;
}

void smp_moved(struct ram *ram, uint64_t slots, const struct badram_table *bad)
{
	if (smp.tramp.start == 0)
		return;
	smp.slots = slots;
	if (has_bad_page(bad, smp.tramp)) {
		uint64_t t = plan_block(ram, SMPBOOT_BYTES, PLAN_TRAMPOLINE_MIN, PLAN_TRAMPOLINE_END, bad);
		if (t == 0) {
			log_warn("cpus: no fault-free memory below 640 KiB for the AP start-up code; "
				 "the BSP tests alone from now on");
			smp.tramp = (struct range){ 0, 0 };
			for (unsigned id = 1; id < smp.ncpus; id++)
				smp.online[id] = false;
			return;
		}
		log_info("cpus: the AP start-up code moves from 0x%llx-0x%llx to 0x%llx-0x%llx, away "
			 "from a failing page", (unsigned long long)smp.tramp.start,
			 (unsigned long long)(smp.tramp.end - 1), (unsigned long long)t,
			 (unsigned long long)(t + SMPBOOT_BYTES - 1));
		smp.tramp = (struct range){ t, t + SMPBOOT_BYTES };
	}
	ram_claim(ram, smp.tramp, TRAMPOLINE_WHAT);
	smpboot_install(smp.tramp.start);
	for (unsigned id = 1; id < smp.ncpus; id++) {
		if (!smp.online[id])
			continue;
		uint32_t apic = smp.apic[id];
		if (!start(id, apic)) {
			smp.online[id] = false;
			warn_not_started(apic, "again after ramsift moved ");
		}
	}
}
