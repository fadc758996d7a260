// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/run/plan.c and lib/run/ram.c: the tests a pass runs,
// the seeds, where ramsift moves (around failing pages, above the first MiB,
// never into a claim) and where the AP start-up code goes, which CPUs start,
// how ranges are shared among CPUs (exact, 2 MiB cuts, balanced, rotated),
// the fold budget from the settings, and the free-RAM bookkeeping (claims,
// finds, allocations).
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>

#include "boot/cmdline.h"
#include "const.h"
#include "run/plan.h"

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

// The AP start-up code: whole free pages below 640 KiB, never page 0, none
// known to fail.
static void test_trampoline_block(void **state)
{
	struct range r[] = { { 0, 639 * KiB }, { 1 * MiB, 64 * MiB } };
	(void)state;

	ram_of(r, 2);
	uint64_t t = plan_block(&ram, 2 * PAGE, PLAN_TRAMPOLINE_MIN, PLAN_TRAMPOLINE_END, &bad);
	assert_int_equal(t, 636 * KiB - 2 * PAGE);
	badram_table_add(&bad, 636 * KiB - PAGE + 8);
	assert_int_equal(plan_block(&ram, 2 * PAGE, PLAN_TRAMPOLINE_MIN, PLAN_TRAMPOLINE_END, &bad),
			 636 * KiB - 3 * PAGE);
	struct range page0[] = { { 0, 2 * PAGE }, { 1 * MiB, 2 * MiB } };
	ram_of(page0, 2);
	assert_int_equal(plan_block(&ram, 2 * PAGE, PLAN_TRAMPOLINE_MIN, PLAN_TRAMPOLINE_END, &bad), 0);
	assert_int_equal(plan_block(&ram, PAGE, PLAN_TRAMPOLINE_MIN, PLAN_TRAMPOLINE_END, &bad), PAGE);
	struct range high[] = { { 0xA0000, 0x100000 } };
	ram_of(high, 1);
	assert_int_equal(plan_block(&ram, PAGE, PLAN_TRAMPOLINE_MIN, PLAN_TRAMPOLINE_END, &bad), 0);
}

// Which APs start: the MADT's enabled CPUs but the BSP, in table order,
// cut by cpus= and MAX_CPUS, and in xAPIC mode only IDs an IPI can name.
static void test_aps(void **state)
{
	static const struct acpi_cpu madt[] = {
		{ .apic_id = 0, .enabled = true }, { .apic_id = 2, .enabled = true },
		{ .apic_id = 1, .enabled = false, .online_capable = true },
		{ .apic_id = 4, .enabled = true }, { .apic_id = 300, .x2apic = true, .enabled = true },
		{ .apic_id = 6, .enabled = true },
	};
	static const struct {
		const char *name;
		uint32_t bsp, want;
		bool x2apic;
		size_t nstart;
		uint32_t ids[4];
		size_t by_cfg, unaddressable;
		bool bsp_listed;
	} cases[] = {
		{ "all, xAPIC", 0, 0, false, 3, { 2, 4, 6 }, 0, 1, true },
		{ "all, x2APIC", 0, 0, true, 4, { 2, 4, 300, 6 }, 0, 0, true },
		{ "cpus=1", 0, 1, true, 0, { 0 }, 4, 0, true },
		{ "cpus=3", 0, 3, true, 2, { 2, 4 }, 2, 0, true },
		{ "cpus=3 xAPIC", 0, 3, false, 2, { 2, 4 }, 1, 1, true },
		{ "cpus=9 (more than found)", 0, 9, true, 4, { 2, 4, 300, 6 }, 0, 0, true },
		{ "BSP 4", 4, 0, true, 4, { 0, 2, 300, 6 }, 0, 0, true },
		{ "BSP not listed", 7, 2, true, 1, { 0 }, 4, 0, false },
	};
	(void)state;

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		uint32_t ids[8] = { 0 };
		struct plan_cpus why;
		size_t n = plan_aps(madt, sizeof(madt) / sizeof(madt[0]), cases[c].bsp, cases[c].want,
				    cases[c].x2apic, ids, 8, &why);
		if (n != cases[c].nstart || why.nstart != n || why.by_cfg != cases[c].by_cfg ||
		    why.unaddressable != cases[c].unaddressable || why.beyond_max != 0 ||
		    why.bsp_listed != cases[c].bsp_listed)
			fail_msg("%s: nstart %zu (want %zu), by_cfg %zu (want %zu), unaddressable %zu "
				 "(want %zu), beyond %zu, bsp_listed %d", cases[c].name, n, cases[c].nstart,
				 why.by_cfg, cases[c].by_cfg, why.unaddressable, cases[c].unaddressable,
				 why.beyond_max, why.bsp_listed);
		for (size_t i = 0; i < n; i++)
			if (ids[i] != cases[c].ids[i])
				fail_msg("%s: ids[%zu] = %u, want %u", cases[c].name, i, ids[i], cases[c].ids[i]);
	}
}

