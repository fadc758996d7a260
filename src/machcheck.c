// SPDX-License-Identifier: GPL-2.0-or-later
// The run's use of the machine-check banks (see machcheck.h).
#include "capacity.h"
#include "errors.h"
#include "log.h"
#include "machcheck.h"
#include "x86/cpu.h"
#include "x86/mca.h"
#include "x86/timer.h"

// By CPU number; each entry written by its own CPU only.
static struct {
	bool started;		// machcheck_cpu_start ran on it once
	unsigned banks;
	uint64_t cap;		// IA32_MCG_CAP
	uint64_t polled_ms;
} cpus[MAX_CPUS];

static uint64_t corrected, uncorrected, at_boot;

// Log and clear every record this CPU's banks hold. Records from before the
// start (before_start) are only logged; the run's are counted, and their
// pages recorded.
static void harvest(unsigned id, bool before_start)
{
	char line[LOG_LINE_MAX];

	for (unsigned i = 0; i < cpus[id].banks; i++) {
		struct mce_record r;
		uint64_t phys;
		mca_read(id, i, &r);
		enum mce_kind k = mce_kind(r.status);
		if (k == MCE_EMPTY)
			continue;
		mca_clear(i);
		mce_line(line, sizeof(line), &r, before_start ? "at boot" :
			 k == MCE_CORRECTED ? "corrected" : "uncorrected");
		log_info("%s", line);
		if (before_start) {
			__atomic_fetch_add(&at_boot, 1, __ATOMIC_RELAXED);
			continue;
		}
		__atomic_fetch_add(k == MCE_CORRECTED ? &corrected : &uncorrected, 1,
				   __ATOMIC_RELAXED);
		if (mce_phys_addr(&r, cpus[id].cap, &phys))
			errors_record_page(phys);
	}
}

void machcheck_cpu_start(void)
{
	unsigned id = this_cpu()->id;

	cpus[id].banks = mca_banks(&cpus[id].cap);
	if (!cpus[id].started) {
		harvest(id, true);
		cpus[id].started = true;
		if (id == 0 && cpus[id].banks)
			log_info("machine checks: %u banks (IA32_MCG_CAP=0x%llx), enabled; corrected "
				 "errors are polled every %u ms while testing", cpus[id].banks,
				 (unsigned long long)cpus[id].cap, MACHCHECK_POLL_MS);
		else if (id == 0)
			log_info("machine checks: this CPU has no machine-check banks; corrected ECC "
				 "errors cannot be seen");
	} else {
		harvest(id, false);
	}
	mca_enable();
	cpus[id].polled_ms = timer_ms();
}

void machcheck_poll(bool now)
{
	unsigned id = this_cpu()->id;
	uint64_t ms = timer_ms();

	if (!now && ms - cpus[id].polled_ms < MACHCHECK_POLL_MS)
		return;
	cpus[id].polled_ms = ms;
	harvest(id, false);
}

uint64_t machcheck_corrected(void)
{
	return __atomic_load_n(&corrected, __ATOMIC_RELAXED);
}

uint64_t machcheck_uncorrected(void)
{
	return __atomic_load_n(&uncorrected, __ATOMIC_RELAXED);
}

void machcheck_summary(void)
{
	if (at_boot)
		log_info("summary: %llu machine-check records were left from before ramsift "
			 "started (the MCE ... at boot lines); they are not counted: if one names "
			 "memory, test again and watch for it", (unsigned long long)at_boot);
	if (corrected || uncorrected)
		log_info("summary: %llu corrected and %llu uncorrected errors reported by the "
			 "machine-check banks (the MCE lines), apart from the tests' errors; the "
			 "pages they name are in the lines below", (unsigned long long)corrected,
			 (unsigned long long)uncorrected);
}

// The verdict after the banks of a machine check exception: what failed and
// what to do.
static void exception_verdict(bool uncorrected, bool named, uint64_t phys)
{
	if (named) {
		log_error("machine check: an uncorrectable memory error at 0x%016llx: the RAM "
			  "there lost data that ECC could not repair", (unsigned long long)phys);
		log_error("ramsift stopped: replace the DIMM holding 0x%016llx (the dimm: lines "
			  "list them; the machine's event log often names the slot)",
			  (unsigned long long)phys);
	} else if (uncorrected) {
		log_error("machine check: an uncorrectable error with no memory address (CPU "
			  "cache, bus or another unit): check the machine's event log and test again");
	} else {
		log_error("machine check: no bank holds an uncorrected error: check the machine's "
			  "event log and test again");
	}
}

void machcheck_exception(unsigned cpu)
{
	uint64_t cap, phys = 0;
	unsigned banks = mca_banks(&cap);
	bool named = false, uncorrected = false;
	char line[LOG_LINE_MAX];

	if (banks == 0) {
		log_error("machine check: this CPU has no machine-check banks to say what failed; "
			  "check the machine's event log and test again");
		return;
	}
	uint64_t mcg = mca_global_status();
	log_error("machine check: IA32_MCG_STATUS=0x%llx (RIPV=%u EIPV=%u MCIP=%u); the banks "
		  "holding records follow", (unsigned long long)mcg, !!(mcg & MCG_STATUS_RIPV),
		  !!(mcg & MCG_STATUS_EIPV), !!(mcg & MCG_STATUS_MCIP));
	for (unsigned i = 0; i < banks; i++) {
		struct mce_record r;
		mca_read(cpu, i, &r);
		if (mce_kind(r.status) == MCE_EMPTY)
			continue;
		mce_line(line, sizeof(line), &r, "#MC");
		log_info("%s", line);
		if (mce_kind(r.status) != MCE_UNCORRECTED)
			continue;
		uncorrected = true;
		if (!named)
			named = mce_phys_addr(&r, cap, &phys);
	}
	exception_verdict(uncorrected, named, phys);
}
