// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/run/keep_plan.c: which record is written after which
// run (PASS, FAIL, STOPPED, ABORTED, complete or not), crossed with what
// RamsiftResult held (none, PASS, FAIL with its pages reserved or not,
// corrupt, another machine's); then how the boot (BIOS, nvram=off, a
// faulting GetVariable, a run not set up) changes it.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "run/keep_plan.h"

static const char *const plan_names[] = {
	[KEEP_SILENT] = "SILENT", [KEEP_SAY_BIOS] = "SAY_BIOS", [KEEP_SAY_OFF] = "SAY_OFF",
	[KEEP_SAY_UNCHANGED] = "SAY_UNCHANGED", [KEEP_SAY_NO_FOLD] = "SAY_NO_FOLD",
	[KEEP_SAY_GET_FAULTED] = "SAY_GET_FAULTED", [KEEP_RECHECK] = "RECHECK",
	[KEEP_WRITE] = "WRITE",
};

// How a run ended.
struct run_end {
	const char *what;
	enum result result;
	bool errors, folded;
	uint32_t passes_done;
	bool all_tested;	// its passes tested every usable byte
};

static const struct run_end pass_complete = { "PASS", RESULT_PASS, false, false, 1, true };
static const struct run_end fail_folded = { "FAIL", RESULT_FAIL, true, true, 1, true };
static const struct run_end stopped = { "STOPPED after a pass", RESULT_STOPPED, false, false, 1, true };
static const struct run_end stopped_early = { "STOPPED in pass 1", RESULT_STOPPED, false, false, 0, false };
static const struct run_end aborted_errors = { "ABORTED with errors", RESULT_ABORTED, true, false, 0, false };
static const struct run_end aborted_clean = { "ABORTED, no error", RESULT_ABORTED, false, false, 1, true };
static const struct run_end pass_part = { "PASS, a part untested", RESULT_PASS, false, false, 1, false };

static enum keep_plan plan_for(struct keep_facts f, const struct run_end *e)
{
	struct run_status s = { .passes_done = e->passes_done, .usable_bytes = 1u << 30 };

	s.tested_bytes = e->all_tested ? s.usable_bytes : s.usable_bytes - 4096;
	f.errors = e->errors;
	f.folded = e->folded;
	return keep_plan(&f, e->result, &s);
}

// What RamsiftResult held, on a UEFI boot with nvram=on.
enum { NONE, PASS, FAIL_RESERVED, FAIL_UNRESERVED, CORRUPT, FOREIGN, NOLD };
static const struct {
	const char *what;
	enum keep_old old;
	bool reserved;
} olds[NOLD] = {
	[NONE] = { "no record", KEEP_OLD_NONE, false },
	[PASS] = { "a PASS record", KEEP_OLD_PASS, false },
	[FAIL_RESERVED] = { "a FAIL record, its pages reserved", KEEP_OLD_FAIL, true },
	[FAIL_UNRESERVED] = { "a FAIL record, no page reserved", KEEP_OLD_FAIL, false },
	[CORRUPT] = { "a corrupt record", KEEP_OLD_CORRUPT, false },
	[FOREIGN] = { "another machine's record", KEEP_OLD_FOREIGN, false },
};

