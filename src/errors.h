// SPDX-License-Identifier: GPL-2.0-or-later
// Error records: every failing word the tests report is counted, printed as
// one ERROR line up to the errors= cap, and its page recorded for the BadRAM
// fold. Safe to call from several CPUs at once.
#ifndef RAMSIFT_SRC_ERRORS_H
#define RAMSIFT_SRC_ERRORS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "badram/badram.h"
#include "capacity.h"	// ERRORS_TABLE_SLOTS: the table's size
#include "run/status.h"

// Start empty, keeping the table in slots[0..ERRORS_TABLE_SLOTS); print at
// most print_cap ERROR lines.
void errors_init(uint32_t print_cap, uint64_t *slots);

// The slots were copied to slots (ramsift moved itself): use the copy.
void errors_moved(uint64_t *slots);

// Record one failing read of the 64-bit word at physical addr.
void errors_record(uint64_t addr, uint64_t expected, uint64_t actual, const char *test,
		   uint32_t pass, unsigned cpu);

// Record the page of phys as failing without a failing read: a page a
// machine-check bank named (src/machcheck.c) or ramsift's own code that
// changed (src/selfcheck.c).
void errors_record_page(uint64_t phys);

// Whether anything failed: a failing read, or a page recorded.
bool errors_found(void);

// Failing reads so far, and how many of them were not printed (the cap).
uint64_t errors_total(void);
uint64_t errors_unprinted(void);

// The last failing address recorded, of a failing read or a page recorded
// by errors_record_page (0 before the first).
uint64_t errors_last_addr(void);

// The distinct failing pages, for the fold and for choosing where ramsift
// may move itself.
const struct badram_table *errors_table(void);

// The distinct failing words of failing reads, in the order first found: at
// most ERRORS_CELLS_MAX of them, for the diagnosis in DRAM terms. Sets *all
// to whether every distinct failing word is in the list.
#define ERRORS_CELLS_MAX 1024
const uint64_t *errors_cells(size_t *n, bool *all);

// Copy the counters into s (its errors and failing_pages); returns s. For
// the run status's writers (docs/design.md, "Who writes the run status").
struct run_status *errors_to_status(struct run_status *s);

#endif
