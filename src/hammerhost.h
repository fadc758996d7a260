// SPDX-License-Identifier: GPL-2.0-or-later
// The hammer test's side in the image: what each job of it gets (the
// machine's callbacks in src/x86/hammer_loop.c, the learned map, its share of
// the pass's time), and its account: the hammer: line of each pass, the
// words found vulnerable only at the maximum rate (the two-rate rule), and
// the summary's and the JSON's hammer_only.
#ifndef RAMSIFT_SRC_HAMMERHOST_H
#define RAMSIFT_SRC_HAMMERHOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "memtest/memtest.h"
#include "range.h"
#include "run_ctx.h"

// Without a learned map the aggressors are guessed this far apart: the
// row size of a dual-channel DDR4 controller (rows from address bit 18).
#define HAMMERHOST_ROW_STRIDE (256u << 10)

// Fill *h for a hammer job of pass over r[0..n), bytes of the pass's
// total, run with run's settings: its time is hammer= seconds times
// bytes / total (one site at least).
void hammerhost_job(struct mt_hammer *h, const struct run_ctx *run, const struct range *r,
		    size_t n, uint64_t total);

// At the end of pass: the hammer: line of what its hammer jobs did, when
// there were any; then starts the next pass's account.
void hammerhost_pass_end(uint32_t pass);

// Words flipped only at the maximum rate over the run (the two-rate rule).
uint64_t hammerhost_only(void);

// The summary's lines, when the hammer test ran: the rows, the rate and
// hammer_only, then the vulnerable words' pages; after the BadRAM lines.
void hammerhost_summary(void);

// The run's highest rate reached (activations per aggressor per 64 ms
// window) and rows hammered; false when no hammer job ran.
bool hammerhost_totals(uint32_t *rate, uint64_t *rows);

#endif
