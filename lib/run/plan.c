// SPDX-License-Identifier: GPL-2.0-or-later
// The run's choices (see plan.h).
#include "memtest/prng.h"
#include "page.h"
#include "run/plan.h"


size_t plan_tests(const struct config *cfg, const struct mt_test **out, size_t cap)
{
	size_t n = 0;

	if (cfg->ntests) {
		for (size_t i = 0; i < cfg->ntests && n < cap; i++)
			out[n++] = &mt_tests[cfg->tests[i]];
		return n;
	}
	for (size_t i = 0; i < mt_ntests && n < cap; i++)
		if (mt_tests[i].in_default_pass)
			out[n++] = &mt_tests[i];
	return n;
}

uint64_t plan_seed(const struct config *cfg, uint64_t entropy)
{
	return cfg->seed_set ? cfg->seed : entropy * PRNG_GOLDEN_GAMMA;
}

uint64_t plan_pass_seed(uint64_t seed, uint32_t pass)
{
	return seed + pass * PRNG_GOLDEN_GAMMA;
}

uint64_t plan_move(const struct ram *ram, uint64_t bytes, const struct badram_table *bad)
{
	return plan_block(ram, bytes, PLAN_MOVE_MIN_ADDR, ~0ull, bad);
}

uint64_t plan_block(const struct ram *ram, uint64_t bytes, uint64_t min, uint64_t max,
		    const struct badram_table *bad)
{
	for (size_t i = ram->nfree; i-- > 0;) {
		uint64_t lo = ram->free[i].start > min ? ram->free[i].start : min;
		uint64_t end = ram->free[i].end < max ? ram->free[i].end : max;
		lo = (lo + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
		end &= ~(PAGE_SIZE - 1);
		// Slide the block down below the highest failing page inside it.
		while (end > lo && end - lo >= bytes) {
			uint64_t page = end;
			while (page > end - bytes && !badram_table_has(bad, page - PAGE_SIZE))
				page -= PAGE_SIZE;
			if (page == end - bytes)
				return page;
			end = page - PAGE_SIZE;
		}
	}
	return 0;
}

size_t plan_aps(const struct acpi_cpu *cpus, size_t n, uint32_t bsp_apic_id, uint32_t want,
		bool x2apic, uint32_t *ids, size_t cap, struct plan_cpus *why)
{
	// With the BSP, at most want CPUs, and never more than MAX_CPUS.
	size_t room = want == 0 || want > MAX_CPUS ? MAX_CPUS - 1 : want - 1;

	*why = (struct plan_cpus){ 0 };
	for (size_t i = 0; i < n; i++) {
		if (!cpus[i].enabled)
			continue;
		if (cpus[i].apic_id == bsp_apic_id) {
			why->bsp_listed = true;
			continue;
		}
		if (!x2apic && cpus[i].apic_id > 254)
			why->unaddressable++;
		else if (why->nstart < room && why->nstart < cap)
			ids[why->nstart++] = cpus[i].apic_id;
		else if (want != 0 && want <= MAX_CPUS)
			why->by_cfg++;
		else
			why->beyond_max++;
	}
	return why->nstart;
}

// The address at which b bytes of r[0..n) lie before it (b < total): inside
// the range holding byte b.
static uint64_t address_of_byte(const struct range *r, size_t n, uint64_t b)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t len = r[i].end - r[i].start;
		if (b < len)
			return r[i].start + b;
		b -= len;
	}
	return n ? r[n - 1].end : 0;
}

size_t plan_shares(const struct range *r, size_t n, size_t parts, uint32_t rotation,
		   struct range *out, size_t cap, struct plan_share *shares)
{
	uint64_t total = range_total(r, n);
	uint64_t lo = 0;	// the current slice starts here (0: the very start)
	size_t nout = 0, i = 0;

	for (size_t k = 0; k < parts; k++)
		shares[k] = (struct plan_share){ 0, 0 };
	if (parts == 0 || cap < n + parts - 1)
		return 0;
	for (size_t j = 0; j < parts; j++) {
		// The slice's end: the nearest multiple of the alignment to where
		// (j + 1) / parts of the bytes lie; the last slice takes the rest.
		// total < 2^52 and parts <= 2^11 in practice; the product fits.
		uint64_t hi = ~0ull;
		if (j + 1 < parts) {
			uint64_t at = address_of_byte(r, n, total / parts * (j + 1) +
							    total % parts * (j + 1) / parts);
			hi = (at + PLAN_SHARE_ALIGN / 2) & ~(PLAN_SHARE_ALIGN - 1);
			if (hi < lo)
				hi = lo;
		}
		size_t first = nout;
		// Ranges wholly or partly in [lo, hi); i stays on a range that
		// reaches beyond hi, for the next slice.
		while (i < n && r[i].start < hi) {
			uint64_t s = r[i].start > lo ? r[i].start : lo;
			uint64_t e = r[i].end < hi ? r[i].end : hi;
			if (s < e)
				out[nout++] = (struct range){ s, e };
			if (r[i].end > hi)
				break;
			i++;
		}
		shares[(j + parts - rotation % parts) % parts] = (struct plan_share){ first, nout - first };
		lo = hi;
	}
	return nout;
}

struct badram_budget plan_fold_budget(const struct config *cfg, bool uefi)
{
	struct badram_budget b = badram_budget_default();

	b.pairs = cfg->patterns;
	b.holes = cfg->holes;
	b.uefi_only = uefi;
	return b;
}
