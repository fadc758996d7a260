// SPDX-License-Identifier: GPL-2.0-or-later
// The run's choices, made from the settings and what the run knows so far:
// which tests a pass runs, the random seeds, where ramsift moves itself to
// test its own memory, and the fold's budget. Pure: src/ acts on them.
#ifndef RAMSIFT_LIB_RUN_PLAN_H
#define RAMSIFT_LIB_RUN_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "badram/badram.h"
#include "boot/cmdline.h"
#include "memtest/memtest.h"
#include "ram.h"

// ramsift never moves below this address: the first MiB stays free for
// firmware-style uses (the AP start-up code).
#define PLAN_MOVE_MIN_ADDR (1ull << 20)

// The tests a pass runs, in order: cfg's tests= list, else every test of
// the default pass. Writes at most cap pointers to out; returns how many.
size_t plan_tests(const struct config *cfg, const struct mt_test **out, size_t cap);

// The run's seed: cfg's seed= when given, else one spread from entropy (the
// time stamp counter), which the log prints so the run can be repeated.
uint64_t plan_seed(const struct config *cfg, uint64_t entropy);

// The seed of pass (1, 2, ...): each pass draws other random patterns,
// reproducibly from the run's seed.
uint64_t plan_pass_seed(uint64_t seed, uint32_t pass);

// Where ramsift (bytes, a multiple of PAGE_SIZE) can move: the highest page-
// aligned block of free RAM at or above PLAN_MOVE_MIN_ADDR that holds it and
// contains no page bad records as failing. 0 if there is none.
uint64_t plan_move(const struct ram *ram, uint64_t bytes, const struct badram_table *bad);

// The fold's budget: the defaults with cfg's patterns= and holes=; uefi:
// ramsift booted through UEFI (the loader's EFI tags), where only GRUB on
// UEFI can apply the pairs, so they are folded in the fold's UEFI mode
// (uefi_only: no order or shapes for GRUB 2.06 on BIOS).
struct badram_budget plan_fold_budget(const struct config *cfg, bool uefi);

#endif
