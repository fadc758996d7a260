// SPDX-License-Identifier: GPL-2.0-or-later
// What becomes of the UEFI variable RamsiftResult at the end of a run:
// which record is written after which run, given what the variable held
// when the run began, or what the nvram: line says instead. Pure:
// src/record_keep.c gathers the facts and acts on the answer.
#ifndef RAMSIFT_LIB_RUN_KEEP_PLAN_H
#define RAMSIFT_LIB_RUN_KEEP_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "run/status.h"

// What RamsiftResult held when the run began.
enum keep_old {
	KEEP_OLD_UNKNOWN,	// not read: BIOS, nvram=off, no runtime services, a fault
	KEEP_OLD_NONE,		// no such variable
	KEEP_OLD_CORRUPT,	// GetVariable failed on it, or it is no record ramsift reads
	KEEP_OLD_FOREIGN,	// a record of another machine
	KEEP_OLD_PASS,
	KEEP_OLD_FAIL,
};

// What the end of the run does.
enum keep_plan {
	KEEP_SILENT,		// nothing to say: the run ended before it was set up
	KEEP_SAY_BIOS,		// a result to keep, but no store on a BIOS boot
	KEEP_SAY_OFF,		// nvram=off
	KEEP_SAY_UNCHANGED,	// no error and no complete pass: the old record stays
	KEEP_SAY_NO_FOLD,	// errors, but the run ended before its final report
	KEEP_SAY_GET_FAULTED,	// GetVariable faulted: SetVariable is not called
	KEEP_RECHECK,		// a PASS after a FAIL: test its reserved pages, then write
	KEEP_WRITE,		// write the run's record (its result, its pages)
};

// The facts the plan is made from.
struct keep_facts {
	bool set_up;		// the run got as far as reading the old record
	bool efi;		// booted through UEFI
	bool nvram;		// nvram= is on
	bool get_faulted;	// GetVariable faulted at the start
	enum keep_old old;
	bool old_reserved;	// KEEP_OLD_FAIL: the memory map reserves pages of it
	bool errors;		// the run found errors
	bool folded;		// its final report folded them
};

// The plan for a run that ended with result r and status s.
enum keep_plan keep_plan(const struct keep_facts *f, enum result r, const struct run_status *s);

#endif
