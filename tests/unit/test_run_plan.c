// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/run/plan.c and lib/run/ram.c: the tests a pass runs,
// the seeds, where ramsift moves (around failing pages, above the first MiB,
// never into a claim), the fold budget from the settings, and the free-RAM
// bookkeeping (claims, finds, allocations).
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>

#include "boot/cmdline.h"
#include "run/plan.h"

#define KiB 1024ull
#define MiB (1024ull * KiB)
#define PAGE 4096ull

static struct ram ram;
static uint64_t slots[1024];
static struct badram_table bad;

static void ram_of(const struct range *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ram.usable[i] = r[i];
	ram.nusable = n;
	ram_release_all(&ram);
	badram_table_init(&bad, slots, 1024);
}

static void test_default_pass_and_list(void **state)
{
	struct config cfg;
	const struct mt_test *t[CMDLINE_MAX_TESTS];
	(void)state;

	config_defaults(&cfg);
	size_t n = plan_tests(&cfg, t, CMDLINE_MAX_TESTS);
	size_t want = 0;
	for (size_t i = 0; i < mt_ntests; i++)
		want += mt_tests[i].in_default_pass;
	assert_int_equal(n, want);
	for (size_t i = 0; i < n; i++)
		assert_true(t[i]->in_default_pass);

	cfg.ntests = 3;
	cfg.tests[0] = 2;
	cfg.tests[1] = 0;
	cfg.tests[2] = 2;
	n = plan_tests(&cfg, t, CMDLINE_MAX_TESTS);
	assert_int_equal(n, 3);
	assert_ptr_equal(t[0], &mt_tests[2]);
	assert_ptr_equal(t[1], &mt_tests[0]);
	assert_ptr_equal(t[2], &mt_tests[2]);
	assert_int_equal(plan_tests(&cfg, t, 2), 2);	// the cap holds
}

static void test_seeds(void **state)
{
	struct config cfg;
	(void)state;

	config_defaults(&cfg);
	assert_int_not_equal(plan_seed(&cfg, 1), plan_seed(&cfg, 2));
	cfg.seed_set = true;
	cfg.seed = 42;
	assert_int_equal(plan_seed(&cfg, 1), 42);
	assert_int_equal(plan_seed(&cfg, 2), 42);
	assert_int_not_equal(plan_pass_seed(42, 1), plan_pass_seed(42, 2));
	assert_int_equal(plan_pass_seed(42, 3), plan_pass_seed(42, 3));
}

static void test_move_highest_block(void **state)
{
	struct range r[] = { { 0, 640 * KiB }, { 1 * MiB, 64 * MiB } };
	(void)state;

	ram_of(r, 2);
	assert_int_equal(plan_move(&ram, 8 * MiB, &bad), 56 * MiB);
	// A failing page near the top pushes the block below it.
	badram_table_add(&bad, 60 * MiB + 123);
	assert_int_equal(plan_move(&ram, 8 * MiB, &bad), 60 * MiB - 8 * MiB);
	// A claim is not free.
	ram_claim(&ram, (struct range){ 40 * MiB, 60 * MiB }, "test");
	assert_int_equal(plan_move(&ram, 8 * MiB, &bad), 32 * MiB);
}

static void test_move_not_below_first_mib(void **state)
{
	struct range r[] = { { 0, 640 * KiB }, { 1 * MiB, 3 * MiB } };
	(void)state;

	ram_of(r, 2);
	assert_int_equal(plan_move(&ram, 2 * MiB, &bad), 1 * MiB);
	assert_int_equal(plan_move(&ram, 2 * MiB + PAGE, &bad), 0);
	// Low memory alone never takes ramsift, even when it fits.
	struct range low[] = { { 0, 640 * KiB } };
	ram_of(low, 1);
	assert_int_equal(plan_move(&ram, 64 * KiB, &bad), 0);
}

static void test_move_no_room_between_bad_pages(void **state)
{
	struct range r[] = { { 1 * MiB, 9 * MiB } };
	(void)state;

	ram_of(r, 1);
	for (uint64_t a = 1 * MiB; a < 9 * MiB; a += 1 * MiB)
		badram_table_add(&bad, a);
	// Every MiB starts with a bad page: at most 1 MiB - 4 KiB in a row.
	assert_int_equal(plan_move(&ram, 1 * MiB, &bad), 0);
	assert_int_equal(plan_move(&ram, 1 * MiB - PAGE, &bad), 8 * MiB + PAGE);
}

static void test_fold_budget(void **state)
{
	struct config cfg;
	struct badram_budget def = badram_budget_default();
	(void)state;

	config_defaults(&cfg);
	struct badram_budget b = plan_fold_budget(&cfg, false);
	assert_int_equal(b.pairs, def.pairs);
	assert_int_equal(b.holes, def.holes);
	assert_int_equal(b.memmap_chars, def.memmap_chars);
	assert_false(b.uefi_only);
	cfg.patterns = 7;
	cfg.holes = 3;
	b = plan_fold_budget(&cfg, false);
	assert_int_equal(b.pairs, 7);
	assert_int_equal(b.holes, 3);
	assert_false(b.uefi_only);
	// Booted through UEFI: the pairs need not suit GRUB 2.06 on BIOS.
	b = plan_fold_budget(&cfg, true);
	assert_true(b.uefi_only);
	assert_int_equal(b.pairs, 7);
	assert_int_equal(b.holes, 3);
	assert_int_equal(b.memmap_chars, def.memmap_chars);
}

static void test_ram_claims(void **state)
{
	struct range r[] = { { 0, 640 * KiB }, { 1 * MiB, 16 * MiB } };
	(void)state;

	ram_of(r, 2);
	// Claims widen to pages.
	ram_claim(&ram, (struct range){ 2 * MiB + 1, 3 * MiB - 1 }, "image");
	assert_int_equal(ram.nfree, 3);
	assert_int_equal(ram.free[1].end, 2 * MiB);
	assert_int_equal(ram.free[2].start, 3 * MiB);
	assert_int_equal(ram.nowned, 1);
	assert_string_equal(ram.owned[0].what, "image");
	// Finds take the top of the highest range that fits below the limit.
	assert_int_equal(ram_find(&ram, 5000, 16 * MiB), 16 * MiB - 2 * PAGE);
	assert_int_equal(ram_find(&ram, 1 * MiB, 2 * MiB + 512 * KiB), 1 * MiB);
	assert_int_equal(ram_find(&ram, 20 * MiB, ~0ull), 0);
	assert_int_equal(ram_alloc(&ram, 1 * MiB, ~0ull, "tables"), 15 * MiB);
	assert_int_equal(ram.free[ram.nfree - 1].end, 15 * MiB);
	ram_release_all(&ram);
	assert_int_equal(ram.nfree, 2);
	assert_int_equal(ram.nowned, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_pass_and_list),
		cmocka_unit_test(test_seeds),
		cmocka_unit_test(test_move_highest_block),
		cmocka_unit_test(test_move_not_below_first_mib),
		cmocka_unit_test(test_move_no_room_between_bad_pages),
		cmocka_unit_test(test_fold_budget),
		cmocka_unit_test(test_ram_claims),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
