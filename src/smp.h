// SPDX-License-Identifier: GPL-2.0-or-later
// The CPUs that test (docs/design.md, "Several CPUs"): which ones (the ACPI
// MADT and cpus=), their memory, starting them, handing each a function to
// run (a job's share), the barrier between a test's phases, parking them
// while ramsift moves itself, and noticing one that stopped. CPU numbers
// (cpu= in the log) are 0 for the BSP and 1, 2, ... for the APs in the order
// they started. Everything here is called on the BSP, but the barrier, the
// heartbeat and the canary check, which every CPU running a job calls.
#ifndef RAMSIFT_SRC_SMP_H
#define RAMSIFT_SRC_SMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "badram/badram.h"
#include "boot/cmdline.h"
#include "boot/multiboot.h"
#include "capacity.h"
#include "run/ram.h"
#include "x86/barrier.h"

// Each AP's memory, in the working memory after the page tables: its struct
// cpu (GDT, TSS, exception stack), its mailbox, guard words and its stack.
#define SMP_SLOT_BYTES (24u << 10)

// How long an AP has to start, and how long a CPU may show no sign of life
// (no progress, no wait) while others wait for it, before it is reported.
#define SMP_START_TIMEOUT_MS 1000
#define SMP_STALL_MS 60000
// The same under test_fault=ap-hang and ap-hang-end, so that their scenario
// need not wait a minute.
#define SMP_HOOK_STALL_MS 5000

// Find the CPUs (the MADT through read, warnings through warn), the local
// APIC's mode, and which APs to start under cfg's cpus= (and test_fault=);
// when there are any, claim the start-up code's pages below 640 KiB in ram.
// Call before the page tables for all RAM are built: returns the bytes of
// working memory the APs need (0 when the BSP tests alone). Makes the BSP's
// stack guard and per-CPU state ready (smp_beat, smp_check_stack).
uint64_t smp_find(const struct config *cfg, const struct bootinfo *bi, bootinfo_read_fn read,
		  bootinfo_warn_fn warn, struct ram *ram);

// What smp_find read from the ACPI tables (the MADT, and which FADT), for
// the machine's identity and power registers (machine.h).
const struct acpi_result *smp_acpi(void);

// Start the APs on the per-CPU memory at physical slots (the bytes smp_find
// returned, page aligned, identity mapped) and log who answered: a warning
// per AP that did not, then the cpus: line (or why the BSP tests alone).
void smp_start(uint64_t slots);

// The start-up code's pages: [start, end), or start == end when there are
// none (no AP).
struct range smp_trampoline(void);

// CPU numbers in use are below smp_cpus(); smp_online() says whether CPU id
// runs (an AP can drop out when it fails to restart).
size_t smp_cpus(void);
bool smp_online(unsigned id);
size_t smp_online_count(void);

// Have AP id (online, idle) run fn(arg) once, then go idle again.
void smp_post(unsigned id, void (*fn)(void *arg), void *arg);

// Wait until each AP in ids[0..n) has finished what smp_post gave it,
// calling tick() (may be NULL) about every 100 ms meanwhile. An AP that
// shows no sign of life for SMP_STALL_MS ends the run ABORTED, named with
// its APIC ID and what: the test running.
void smp_wait(const unsigned *ids, size_t n, void (*tick)(void), const char *what);

// A barrier among the CPUs ids[0..n) that run one job (src/x86/barrier.h:
// sense-reversing, its count and sense on cache lines of their own, each
// CPU's side on its own line in its per-CPU memory).
struct smp_barrier {
	struct barrier b;
	volatile bool cancelled;	// the job ends early: nobody waits any more
	const char *what;		// the test, for a report
	unsigned ids[MAX_CPUS];
};

// Prepare b for the CPUs ids[0..n), which must all be idle (before their
// job is posted); what names the test in a report.
void smp_barrier_init(struct smp_barrier *b, const unsigned *ids, size_t n, const char *what);

// Called by each of b's CPUs: return true once all of them have called it
// as often, false at once when b was cancelled. With flush, first write this
// CPU's dirty cache lines back to DRAM (see smp.c for why every CPU flushes
// its own). A CPU that shows no sign of life for SMP_STALL_MS while the
// others wait ends the run ABORTED, named by its APIC ID.
bool smp_barrier_wait(struct smp_barrier *b, bool flush);

// Let every CPU waiting at b go, now and from now on (a key ended the job,
// which its CPUs then leave at their next chunk). Called by the BSP.
void smp_barrier_cancel(struct smp_barrier *b);

// A sign of life from the calling CPU (a job's progress, a wait).
void smp_beat(void);

// The test hooks of test_fault= that act on CPU 1 as it runs a share: at
// its start (end false) or its end. Does nothing on another CPU, or for
// another hook.
void smp_test_hook(enum test_fault f, bool end);

// Check the calling CPU's guard words below its stack; a change ends the
// run ABORTED (its stack overflowed) naming the CPU and what ran.
void smp_check_stack(const char *what);

// Halt every AP (they write their caches back first) and wait until they
// have; an AP that does not is stopped with INIT and left out.
void smp_park(void);

// After ramsift moved itself: the per-CPU memory is now at slots. Claim the
// start-up code's pages in ram again (elsewhere below 640 KiB when bad
// records a failing page in them), copy the start-up code there for the new
// page tables, and restart every AP that was online; one that does not
// start is reported and left out. Does nothing without APs.
void smp_moved(struct ram *ram, uint64_t slots, const struct badram_table *bad);

#endif
