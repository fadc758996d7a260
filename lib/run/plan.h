// SPDX-License-Identifier: GPL-2.0-or-later
// The run's choices, made from the settings and what the run knows so far:
// which tests a pass runs, the random seeds, where ramsift moves itself to
// test its own memory, where the AP start-up code goes, which CPUs test,
// how a test's ranges are shared among them, and the fold's budget. Pure:
// src/ acts on them.
#ifndef RAMSIFT_LIB_RUN_PLAN_H
#define RAMSIFT_LIB_RUN_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "badram/badram.h"
#include "boot/acpi.h"
#include "boot/cmdline.h"
#include "memtest/memtest.h"
#include "run/ram.h"

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

// The highest page-aligned block of bytes (a multiple of PAGE_SIZE) of free
// RAM inside [min, max) that contains no page bad records as failing; 0 if
// there is none (so min must be above 0). plan_move is this block above
// PLAN_MOVE_MIN_ADDR.
uint64_t plan_block(const struct ram *ram, uint64_t bytes, uint64_t min, uint64_t max,
		    const struct badram_table *bad);

// Where the AP start-up code may lie: whole pages in [PAGE_SIZE, 0xA0000).
// A STARTUP IPI starts a CPU in real mode at CS:IP = VV00:0000, VV its
// 8-bit vector, and vectors A0-BF are reserved (Intel MultiProcessor
// Specification 1.4, B.4.2): so below the legacy video memory. Page 0 is
// left alone (0 means "none" here).
#define PLAN_TRAMPOLINE_MIN PAGE_SIZE
#define PLAN_TRAMPOLINE_END 0xA0000ull

// ---- CPUs ----------------------------------------------------------------

// Which application processors (APs) to start, and why others are not.
struct plan_cpus {
	size_t nstart;		// APIC IDs written to ids[]
	size_t by_cfg;		// enabled CPUs left out by cpus=
	size_t beyond_max;	// enabled CPUs beyond MAX_CPUS (with the BSP)
	size_t unaddressable;	// x2APIC IDs above 254 while the APIC is in xAPIC mode
	bool bsp_listed;	// the BSP's own APIC ID is among the enabled CPUs
};

// The APs to start, in the MADT's order: every enabled CPU of cpus[0..n)
// but the BSP (APIC ID bsp_apic_id), so that with the BSP at most want CPUs
// test (want 0: all of them) and never more than MAX_CPUS; in xAPIC mode
// (x2apic false) an APIC ID above 254 cannot be sent an IPI (255 is the
// broadcast) and is left out. Writes at most cap IDs to ids; fills *why.
// Returns why->nstart.
size_t plan_aps(const struct acpi_cpu *cpus, size_t n, uint32_t bsp_apic_id, uint32_t want,
		bool x2apic, uint32_t *ids, size_t cap, struct plan_cpus *why);

// ---- shares of a test's ranges -------------------------------------------

// Shares are cut at multiples of 2 MiB, so that each CPU streams whole
// large pages and no two CPUs write into one (and never into one cache
// line).
#define PLAN_SHARE_ALIGN (2ull << 20)

// One CPU's share: ranges out[first .. first + n) of plan_shares' output.
struct plan_share {
	size_t first, n;
};

// Split r[0..n) (sorted ascending, disjoint) into parts (>= 1) slices at
// parts - 1 cut addresses, each a multiple of PLAN_SHARE_ALIGN near the
// address where 1/parts, 2/parts, ... of the bytes lie (a cut moves at most
// PLAN_SHARE_ALIGN / 2 from that address; cuts never go backwards, so a
// small total leaves some slices empty). Slice j is r intersected with
// [cut j, cut j+1), written to out in address order, sorted and disjoint;
// the slices together are exactly r. CPU k (0 <= k < parts) gets slice
// (k + rotation) % parts in shares[k], so that rotation = pass number moves
// every byte to another CPU each pass. out must hold n + parts - 1 ranges
// (cap); returns the number written, or 0 with every share empty when cap is
// too small or parts is 0.
size_t plan_shares(const struct range *r, size_t n, size_t parts, uint32_t rotation,
		   struct range *out, size_t cap, struct plan_share *shares);

#endif