// More enabled CPUs than MAX_CPUS: the rest are counted, never written.
static void test_aps_beyond_max(void **state)
{
	static struct acpi_cpu many[MAX_CPUS + 10];
	static uint32_t ids[MAX_CPUS];
	struct plan_cpus why;
	(void)state;

	for (size_t i = 0; i < MAX_CPUS + 10; i++)
		many[i] = (struct acpi_cpu){ .apic_id = (uint32_t)i, .x2apic = true, .enabled = true };
	assert_int_equal(plan_aps(many, MAX_CPUS + 10, 0, 0, true, ids, MAX_CPUS, &why), MAX_CPUS - 1);
	assert_int_equal(why.beyond_max, 10);
	assert_int_equal(ids[MAX_CPUS - 2], MAX_CPUS - 1);
	assert_int_equal(plan_aps(many, MAX_CPUS + 10, 0, 4, true, ids, MAX_CPUS, &why), 3);
	assert_int_equal(why.by_cfg, MAX_CPUS + 6);
}

// Check one split: shares are sorted, disjoint, inside r; together exactly
// r; every cut at a multiple of 2 MiB; CPU k holds slice (k + rot) % parts.
static void check_shares(const char *name, const struct range *r, size_t n, size_t parts,
			 uint32_t rot, const struct range *out, size_t nout,
			 const struct plan_share *sh)
{
	uint64_t total = 0;
	size_t next = 0;	// slices come in order: slice j at out[next...]

	for (size_t j = 0; j < parts; j++) {
		size_t k = (j + parts - rot % parts) % parts;
		if (sh[k].first != next && sh[k].n)
			fail_msg("%s: CPU %zu's share starts at %zu, want slice %zu at %zu", name, k,
				 sh[k].first, j, next);
		for (size_t i = sh[k].first; i < sh[k].first + sh[k].n; i++) {
			if (out[i].start >= out[i].end)
				fail_msg("%s: empty range %zu in CPU %zu's share", name, i, k);
			if (i > sh[k].first && out[i].start < out[i - 1].end)
				fail_msg("%s: CPU %zu's share is not sorted at %zu", name, k, i);
			total += out[i].end - out[i].start;
			// Every share boundary that cuts a range is 2 MiB aligned.
			bool starts_range = false, ends_range = false;
			for (size_t q = 0; q < n; q++) {
				starts_range |= out[i].start == r[q].start;
				ends_range |= out[i].end == r[q].end;
			}
			if ((!starts_range && out[i].start % PLAN_SHARE_ALIGN) ||
			    (!ends_range && out[i].end % PLAN_SHARE_ALIGN))
				fail_msg("%s: range 0x%llx-0x%llx cut off the 2 MiB grid", name,
					 (unsigned long long)out[i].start, (unsigned long long)out[i].end);
		}
		next += sh[k].n;
	}
	if (next != nout)
		fail_msg("%s: shares hold %zu ranges, %zu were written", name, next, nout);
	if (total != range_total(r, n))
		fail_msg("%s: shares hold %llu bytes, the ranges %llu", name,
			 (unsigned long long)total, (unsigned long long)range_total(r, n));
	// The union is r: walk both lists.
	size_t q = 0;
	uint64_t at = n ? r[0].start : 0;
	for (size_t i = 0; i < nout; i++) {
		while (q < n && at == r[q].end && ++q < n)
			at = r[q].start;
		if (q == n || out[i].start != at || out[i].end > r[q].end)
			fail_msg("%s: range %zu 0x%llx-0x%llx is not the next part of the ranges",
				 name, i, (unsigned long long)out[i].start, (unsigned long long)out[i].end);
		at = out[i].end;
	}
}

static size_t share_bytes(const struct range *out, const struct plan_share *s)
{
	return (size_t)range_total(out + s->first, s->n);
}