static const struct {
	const struct run_end *end;
	enum keep_plan want[NOLD];
} runs[] = {
	// Only a clean PASS after a FAIL whose pages were kept out of use
	// tests those pages again before it replaces the record.
	{ &pass_complete, { KEEP_WRITE, KEEP_WRITE, KEEP_RECHECK, KEEP_WRITE, KEEP_WRITE, KEEP_WRITE } },
	{ &fail_folded, { KEEP_WRITE, KEEP_WRITE, KEEP_WRITE, KEEP_WRITE, KEEP_WRITE, KEEP_WRITE } },
	{ &stopped, { KEEP_SAY_UNCHANGED, KEEP_SAY_UNCHANGED, KEEP_SAY_UNCHANGED, KEEP_SAY_UNCHANGED,
		      KEEP_SAY_UNCHANGED, KEEP_SAY_UNCHANGED } },
	{ &stopped_early, { KEEP_SAY_UNCHANGED, KEEP_SAY_UNCHANGED, KEEP_SAY_UNCHANGED,
			    KEEP_SAY_UNCHANGED, KEEP_SAY_UNCHANGED, KEEP_SAY_UNCHANGED } },
	{ &aborted_errors, { KEEP_SAY_NO_FOLD, KEEP_SAY_NO_FOLD, KEEP_SAY_NO_FOLD, KEEP_SAY_NO_FOLD,
			     KEEP_SAY_NO_FOLD, KEEP_SAY_NO_FOLD } },
	{ &aborted_clean, { KEEP_SAY_UNCHANGED, KEEP_SAY_UNCHANGED, KEEP_SAY_UNCHANGED,
			    KEEP_SAY_UNCHANGED, KEEP_SAY_UNCHANGED, KEEP_SAY_UNCHANGED } },
	{ &pass_part, { KEEP_SAY_UNCHANGED, KEEP_SAY_UNCHANGED, KEEP_SAY_UNCHANGED, KEEP_SAY_UNCHANGED,
			KEEP_SAY_UNCHANGED, KEEP_SAY_UNCHANGED } },
};

static void test_run_by_old_record(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++)
		for (size_t o = 0; o < NOLD; o++) {
			struct keep_facts f = { .set_up = true, .efi = true, .nvram = true,
						.old = olds[o].old, .old_reserved = olds[o].reserved };
			enum keep_plan got = plan_for(f, runs[i].end);
			if (got != runs[i].want[o])
				fail_msg("%s after %s: %s, want %s", runs[i].end->what, olds[o].what,
					 plan_names[got], plan_names[runs[i].want[o]]);
		}
}

// The boot, with a FAIL record whose pages are reserved (so RECHECK would
// be the plan on a plain UEFI boot).
enum { NOT_SET_UP, BIOS, NVRAM_OFF, GET_FAULTED, NBOOT };
static const struct {
	const char *what;
	struct keep_facts facts;
} boots[NBOOT] = {
	[NOT_SET_UP] = { "a run that ended before it was set up", { .set_up = false } },
	[BIOS] = { "a BIOS boot", { .set_up = true, .efi = false, .nvram = true } },
	[NVRAM_OFF] = { "nvram=off", { .set_up = true, .efi = true, .nvram = false,
				       .old = KEEP_OLD_FAIL, .old_reserved = true } },
	[GET_FAULTED] = { "a GetVariable that faulted", { .set_up = true, .efi = true, .nvram = true,
							  .get_faulted = true } },
};

static const struct {
	const struct run_end *end;
	enum keep_plan want[NBOOT];
} boot_runs[] = {
	// A BIOS boot speaks only of a result it would have kept.
	{ &pass_complete, { KEEP_SILENT, KEEP_SAY_BIOS, KEEP_SAY_OFF, KEEP_SAY_GET_FAULTED } },
	{ &fail_folded, { KEEP_SILENT, KEEP_SAY_BIOS, KEEP_SAY_OFF, KEEP_SAY_GET_FAULTED } },
	{ &stopped, { KEEP_SILENT, KEEP_SILENT, KEEP_SAY_OFF, KEEP_SAY_UNCHANGED } },
	{ &aborted_errors, { KEEP_SILENT, KEEP_SILENT, KEEP_SAY_OFF, KEEP_SAY_NO_FOLD } },
};

static void test_run_by_boot(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(boot_runs) / sizeof(boot_runs[0]); i++)
		for (size_t b = 0; b < NBOOT; b++) {
			enum keep_plan got = plan_for(boots[b].facts, boot_runs[i].end);
			if (got != boot_runs[i].want[b])
				fail_msg("%s on %s: %s, want %s", boot_runs[i].end->what, boots[b].what,
					 plan_names[got], plan_names[boot_runs[i].want[b]]);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_by_old_record),
		cmocka_unit_test(test_run_by_boot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