static void test_shares(void **state)
{
	static const struct range big[] = { { 0, 640 * KiB }, { 1 * MiB, 3072 * MiB } };
	static const struct range frag[] = {
		{ 0, 636 * KiB }, { 1 * MiB, 2 * MiB + 8 * KiB }, { 2 * MiB + 12 * KiB, 5 * MiB },
		{ 9 * MiB, 9 * MiB + 4 * KiB }, { 16 * MiB, 127 * MiB + 896 * KiB },
	};
	static const struct range small[] = { { 0x2000, 0x3000 }, { 0x200000, 0x300000 } };
	static const struct {
		const char *name;
		const struct range *r;
		size_t n, parts;
		uint32_t rot;
		size_t nonempty;	// shares holding bytes
	} cases[] = {
		{ "3 GiB, 1 CPU", big, 2, 1, 0, 1 },
		{ "3 GiB, 2 CPUs", big, 2, 2, 0, 2 },
		{ "3 GiB, 4 CPUs, rotation 1", big, 2, 4, 1, 4 },
		{ "3 GiB, 7 CPUs, rotation 9", big, 2, 7, 9, 7 },
		{ "3 GiB, 512 CPUs", big, 2, 512, 3, 512 },
		{ "fragments, 4 CPUs", frag, 5, 4, 0, 4 },
		{ "fragments, 8 CPUs, rotation 5", frag, 5, 8, 5, 8 },
		{ "two pages, 4 CPUs", small, 2, 4, 2, 2 },
		{ "no ranges, 3 CPUs", small, 0, 3, 0, 0 },
	};
	static struct range out[8 + 512];
	static struct plan_share sh[512];
	(void)state;

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		size_t nout = plan_shares(cases[c].r, cases[c].n, cases[c].parts, cases[c].rot, out,
					  cases[c].n + cases[c].parts - 1, sh);
		check_shares(cases[c].name, cases[c].r, cases[c].n, cases[c].parts, cases[c].rot, out,
			     nout, sh);
		size_t nonempty = 0;
		uint64_t total = range_total(cases[c].r, cases[c].n);
		for (size_t k = 0; k < cases[c].parts; k++) {
			nonempty += sh[k].n != 0;
			// Balanced: off the ideal by at most a cut's move each side,
			// where the ranges have no holes at the cuts.
			if (cases[c].r == big) {
				int64_t d = (int64_t)share_bytes(out, &sh[k]) - (int64_t)(total / cases[c].parts);
				if (d > (int64_t)(PLAN_SHARE_ALIGN + 384 * KiB) || -d > (int64_t)PLAN_SHARE_ALIGN)
					fail_msg("%s: CPU %zu has %zu bytes, ideal %llu", cases[c].name, k,
						 share_bytes(out, &sh[k]),
						 (unsigned long long)(total / cases[c].parts));
			}
		}
		if (nonempty != cases[c].nonempty)
			fail_msg("%s: %zu shares hold bytes, want %zu", cases[c].name, nonempty,
				 cases[c].nonempty);
	}
	// Rotation moves every byte: with 4 CPUs the pass after gives CPU k
	// what CPU k + 1 had.
	struct plan_share a[4], b[4];
	static struct range oa[5], ob[5];
	plan_shares(big, 2, 4, 1, oa, 5, a);
	plan_shares(big, 2, 4, 2, ob, 5, b);
	for (size_t k = 0; k < 4; k++)
		assert_int_equal(oa[a[(k + 1) % 4].first].start, ob[b[k].first].start);
	// Too small an output: nothing, every share empty.
	assert_int_equal(plan_shares(big, 2, 4, 0, oa, 4, a), 0);
	for (size_t k = 0; k < 4; k++)
		assert_int_equal(a[k].n, 0);
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

// A footprint moved keeps its sizes; its two ranges follow the image, and
// claiming it takes both out of the free RAM.
static void test_footprint_moved(void **state)
{
	struct range r[] = { { 1 * MiB, 64 * MiB } };
	struct footprint fp = {
		.image = 2 * MiB, .image_bytes = 3 * PAGE, .tables = 5 * MiB,
		.table_bytes = 2 * PAGE, .work_bytes = 5 * PAGE, .top = 4096 * MiB,
	};
	(void)state;

	struct footprint to = footprint_at(&fp, 32 * MiB);
	assert_int_equal(footprint_bytes(&to), 10 * PAGE);
	assert_int_equal(footprint_image(&to).start, 32 * MiB);
	assert_int_equal(footprint_image(&to).end, 32 * MiB + 3 * PAGE);
	assert_int_equal(footprint_data(&to).start, 32 * MiB + 3 * PAGE);
	assert_int_equal(footprint_data(&to).end, 32 * MiB + 10 * PAGE);
	assert_int_equal(footprint_work(&to), 32 * MiB + 5 * PAGE);
	assert_int_equal(footprint_work(&fp), 5 * MiB + 2 * PAGE);
	assert_int_equal(to.top, fp.top);
	ram_of(r, 1);
	ram_claim_footprint(&ram, &to);
	assert_int_equal(ram.nfree, 2);
	assert_int_equal(ram.free[0].end, 32 * MiB);
	assert_int_equal(ram.free[1].start, 32 * MiB + 10 * PAGE);
	assert_string_equal(ram.owned[0].what, FOOTPRINT_IMAGE_WHAT);
	assert_string_equal(ram.owned[1].what, FOOTPRINT_DATA_WHAT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_pass_and_list),
		cmocka_unit_test(test_seeds),
		cmocka_unit_test(test_move_highest_block),
		cmocka_unit_test(test_move_not_below_first_mib),
		cmocka_unit_test(test_move_no_room_between_bad_pages),
		cmocka_unit_test(test_trampoline_block),
		cmocka_unit_test(test_aps),
		cmocka_unit_test(test_aps_beyond_max),
		cmocka_unit_test(test_shares),
		cmocka_unit_test(test_fold_budget),
		cmocka_unit_test(test_ram_claims),
		cmocka_unit_test(test_footprint_moved),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
