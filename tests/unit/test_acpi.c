// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/boot/acpi.c: QEMU's own tables (tests/unit/fixtures,
// dumped by `tests/linux/fixtures.sh acpi`) in a simulated physical memory,
// found through the loader's copy of the RSDP and through the BIOS scan;
// then hand-made tables, good and broken. Each case is one row of a table:
// what to build, and the exact CPU list, warning count and status wanted.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "boot/acpi.h"
#include "memstr.h"
#include "fixtures/acpi_fixture.h"
#include "fixtures/acpi_qemu_pc_smp4.h"
#include "fixtures/acpi_qemu_q35_smp4.h"

#include "simphys.h"

#define WARNING_LEN ACPI_WARNING_LEN
#include "warnings.h"

static void load_fixture(const struct acpi_fixture *f)
{
	for (; f->sig; f++)
		mem_add(f->phys, f->bytes, f->len);
}

static const struct acpi_fixture *fixture_table(const struct acpi_fixture *f, const char *sig)
{
	for (; f->sig; f++)
		if (str_n_eq(f->sig, sig, 4))
			return f;
	fail_msg("the fixture has no %s", sig);
	return NULL;
}

// ---- building tables ------------------------------------------------------

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static uint8_t sum(const uint8_t *p, size_t n)
{
	uint8_t s = 0;
	while (n--)
		s += *p++;
	return s;
}

// Make the n bytes at p sum to 0 by changing the byte at p + at.
static void fix_sum(uint8_t *p, size_t n, size_t at)
{
	p[at] = 0;
	p[at] = (uint8_t)-sum(p, n);
}

// Readable zeros after each hand-made table, as firmware packs its tables:
// a parser reading past a table's end would not be stopped by the reader.
#define SLACK 64

// A table at addr: header with sig, revision rev, then body; checksummed.
static uint8_t *put_table(uint64_t addr, const char *sig, uint8_t rev, const void *body, size_t n)
{
	uint8_t *t = mem_add(addr, NULL, 36 + n + SLACK);
	mem_copy(t, sig, 4);
	put32(t + 4, (uint32_t)(36 + n));
	t[8] = rev;
	mem_copy(t + 10, "RAMSFTTESTTABL", 14);
	if (body)
		mem_copy(t + 36, body, n);
	fix_sum(t, 36 + n, 9);
	return t;
}

// An RSDT (esize 4) or XSDT (8) at addr listing n tables.
static uint8_t *put_root(uint64_t addr, size_t esize, const uint64_t *tables, size_t n)
{
	uint8_t body[64 * 8] = { 0 };
	for (size_t i = 0; i < n; i++)
		if (esize == 4)
			put32(body + 4 * i, (uint32_t)tables[i]);
		else
			put64(body + 8 * i, tables[i]);
	return put_table(addr, esize == 4 ? "RSDT" : "XSDT", 1, body, n * esize);
}

// An RSDP in b: revision 0 (20 bytes) or 2 (36), checksums right.
static size_t make_rsdp(uint8_t b[36], uint8_t rev, uint32_t rsdt, uint64_t xsdt)
{
	mem_set(b, 0, 36);
	mem_copy(b, "RSD PTR ", 8);
	mem_copy(b + 9, "RAMSFT", 6);
	b[15] = rev;
	put32(b + 16, rsdt);
	if (rev < 2) {
		fix_sum(b, 20, 8);
		return 20;
	}
	put32(b + 20, 36);
	put64(b + 24, xsdt);
	fix_sum(b, 20, 8);
	fix_sum(b, 36, 32);
	return 36;
}

static uint8_t *put_rsdp(uint64_t addr, uint8_t rev, uint32_t rsdt, uint64_t xsdt)
{
	uint8_t b[36];
	return mem_add(addr, b, make_rsdp(b, rev, rsdt, xsdt));
}

// MADT entries, little-endian.
#define LE32(v) (uint8_t)(v), (uint8_t)((v) >> 8), (uint8_t)((v) >> 16), (uint8_t)((v) >> 24)
#define LAPIC(uid, id, flags) 0, 8, (uid), (id), LE32(flags)
#define X2APIC(id, flags, uid) 9, 16, 0, 0, LE32(id), LE32(flags), LE32(uid)
#define IOAPIC(id, addr) 1, 12, (id), 0, LE32(addr), LE32(0)
#define OVERRIDE(addr) 5, 12, 0, 0, LE32(addr), LE32(0)

#define MADT_AT 0x7fe10000u
#define RSDT_AT 0x7fe01000u	// below the MADT, which may be long
#define XSDT_AT 0x7fe02000u
#define FACP_AT 0x7fe03000u
#define RSDP_AT 0xf5a00u

// A MADT at addr with revision rev and the given entries (local APIC at
// 0xfee00000, PC-AT flag set).
static uint8_t *put_madt(uint64_t addr, uint8_t rev, const uint8_t *entries, size_t n)
{
	uint8_t body[8 + 16384];
	assert_true(n <= sizeof(body) - 8);
	put32(body, 0xfee00000);
	put32(body + 4, 1);
	mem_copy(body + 8, entries, n);
	return put_table(addr, "APIC", rev, body, 8 + n);
}

// An ACPI 1.0 FADT's body, all zeros: no registers, no DSDT.
static const uint8_t fadt_zeros[116 - 36];

// The usual hand-made layout: RSDP (revision 0) in the BIOS area, RSDT
// listing an FADT and the MADT.
static void put_all(uint8_t rev, const uint8_t *entries, size_t n)
{
	uint64_t tables[2] = { FACP_AT, MADT_AT };
	put_table(tables[0], "FACP", 1, fadt_zeros, sizeof(fadt_zeros));
	put_madt(MADT_AT, rev, entries, n);
	put_root(RSDT_AT, 4, tables, 2);
	put_rsdp(RSDP_AT, 0, RSDT_AT, 0);
}

// ---- running and checking -------------------------------------------------

static struct acpi_cpu cpus[ACPI_CPUS_MAX];
static struct acpi_result res;

static enum acpi_status find(const struct bootinfo *bi, size_t cap)
{
	warnings_reset();
	mem_set(cpus, 0xa5, sizeof(cpus));
	return acpi_find_cpus(bi, read_sim, warning_keep, NULL, cpus, cap, &res);
}

// The CPU list as text: "0 1 256x 7-": the APIC ID, x for an x2APIC entry,
// - for disabled but online-capable.
static const char *cpu_list(void)
{
	static char s[8192];
	size_t n = 0;
	s[0] = '\0';
	for (size_t i = 0; i < res.ncpus && n < sizeof(s) - 32; i++)
		n += (size_t)snprintf(s + n, sizeof(s) - n, "%s%u%s%s", i ? " " : "", cpus[i].apic_id,
				      cpus[i].x2apic ? "x" : "", cpus[i].enabled ? "" : "-");
	return s;
}

// The result: status, CPU list (as cpu_list writes it), how many warnings,
// and part of the last warning (NULL: not checked).
static void check(const char *name, enum acpi_status status, const char *want_cpus, int want_warnings,
		  const char *want_last)
{
	bool ok = res.status == status && str_eq(cpu_list(), want_cpus) && warns.count == want_warnings &&
		  (!want_last || has(warns.last, want_last));
	size_t enabled = 0;
	for (size_t i = 0; i < res.ncpus; i++)
		enabled += cpus[i].enabled;
	if (!ok || enabled != res.nenabled || (int)res.warnings != warns.count)
		fail_msg("case %s: want status %d, CPUs \"%s\", %d warnings, the last with \"%s\"; "
			 "got status %d, CPUs \"%s\", %d warnings (result says %zu; %zu enabled, result "
			 "says %zu), the last: %s", name, status, want_cpus, want_warnings,
			 want_last ? want_last : "", res.status, cpu_list(), warns.count, res.warnings,
			 enabled, res.nenabled, warns.last);
}

// ---- QEMU's tables --------------------------------------------------------

static void test_qemu_fixtures(void **state)
{
	static const struct {
		const char *name;
		const struct acpi_fixture *f;
		uint64_t rsdp, rsdt, madt;
	} cases[] = {
		{ "pc", acpi_qemu_pc_smp4, 0xf59b0, 0xbffe1bef, 0xbffe1aff },
		{ "q35", acpi_qemu_q35_smp4, 0xf59c0, 0x7ffe23f8, 0x7ffe22cc },
	};
	(void)state;

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		// Through the BIOS scan: the RSDP where SeaBIOS put it.
		mem_reset();
		load_fixture(cases[c].f);
		find(NULL, ACPI_CPUS_MAX);
		check(cases[c].name, ACPI_CPUS_FOUND, "0 1 2 3", 0, NULL);
		assert_int_equal(res.rsdp_from, ACPI_RSDP_BIOS);
		assert_int_equal(res.rsdp, cases[c].rsdp);
		assert_int_equal(res.rsdp_revision, 0);
		assert_int_equal(res.root, cases[c].rsdt);
		assert_false(res.xsdt);
		assert_int_equal(res.madt, cases[c].madt);
		assert_int_equal(res.madt_revision, 1);
		assert_int_equal(res.lapic_addr, 0xfee00000);
		assert_int_equal(res.unusable, 0);
		for (uint32_t i = 0; i < 4; i++)
			assert_int_equal(cpus[i].uid, i);

		// Through the loader's copy (tag 14): the BIOS area unreadable.
		struct bootinfo *bi = calloc(1, sizeof(*bi));
		const struct acpi_fixture *r = fixture_table(cases[c].f, "RSDP");
		mem_copy(bi->acpi_old.bytes, r->bytes, r->len);
		bi->acpi_old.len = (uint8_t)r->len;
		mem_reset();
		for (const struct acpi_fixture *f = cases[c].f; f->sig; f++)
			if (f->phys >= 0x100000)
				mem_add(f->phys, f->bytes, f->len);
		find(bi, ACPI_CPUS_MAX);
		check(cases[c].name, ACPI_CPUS_FOUND, "0 1 2 3", 0, NULL);
		assert_int_equal(res.rsdp_from, ACPI_RSDP_MB2_OLD);
		assert_int_equal(res.rsdp, 0);
		assert_int_equal(res.madt, cases[c].madt);
		free(bi);
	}
}

// The RSDP in the first KiB of the EBDA is found before the BIOS area's.
static void test_ebda(void **state)
{
	uint8_t seg[2] = { 0xc0, 0x9f };	// 0x9fc0: the EBDA at 0x9fc00
	(void)state;

	mem_reset();
	load_fixture(acpi_qemu_q35_smp4);
	mem_add(0x40e, seg, 2);
	mem_add(0x9fc00, NULL, 1024);
	const struct acpi_fixture *r = fixture_table(acpi_qemu_q35_smp4, "RSDP");
	mem_copy(mem_at(0x9fc00 + 0x3e0), r->bytes, r->len);	// the last slot it fits in
	find(NULL, ACPI_CPUS_MAX);
	check("ebda", ACPI_CPUS_FOUND, "0 1 2 3", 0, NULL);
	assert_int_equal(res.rsdp_from, ACPI_RSDP_EBDA);
	assert_int_equal(res.rsdp, 0x9ffe0);

	// Off the 16-byte grid: not an RSDP; the BIOS area's is used.
	mem_set(mem_at(0x9fc00), 0, 1024);
	mem_copy(mem_at(0x9fc00 + 0x108), r->bytes, r->len);
	find(NULL, ACPI_CPUS_MAX);
	check("ebda-misaligned", ACPI_CPUS_FOUND, "0 1 2 3", 0, NULL);
	assert_int_equal(res.rsdp_from, ACPI_RSDP_BIOS);

	// A segment pointing at the interrupt vectors is no EBDA.
	mem_copy(mem_at(0x9fc00 + 0x100), r->bytes, r->len);
	mem_add(0x0, NULL, 0x400);
	mem_copy(mem_at(0x100), r->bytes, r->len);
	seg[0] = 0x10;
	seg[1] = 0;
	mem_copy(mem_at(0x40e), seg, 2);
	find(NULL, ACPI_CPUS_MAX);
	check("ebda-at-ivt", ACPI_CPUS_FOUND, "0 1 2 3", 0, NULL);
	assert_int_equal(res.rsdp_from, ACPI_RSDP_BIOS);
	mem_reset();
}

// ---- RSDP, RSDT and XSDT, built by hand around the q35 tables --------------

// Entries of the MADT that the XSDT points to in these cases: other CPUs than
// QEMU's, so that which root table was used shows in the list.
static const uint8_t xsdt_madt[] = { LAPIC(0, 8, 1), LAPIC(1, 9, 1) };
#define XMADT_AT 0x7fe20000u

// q35's tables, the RSDP replaced by a revision 2 one at q35's address
// whose XSDT lists FACP, HPET and another MADT (CPUs 8 and 9).
static void xsdt_setup(void)
{
	const struct acpi_fixture *f = acpi_qemu_q35_smp4;
	uint64_t tables[3] = { fixture_table(f, "FACP")->phys, fixture_table(f, "HPET")->phys,
			       XMADT_AT };

	mem_reset();
	for (; f->sig; f++)
		if (!str_eq(f->sig, "RSDP"))
			mem_add(f->phys, f->bytes, f->len);
	put_madt(XMADT_AT, 1, xsdt_madt, sizeof(xsdt_madt));
	put_root(XSDT_AT, 8, tables, 3);
	put_rsdp(0xf59c0, 2, fixture_table(acpi_qemu_q35_smp4, "RSDT")->phys, XSDT_AT);
}

static uint8_t *rsdp(void) { return mem_at(0xf59c0); }
static uint8_t *xsdt(void) { return mem_at(XSDT_AT); }

static void setup_xsdt(void) { xsdt_setup(); }
static void setup_xsdt_bad_sum(void) { xsdt_setup(); xsdt()[9] ^= 1; }
static void setup_xsdt_bad_sig(void)
{
	xsdt_setup();
	mem_copy(xsdt(), "RSDT", 4);
	fix_sum(xsdt(), 36 + 24, 9);
}
static void setup_xsdt_no_madt(void)
{
	xsdt_setup();
	put32(mem_at(XSDT_AT + 4), 36 + 16);	// drop the MADT, the last entry
	fix_sum(xsdt(), 36 + 16, 9);
}
static void setup_xsdt_unreadable(void)
{
	xsdt_setup();
	put64(rsdp() + 24, 0x1234567000);
	fix_sum(rsdp(), 36, 32);
}
static void setup_xsdt_null(void)
{
	xsdt_setup();
	put64(rsdp() + 24, 0);
	fix_sum(rsdp(), 36, 32);
}
static void setup_rsdp_bad_xsum(void) { xsdt_setup(); rsdp()[32] ^= 0x40; }
static void setup_rsdp_bad_length(void)
{
	xsdt_setup();
	put32(rsdp() + 20, 20);
	fix_sum(rsdp(), 36, 32);
}
static void setup_rsdp_bad_sum(void) { xsdt_setup(); rsdp()[8] ^= 1; }
static void setup_rsdp_no_roots(void)
{
	xsdt_setup();
	mem_set(rsdp() + 16, 0, 4);
	mem_set(rsdp() + 24, 0, 8);
	fix_sum(rsdp(), 20, 8);
	fix_sum(rsdp(), 36, 32);
}
// The revision 0 RSDP: only the RSDT, without a word about an XSDT.
static void setup_rsdp_v1(void)
{
	xsdt_setup();
	mem_set(rsdp() + 15, 0, 1);
	fix_sum(rsdp(), 20, 8);
}
static void setup_rsdt_unreadable(void)
{
	setup_rsdp_v1();
	put32(rsdp() + 16, 0xfff00000);
	fix_sum(rsdp(), 20, 8);
}
// Firmware bytes in a warning are escaped (lib/escape.h): they cannot end
// the log line or drive a terminal.
static void setup_rsdt_control_sig(void)
{
	setup_rsdp_v1();
	mem_copy(mem_at(fixture_table(acpi_qemu_q35_smp4, "RSDT")->phys), "\x1b\nRS", 4);
}
static void setup_rsdt_truncated(void)
{
	mem_reset();
	const struct acpi_fixture *r = fixture_table(acpi_qemu_q35_smp4, "RSDT");
	for (const struct acpi_fixture *f = acpi_qemu_q35_smp4; f->sig; f++)
		mem_add(f->phys, f->bytes, f == r ? f->len - 1 : f->len);
}
// q35's RSDT lists FACP, APIC, HPET, MCFG, WAET: change the FACP's entry.
static void rsdt_entry0(uint32_t to)
{
	setup_rsdp_v1();
	uint8_t *t = mem_at(fixture_table(acpi_qemu_q35_smp4, "RSDT")->phys);
	put32(t + 36, to);
	fix_sum(t, fixture_table(acpi_qemu_q35_smp4, "RSDT")->len, 9);
}
static void setup_rsdt_entry_unreadable(void) { rsdt_entry0(0xdead0000); }
static void setup_rsdt_entry_null(void) { rsdt_entry0(0); }
// The FACP's entry pointing at the last 3 bytes of readable memory: its
// signature cannot be read whole.
static void setup_rsdt_entry_edge(void)
{
	rsdt_entry0(0x7fe40000);
	mem_add(0x7fe40000, "API", 3);
}
static void setup_rsdt_not_a_multiple(void)
{
	setup_rsdp_v1();
	const struct acpi_fixture *r = fixture_table(acpi_qemu_q35_smp4, "RSDT");
	uint8_t *t = mem_add(r->phys, NULL, r->len + 2);	// over the fixture's
	mem_copy(t, r->bytes, r->len);
	put32(t + 4, (uint32_t)r->len + 2);
	fix_sum(t, r->len + 2, 9);
}
// Two MADTs: the first one broken (skipped with a warning), the second used.
static void setup_two_madts(void)
{
	static const uint8_t e[] = { LAPIC(0, 5, 1) };
	uint64_t tables[2] = { 0x7fe30000, 0x7fe31000 };
	mem_reset();
	put_madt(tables[0], 1, e, sizeof(e))[9] ^= 0xff;
	put_madt(tables[1], 1, xsdt_madt, sizeof(xsdt_madt));
	put_root(RSDT_AT, 4, tables, 2);
	put_rsdp(RSDP_AT, 0, RSDT_AT, 0);
}
static void setup_no_madt(void)
{
	uint64_t facp = FACP_AT;
	mem_reset();
	put_table(facp, "FACP", 1, fadt_zeros, sizeof(fadt_zeros));
	put_root(RSDT_AT, 4, &facp, 1);
	put_rsdp(RSDP_AT, 0, RSDT_AT, 0);
}
static void setup_nothing(void) { mem_reset(); }
// A second "RSD PTR " before the real one in the BIOS area, with a bad
// checksum: warned about, and the scan goes on.
static void setup_rsdp_decoy(void)
{
	setup_rsdp_v1();
	put_rsdp(0xe0000, 0, 0x1000, 0)[8] ^= 1;
}

static const struct {
	const char *name;
	void (*setup)(void);
	enum acpi_status status;
	const char *cpus;
	int warnings;
	bool xsdt;
	const char *last;	// part of the last warning
} root_cases[] = {
	{ "xsdt preferred", setup_xsdt, ACPI_CPUS_FOUND, "8 9", 0, true, NULL },
	// The XSDT's warning, then "trying the RSDT".
	{ "xsdt bad checksum", setup_xsdt_bad_sum, ACPI_CPUS_FOUND, "0 1 2 3", 2, false,
	  "trying the RSDT at 0x7ffe23f8" },
	{ "xsdt wrong signature", setup_xsdt_bad_sig, ACPI_CPUS_FOUND, "0 1 2 3", 2, false,
	  "the XSDT is unusable" },
	{ "xsdt unreadable", setup_xsdt_unreadable, ACPI_CPUS_FOUND, "0 1 2 3", 2, false,
	  "the XSDT is unusable" },
	{ "xsdt without madt", setup_xsdt_no_madt, ACPI_CPUS_FOUND, "0 1 2 3", 1, false,
	  "the XSDT lists no valid MADT; trying the RSDT" },
	{ "xsdt null", setup_xsdt_null, ACPI_CPUS_FOUND, "0 1 2 3", 1, false,
	  "(revision 2) gives no XSDT address" },
	{ "rsdp bad extended checksum", setup_rsdp_bad_xsum, ACPI_CPUS_FOUND, "0 1 2 3", 1, false,
	  "bad length or extended checksum; its XSDT is not used" },
	{ "rsdp bad length", setup_rsdp_bad_length, ACPI_CPUS_FOUND, "0 1 2 3", 1, false,
	  "bad length or extended checksum; its XSDT is not used" },
	{ "rsdp bad checksum", setup_rsdp_bad_sum, ACPI_NO_RSDP, "", 1, false,
	  "the RSDP at 0xf59c0 has a bad checksum" },
	{ "rsdp decoy", setup_rsdp_decoy, ACPI_CPUS_FOUND, "0 1 2 3", 1, false,
	  "the RSDP at 0xe0000 has a bad checksum" },
	{ "rsdp without roots", setup_rsdp_no_roots, ACPI_NO_ROOT, "", 2, false,
	  "neither an RSDT nor a usable XSDT" },
	{ "rsdp revision 0", setup_rsdp_v1, ACPI_CPUS_FOUND, "0 1 2 3", 0, false, NULL },
	{ "rsdt unreadable", setup_rsdt_unreadable, ACPI_NO_ROOT, "", 1, false,
	  "pointer 0xfff00000 (RSDT) cannot be read" },
	{ "rsdt control bytes as signature", setup_rsdt_control_sig, ACPI_NO_ROOT, "", 1, false,
	  "has signature \"\\x1b\\nRS\", not RSDT; ignored" },
	{ "rsdt truncated", setup_rsdt_truncated, ACPI_NO_ROOT, "", 1, false,
	  "RSDT at 0x7ffe23f8 (length 56) cannot be read whole" },
	{ "rsdt entry unreadable", setup_rsdt_entry_unreadable, ACPI_CPUS_FOUND, "0 1 2 3", 1, false,
	  "entry 0 points to 0xdead0000, which cannot be read" },
	{ "rsdt entry null", setup_rsdt_entry_null, ACPI_CPUS_FOUND, "0 1 2 3", 1, false,
	  "entry 0 is null" },
	{ "rsdt entry at memory's edge", setup_rsdt_entry_edge, ACPI_CPUS_FOUND, "0 1 2 3", 1, false,
	  "entry 0 points to 0x7fe40000, which cannot be read" },
	{ "rsdt not whole entries", setup_rsdt_not_a_multiple, ACPI_CPUS_FOUND, "0 1 2 3", 1, false,
	  "not a whole number of 4-byte entries; the last 2 bytes" },
	{ "first madt broken", setup_two_madts, ACPI_CPUS_FOUND, "8 9", 1, false,
	  "APIC at 0x7fe30000 has a bad checksum" },
	{ "no madt", setup_no_madt, ACPI_NO_MADT, "", 0, false, NULL },
	{ "no rsdp", setup_nothing, ACPI_NO_RSDP, "", 0, false, NULL },
};

static void test_roots(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(root_cases) / sizeof(root_cases[0]); c++) {
		root_cases[c].setup();
		find(NULL, ACPI_CPUS_MAX);
		check(root_cases[c].name, root_cases[c].status, root_cases[c].cpus, root_cases[c].warnings,
		      root_cases[c].last);
		if (res.xsdt != root_cases[c].xsdt)
			fail_msg("case %s: want xsdt %d, got %d", root_cases[c].name, root_cases[c].xsdt,
				 res.xsdt);
	}
	mem_reset();
}

// ---- the loader's copies ----------------------------------------------------

static void copy_rsdp(struct bootinfo_rsdp *r, const uint8_t *b, size_t n)
{
	mem_copy(r->bytes, b, n);
	r->len = (uint8_t)n;
}

static void test_loader_copies(void **state)
{
	struct bootinfo *bi = calloc(1, sizeof(*bi));
	uint8_t v2[36], v1[36];
	(void)state;

	xsdt_setup();
	mem_copy(v2, rsdp(), 36);
	make_rsdp(v1, 0, fixture_table(acpi_qemu_q35_smp4, "RSDT")->phys, 0);
	mem_set(rsdp(), 0, 36);			// the BIOS area has none

	// Tag 15 first: its XSDT.
	copy_rsdp(&bi->acpi_new, v2, 36);
	copy_rsdp(&bi->acpi_old, v1, 20);
	find(bi, ACPI_CPUS_MAX);
	check("tag 15", ACPI_CPUS_FOUND, "8 9", 0, NULL);
	assert_int_equal(res.rsdp_from, ACPI_RSDP_MB2_NEW);
	assert_int_equal(res.rsdp_revision, 2);
	assert_int_equal(res.root, XSDT_AT);

	// Tag 15 broken: tag 14.
	bi->acpi_new.bytes[8] ^= 1;
	find(bi, ACPI_CPUS_MAX);
	check("tag 15 broken", ACPI_CPUS_FOUND, "0 1 2 3", 1,
	      "the RSDP in the loader's multiboot2 tag 15 has a bad checksum");
	assert_int_equal(res.rsdp_from, ACPI_RSDP_MB2_OLD);

	// Both broken, none in the BIOS areas.
	bi->acpi_old.bytes[0] = 'X';
	find(bi, ACPI_CPUS_MAX);
	check("tags broken", ACPI_NO_RSDP, "", 2, "tag 14 has no \"RSD PTR \" signature");

	// Both broken: the BIOS area's.
	mem_copy(rsdp(), v2, 36);
	find(bi, ACPI_CPUS_MAX);
	check("tags broken, bios", ACPI_CPUS_FOUND, "8 9", 2, NULL);
	assert_int_equal(res.rsdp_from, ACPI_RSDP_BIOS);

	// A copy too short for the revision it claims: the RSDT only.
	mem_set(bi, 0, sizeof(*bi));
	copy_rsdp(&bi->acpi_new, v2, 20);
	find(bi, ACPI_CPUS_MAX);
	check("tag 15 cut", ACPI_CPUS_FOUND, "0 1 2 3", 1,
	      "tag 15 (revision 2) has a bad length or extended checksum");
	assert_int_equal(res.rsdp_from, ACPI_RSDP_MB2_NEW);
	assert_false(res.xsdt);
	free(bi);
	mem_reset();
}

// ---- the MADT's entries ---------------------------------------------------------

#define MADT_CASE(name, rev, status, cpus, warnings, last, ...) \
	{ name, rev, (const uint8_t[]){ __VA_ARGS__ }, sizeof((const uint8_t[]){ __VA_ARGS__ }), \
	  status, cpus, warnings, last }

static const struct {
	const char *name;
	uint8_t rev;
	const uint8_t *entries;
	size_t n;
	enum acpi_status status;
	const char *cpus;
	int warnings;
	const char *last;	// part of the last warning
} madt_cases[] = {
	MADT_CASE("plain", 1, ACPI_CPUS_FOUND, "0 1 2", 0, NULL,
		  LAPIC(0, 0, 1), LAPIC(1, 1, 1), LAPIC(2, 2, 1)),
	MADT_CASE("length 0", 1, ACPI_CPUS_FOUND, "0 1", 1,
		  "the entry at offset 60 (type 2) has length 0; the rest of the table is ignored",
		  LAPIC(0, 0, 1), LAPIC(1, 1, 1), 2, 0, LAPIC(2, 2, 1)),
	MADT_CASE("length 1", 1, ACPI_CPUS_FOUND, "0", 1,
		  "the entry at offset 52 (type 4) has length 1; the rest",
		  LAPIC(0, 0, 1), 4, 1, LAPIC(2, 2, 1)),
	MADT_CASE("past the end", 1, ACPI_CPUS_FOUND, "0 1", 1,
		  "the entry at offset 60 (type 0) has length 9, past the table's end",
		  LAPIC(0, 0, 1), LAPIC(1, 1, 1), 0, 9, 2, 2, 1, 0, 0, 0),
	MADT_CASE("one byte left", 1, ACPI_CPUS_FOUND, "0 1", 1,
		  "the entry at offset 60 is cut by the table's end (length 61)",
		  LAPIC(0, 0, 1), LAPIC(1, 1, 1), 0),
	MADT_CASE("no entries", 1, ACPI_NO_CPUS, "", 0, NULL, ),
	MADT_CASE("short local APIC", 1, ACPI_CPUS_FOUND, "0 2", 1,
		  "offset 52 (type 0) has length 6, less than 8; skipped",
		  LAPIC(0, 0, 1), 0, 6, 1, 1, 1, 0, LAPIC(2, 2, 1)),
	MADT_CASE("short x2APIC", 1, ACPI_CPUS_FOUND, "0 2", 1,
		  "offset 52 (type 9) has length 12, less than 16; skipped",
		  LAPIC(0, 0, 1), 9, 12, 0, 0, LE32(300), LE32(1), LAPIC(2, 2, 1)),
	MADT_CASE("short override", 1, ACPI_CPUS_FOUND, "0", 1,
		  "offset 52 (type 5) has length 8, less than 12; skipped",
		  LAPIC(0, 0, 1), 5, 8, 0, 0, LE32(0xfee10000)),
	MADT_CASE("unknown types", 1, ACPI_CPUS_FOUND, "0 1 2 3", 0, NULL,
		  IOAPIC(0, 0xfec00000), LAPIC(0, 0, 1), 2, 10, 0, 0, LE32(2), 0, 0,
		  4, 6, 0xff, 0, 0, 1, LAPIC(1, 1, 1), 0x7f, 3, 0, 0x10, 2, 0xff, 5,
		  1, 2, 3, LAPIC(2, 2, 1), 200, 255,
		  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
		  23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42,
		  43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62,
		  63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82,
		  83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101,
		  102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117,
		  118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133,
		  134, 135, 136, 137, 138, 139, 140, 141, 142, 143, 144, 145, 146, 147, 148, 149,
		  150, 151, 152, 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 163, 164, 165,
		  166, 167, 168, 169, 170, 171, 172, 173, 174, 175, 176, 177, 178, 179, 180, 181,
		  182, 183, 184, 185, 186, 187, 188, 189, 190, 191, 192, 193, 194, 195, 196, 197,
		  198, 199, 200, 201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 211, 212, 213,
		  214, 215, 216, 217, 218, 219, 220, 221, 222, 223, 224, 225, 226, 227, 228, 229,
		  230, 231, 232, 233, 234, 235, 236, 237, 238, 239, 240, 241, 242, 243, 244, 245,
		  246, 247, 248, 249, 250, 251, 252, LAPIC(3, 3, 1)),
	MADT_CASE("duplicates", 1, ACPI_CPUS_FOUND, "0 1 2", 2,
		  "the entry at offset 84 repeats APIC ID 0; dropped",
		  LAPIC(0, 0, 1), LAPIC(1, 1, 1), X2APIC(1, 1, 7), LAPIC(2, 2, 1), LAPIC(3, 0, 1)),
	MADT_CASE("duplicate of a disabled one", 5, ACPI_CPUS_FOUND, "0 1-", 1,
		  "the entry at offset 60 repeats APIC ID 1; dropped",
		  LAPIC(0, 0, 1), LAPIC(1, 1, 2), LAPIC(2, 1, 1)),
	MADT_CASE("online-capable", 5, ACPI_CPUS_FOUND, "0 1- 3 5x-", 0, NULL,
		  LAPIC(0, 0, 1), LAPIC(1, 1, 2), LAPIC(2, 2, 0), LAPIC(3, 3, 3),
		  X2APIC(5, 2, 5), X2APIC(6, 0, 6)),
	MADT_CASE("online-capable before revision 5", 4, ACPI_CPUS_FOUND, "0 3", 0, NULL,
		  LAPIC(0, 0, 1), LAPIC(1, 1, 2), LAPIC(2, 2, 0), LAPIC(3, 3, 3),
		  X2APIC(5, 2, 5), X2APIC(6, 0, 6)),
	MADT_CASE("only online-capable", 5, ACPI_NO_CPUS, "1-", 0, NULL, LAPIC(1, 1, 2)),
	MADT_CASE("only disabled", 1, ACPI_NO_CPUS, "", 0, NULL, LAPIC(0, 0, 0), LAPIC(1, 1, 0)),
	MADT_CASE("x2APIC", 1, ACPI_CPUS_FOUND, "0 1 256x 74565x 4294967294x 2x", 1,
		  "the x2APIC entry at offset 108 has the invalid APIC ID 0xffffffff",
		  LAPIC(0, 0, 1), LAPIC(1, 1, 1), X2APIC(256, 1, 256), X2APIC(0x12345, 1, 9),
		  X2APIC(0xfffffffe, 1, 10), X2APIC(0xffffffff, 1, 11), X2APIC(0xffffffff, 0, 12),
		  X2APIC(2, 1, 2)),
	MADT_CASE("xAPIC ID 0xff", 1, ACPI_CPUS_FOUND, "0", 1,
		  "the local APIC entry at offset 52 has the invalid APIC ID 0xff",
		  LAPIC(0, 0, 1), LAPIC(1, 0xff, 1)),
	MADT_CASE("flags' other bits", 5, ACPI_CPUS_FOUND, "0 1 2-", 0, NULL,
		  LAPIC(0, 0, 0xfffffff1), LAPIC(1, 1, 0x80000001), LAPIC(2, 2, 0xfffffffe)),
};

static void test_madt(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(madt_cases) / sizeof(madt_cases[0]); c++) {
		mem_reset();
		put_all(madt_cases[c].rev, madt_cases[c].entries, madt_cases[c].n);
		find(NULL, ACPI_CPUS_MAX);
		check(madt_cases[c].name, madt_cases[c].status, madt_cases[c].cpus, madt_cases[c].warnings,
		      madt_cases[c].last);
		assert_int_equal(res.madt, MADT_AT);
		assert_int_equal(res.madt_revision, madt_cases[c].rev);
	}
	mem_reset();
}

// UIDs, the unusable count and the local APIC address override.
static void test_madt_fields(void **state)
{
	static const uint8_t e[] = { LAPIC(7, 0, 1), X2APIC(300, 1, 0x10000), LAPIC(9, 2, 0),
				     OVERRIDE(0xfee40000), X2APIC(301, 0, 3) };
	(void)state;

	mem_reset();
	put_all(1, e, sizeof(e));
	find(NULL, ACPI_CPUS_MAX);
	check("fields", ACPI_CPUS_FOUND, "0 300x", 0, NULL);
	assert_int_equal(cpus[0].uid, 7);
	assert_int_equal(cpus[1].uid, 0x10000);
	assert_int_equal(res.unusable, 2);
	assert_int_equal(res.duplicates, 0);
	assert_int_equal(res.lapic_addr, 0xfee40000);

	// Without the override: the MADT's own field.
	mem_reset();
	put_all(1, e, 16 + 8);
	find(NULL, ACPI_CPUS_MAX);
	check("no override", ACPI_CPUS_FOUND, "0 300x", 0, NULL);
	assert_int_equal(res.lapic_addr, 0xfee00000);
	mem_reset();
}

// ---- broken table headers ----------------------------------------------------

static void test_madt_header(void **state)
{
	static const uint8_t e[] = { LAPIC(0, 0, 1), LAPIC(1, 1, 1) };
	uint8_t *m;
	(void)state;

	// Truncated: the memory ends before the length says.
	mem_reset();
	put_all(1, e, sizeof(e));
	regions[1].len = 36 + 8 + sizeof(e) - 1;	// the MADT is the second region
	find(NULL, ACPI_CPUS_MAX);
	check("madt truncated", ACPI_NO_MADT, "", 1,
	      "APIC at 0x7fe10000 (length 60) cannot be read whole");

	// Length beyond the maximum (the checksum made right).
	mem_reset();
	put_all(1, e, sizeof(e));
	m = mem_at(MADT_AT);
	put32(m + 4, ACPI_TABLE_MAX + 1);
	fix_sum(m, 36 + 8 + sizeof(e), 9);
	find(NULL, ACPI_CPUS_MAX);
	check("madt too long", ACPI_NO_MADT, "", 1,
	      "has length 1048577, outside 44-1048576; ignored");

	// Shorter than its fixed fields.
	put32(m + 4, 40);
	fix_sum(m, 40, 9);
	find(NULL, ACPI_CPUS_MAX);
	check("madt too short", ACPI_NO_MADT, "", 1, "has length 40, outside 44-1048576; ignored");

	// Shorter than the memory holds: the entries after the length are not
	// read (the checksum is made over the shorter length).
	put32(m + 4, 36 + 8 + 8);
	fix_sum(m, 36 + 8 + 8, 9);
	find(NULL, ACPI_CPUS_MAX);
	check("madt shorter", ACPI_CPUS_FOUND, "0", 0, NULL);

	// A bad checksum.
	m[20] ^= 1;
	find(NULL, ACPI_CPUS_MAX);
	check("madt bad checksum", ACPI_NO_MADT, "", 1, "APIC at 0x7fe10000 has a bad checksum");

	// The RSDT's length beyond the maximum.
	mem_reset();
	put_all(1, e, sizeof(e));
	m = mem_at(RSDT_AT);
	put32(m + 4, 0xffffffff);
	fix_sum(m, 36 + 8, 9);
	find(NULL, ACPI_CPUS_MAX);
	check("rsdt too long", ACPI_NO_ROOT, "", 1,
	      "RSDT at 0x7fe01000 has length 4294967295, outside 36-1048576");
	mem_reset();
}

// ---- capacity -------------------------------------------------------------------

static void test_capacity(void **state)
{
	static uint8_t e[600 * 16];
	(void)state;

	for (uint32_t i = 0; i < 600; i++) {
		uint8_t x[] = { X2APIC(i * 2, 1, i) };
		mem_copy(e + 16 * i, x, 16);
	}
	mem_reset();
	put_all(1, e, sizeof(e));
	find(NULL, ACPI_CPUS_MAX);
	assert_int_equal(res.status, ACPI_CPUS_FOUND);
	assert_int_equal(res.ncpus, ACPI_CPUS_MAX);
	assert_int_equal(res.beyond, 600 - ACPI_CPUS_MAX);
	assert_int_equal(warns.count, 1);
	for (uint32_t i = 0; i < ACPI_CPUS_MAX; i++)
		if (cpus[i].apic_id != 2 * i || !cpus[i].x2apic || cpus[i].uid != i)
			fail_msg("CPU %u: want APIC ID %u, got %u", i, 2 * i, cpus[i].apic_id);

	// A small table: the first 4 kept; a duplicate among the rest is still
	// found against those kept.
	static const uint8_t few[] = { LAPIC(0, 0, 1), LAPIC(1, 1, 1), LAPIC(2, 2, 1),
				       LAPIC(3, 3, 1), LAPIC(4, 4, 1), LAPIC(5, 1, 1), LAPIC(6, 6, 1) };
	mem_reset();
	put_all(1, few, sizeof(few));
	find(NULL, 4);
	check("capacity 4", ACPI_CPUS_FOUND, "0 1 2 3", 2,
	      "lists 2 more CPUs than the 4 ramsift keeps");
	assert_int_equal(res.beyond, 2);
	assert_int_equal(res.duplicates, 1);
	// Nothing written beyond the capacity.
	assert_int_equal(cpus[4].apic_id, 0xa5a5a5a5);
	mem_reset();
}

// ---- for the log --------------------------------------------------------------

static void test_describe(void **state)
{
	char buf[200];
	(void)state;

	mem_reset();
	load_fixture(acpi_qemu_pc_smp4);
	find(NULL, ACPI_CPUS_MAX);
	assert_string_equal(acpi_describe_cpus(buf, sizeof(buf), cpus, &res),
			    "4 found in the MADT (APIC IDs 0 1 2 3)");

	static const uint8_t e[] = { LAPIC(0, 0, 1), LAPIC(1, 1, 2), LAPIC(2, 2, 1), LAPIC(3, 3, 1) };
	mem_reset();
	put_all(5, e, sizeof(e));
	find(NULL, 3);
	assert_string_equal(acpi_describe_cpus(buf, sizeof(buf), cpus, &res),
			    "2 found in the MADT (APIC IDs 0 2), 1 more disabled but online-capable, "
			    "1 more beyond the 3 kept");

	// Too many IDs for the line: cut, the count whole.
	static uint8_t many[255 * 8 + 45 * 16];
	for (uint32_t i = 0; i < 300; i++) {
		uint8_t x[] = { X2APIC(i, 1, i) };
		if (i < 255)
			mem_copy(many + 8 * i, (uint8_t[]){ LAPIC(i, i, 1) }, 8);
		else
			mem_copy(many + 8 * 255 + 16 * (i - 255), x, 16);
	}
	mem_reset();
	put_all(1, many, 8 * 255 + 16 * 45);
	find(NULL, ACPI_CPUS_MAX);
	assert_int_equal(res.ncpus, 300);
	acpi_describe_cpus(buf, sizeof(buf), cpus, &res);
	assert_true(str_starts_with(buf, "300 found in the MADT (APIC IDs 0 1 2 3 "));
	assert_true(str_len(buf) < sizeof(buf));
	assert_string_equal(buf + str_len(buf) - 5, " ...)");

	// Tiny buffers: terminated, never overrun (ASan).
	for (size_t n = 1; n < 12; n++) {
		acpi_describe_cpus(buf, n, cpus, &res);
		assert_true(str_len(buf) < n);
	}
	assert_string_equal(acpi_status_text(ACPI_NO_RSDP),
			    "no MADT found (no ACPI RSDP in the loader's tags or the BIOS areas)");
	mem_reset();
}

// ---- power off and reset: the FADT and the DSDT's \_S5 ----------------------

static struct acpi_power pw;

static void find_power(void)
{
	find(NULL, ACPI_CPUS_MAX);
	warnings_reset();
	acpi_find_power(read_sim, warning_keep, NULL, &res, &pw);
	if ((int)pw.warnings != warns.count)
		fail_msg("power: %d warnings, the result says %zu", warns.count, pw.warnings);
}

static void test_power_fixtures(void **state)
{
	char buf[300];
	(void)state;

	mem_reset();
	load_fixture(acpi_qemu_pc_smp4);
	find_power();
	assert_int_equal(warns.count, 0);
	assert_int_equal(res.fadt, 0xbffe1a8b);
	assert_int_equal(pw.fadt_revision, 1);
	assert_int_equal(pw.i8042, ACPI_8042_UNKNOWN);	// revision 1 cannot say
	assert_int_equal(pw.dsdt, 0xbffe0040);
	assert_true(pw.s5);
	assert_int_equal(pw.pm1a_cnt.space, ACPI_SPACE_IO);
	assert_int_equal(pw.pm1a_cnt.address, 0x604);
	assert_int_equal(pw.pm1b_cnt.address, 0);
	assert_int_equal(pw.slp_typ_a, 0);
	assert_int_equal(pw.slp_typ_b, 0);
	assert_int_equal(pw.smi_cmd, 0xb2);
	assert_int_equal(pw.acpi_enable, 0xf1);
	assert_false(pw.reset);
	assert_string_equal(acpi_describe_power(buf, sizeof(buf), &pw),
			    "ACPI S5 through PM1a control at I/O port 0x604 (SLP_TYP 0); no ACPI reset "
			    "register (the FADT is too short (ACPI 1.0) to have one)");

	mem_reset();
	load_fixture(acpi_qemu_q35_smp4);
	find_power();
	assert_int_equal(warns.count, 0);
	assert_int_equal(pw.fadt_revision, 3);
	assert_int_equal(pw.i8042, ACPI_8042_MAYBE);	// QEMU's q35 has one by default
	assert_int_equal(pw.dsdt, 0x7ffe0040);
	assert_true(pw.s5);
	assert_int_equal(pw.smi_cmd, 0xb2);
	assert_int_equal(pw.acpi_enable, 0x02);
	assert_true(pw.reset);
	assert_int_equal(pw.reset_reg.space, ACPI_SPACE_IO);
	assert_int_equal(pw.reset_reg.address, 0xcf9);
	assert_int_equal(pw.reset_value, 0xf);
	assert_string_equal(acpi_describe_power(buf, sizeof(buf), &pw),
			    "ACPI S5 through PM1a control at I/O port 0x604 (SLP_TYP 0); ACPI reset "
			    "register at I/O port 0xcf9 (value 0xf)");

	// No ACPI at all: no warning, both missing.
	mem_reset();
	find_power();
	assert_int_equal(warns.count, 0);
	assert_false(pw.s5 || pw.reset);
	assert_int_equal(pw.i8042, ACPI_8042_UNKNOWN);
	assert_string_equal(acpi_describe_power(buf, sizeof(buf), &pw),
			    "no ACPI S5 (no FADT); no ACPI reset register (no FADT)");
	mem_reset();
}

#define DSDT_AT 0x7fe40000u
#define XDSDT_AT 0x7fe50000u

// A revision 3 FADT (244 bytes) at FACP_AT: PM1a control at I/O port
// 0x404 in the 32-bit field, DSDT at DSDT_AT, the reset register at I/O
// port 0xcf9 (value 6, RESET_REG_SUP set); the RSDT lists it and a MADT.
static uint8_t *put_fadt3(void)
{
	static const uint8_t e[] = { LAPIC(0, 0, 1) };
	uint8_t body[244 - 36] = { 0 };
	uint64_t tables[2] = { FACP_AT, MADT_AT };

	put32(body + 40 - 36, DSDT_AT);
	put32(body + 48 - 36, 0xb2);
	body[52 - 36] = 0xa0;
	put32(body + 64 - 36, 0x404);
	body[89 - 36] = 2;
	put32(body + 112 - 36, 1u << 10);
	mem_copy(body + 116 - 36, (uint8_t[]){ 1, 8, 0, 1 }, 4);
	put64(body + 120 - 36, 0xcf9);
	body[128 - 36] = 6;
	put_madt(MADT_AT, 1, e, sizeof(e));
	put_root(RSDT_AT, 4, tables, 2);
	put_rsdp(RSDP_AT, 0, RSDT_AT, 0);
	return put_table(FACP_AT, "FACP", 3, body, sizeof(body));
}

static uint8_t *fadt(void) { return mem_at(FACP_AT); }
static void fadt_fixed(void) { fix_sum(fadt(), 244, 9); }

// A DSDT at addr holding aml (n bytes) after some other AML.
static uint8_t *put_dsdt(uint64_t addr, const void *aml, size_t n)
{
	uint8_t body[4096];
	static const uint8_t before[] = { 0x10, 0x05, '\\', '_', 'S', 'B', '_' };	// Scope (\_SB)
	assert_true(sizeof(before) + n <= sizeof(body));
	mem_copy(body, before, sizeof(before));
	mem_copy(body + sizeof(before), aml, n);
	return put_table(addr, "DSDT", 2, body, sizeof(before) + n);
}

#define AML(...) (const uint8_t[]){ __VA_ARGS__ }, sizeof((const uint8_t[]){ __VA_ARGS__ })

static const struct {
	const char *name;
	const uint8_t *aml;
	size_t n;
	bool s5;
	uint8_t a, b;
	int warnings;
	const char *last;	// part of the last warning, or of s5_why when no S5
} s5_cases[] = {
	{ "qemu's", AML(0x08, '_', 'S', '5', '_', 0x12, 0x06, 0x04, 0, 0, 0, 0), true, 0, 0, 0, NULL },
	{ "root prefix", AML(0x08, '\\', '_', 'S', '5', '_', 0x12, 0x05, 0x02, 1, 0x0a, 7),
	  true, 1, 7, 0, NULL },
	{ "byte, word, dword, qword", AML(0x08, '_', 'S', '5', '_', 0x12, 0x0a, 0x02, 0x0b, 5, 0,
					  0x0c, 6, 0, 0, 0), true, 5, 6, 0, NULL },
	{ "qword", AML(0x08, '_', 'S', '5', '_', 0x12, 0x0c, 0x02, 0x0e, 3, 0, 0, 0, 0, 0, 0, 0, 0x00),
	  true, 3, 0, 0, NULL },
	{ "one element for both", AML(0x08, '_', 'S', '5', '_', 0x12, 0x04, 0x01, 0x0a, 5),
	  true, 5, 5, 0, NULL },
	{ "two-byte PkgLength", AML(0x08, '_', 'S', '5', '_', 0x12, 0x4b, 0x04, 0x02, 0x0a, 4, 0x0a, 4,
				    [13 ... 80] = 0xa3), true, 4, 4, 0, NULL },
	{ "a reference first", AML(0x70, '_', 'S', '5', '_', 0x60, 0x08, '_', 'S', '5', '_', 0x12, 0x04,
				   0x02, 0x01, 0x01), true, 1, 1, 0, NULL },
	{ "no _S5", AML(0x08, '_', 'S', '4', '_', 0x12, 0x04, 0x02, 0, 0), false, 0, 0, 0,
	  "the DSDT has no \\_S5 package ramsift can read" },
	{ "not a package", AML(0x08, '_', 'S', '5', '_', 0x0a, 0x05), false, 0, 0, 1,
	  "the \\_S5 object at offset 44 is no package" },
	{ "a name element", AML(0x08, '_', 'S', '5', '_', 0x12, 0x0b, 0x02, 'S', 'L', 'P', 'A', 'S',
				'L', 'P', 'B', 0, 0), false, 0, 0, 1,
	  "does not start with two integer constants" },
	{ "one integer of two", AML(0x08, '_', 'S', '5', '_', 0x12, 0x07, 0x02, 0x00, 'S', 'L', 'P',
				    'B'), false, 0, 0, 1, "does not start with two integer constants" },
	{ "no elements", AML(0x08, '_', 'S', '5', '_', 0x12, 0x02, 0x00), false, 0, 0, 1,
	  "does not start with two integer constants" },
	{ "SLP_TYP 8", AML(0x08, '_', 'S', '5', '_', 0x12, 0x06, 0x02, 0x0a, 8, 0x0a, 0), false, 0, 0, 1,
	  "gives SLP_TYP 0x8 and 0x0, more than 3 bits" },
	{ "Ones", AML(0x08, '_', 'S', '5', '_', 0x12, 0x04, 0x02, 0xff, 0), false, 0, 0, 1,
	  "more than 3 bits" },
	{ "past the end", AML(0x08, '_', 'S', '5', '_', 0x12, 0x3f, 0x02, 0, 0), false, 0, 0, 1,
	  "has length 63, past the table's end" },
	{ "cut after the name", AML(0x08, '_', 'S', '5', '_'), false, 0, 0, 1, "is no package" },
	{ "cut in the name", AML(0x08, '_', 'S', '5'), false, 0, 0, 0, "no \\_S5 package" },
	{ "the package cuts the integer", AML(0x08, '_', 'S', '5', '_', 0x12, 0x05, 0x02, 0x00, 0x0c, 1,
					       0, 0, 0), false, 0, 0, 1,
	  "does not start with two integer constants" },
	{ "the table cuts the integer", AML(0x08, '_', 'S', '5', '_', 0x12, 0x08, 0x02, 0x00, 0x0c, 1),
	  false, 0, 0, 1, "has length 8, past the table's end" },
};

static void test_power_s5(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(s5_cases) / sizeof(s5_cases[0]); c++) {
		mem_reset();
		put_fadt3();
		put_dsdt(DSDT_AT, s5_cases[c].aml, s5_cases[c].n);
		find_power();
		const char *text = s5_cases[c].s5 ? NULL : s5_cases[c].warnings ? warns.last : pw.s5_why;
		if (pw.s5 != s5_cases[c].s5 || warns.count != s5_cases[c].warnings ||
		    (pw.s5 && (pw.slp_typ_a != s5_cases[c].a || pw.slp_typ_b != s5_cases[c].b)) ||
		    (text && !has(text, s5_cases[c].last)))
			fail_msg("case %s: want s5 %d (%u, %u), %d warnings, \"%s\"; got s5 %d (%u, %u), "
				 "%d warnings, the last: %s; why: %s", s5_cases[c].name, s5_cases[c].s5,
				 s5_cases[c].a, s5_cases[c].b, s5_cases[c].warnings,
				 s5_cases[c].last ? s5_cases[c].last : "", pw.s5, pw.slp_typ_a,
				 pw.slp_typ_b, warns.count, warns.last, pw.s5_why);
		assert_true(pw.reset);
	}
	mem_reset();
}

// The DSDT read in chunks: \_S5 anywhere, across a chunk's edge too.
static void test_power_s5_everywhere(void **state)
{
	static const uint8_t s5[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x06, 0x02, 0x0a, 3, 0x0a, 2 };
	uint8_t aml[1600];
	(void)state;

	for (size_t at = 0; at + sizeof(s5) <= sizeof(aml); at += 7) {
		mem_set(aml, 0xa3, sizeof(aml));	// LocalOp bytes: no name, no package
		mem_copy(aml + at, s5, sizeof(s5));
		mem_reset();
		put_fadt3();
		put_dsdt(DSDT_AT, aml, sizeof(aml));
		find_power();
		if (!pw.s5 || pw.slp_typ_a != 3 || pw.slp_typ_b != 2 || warns.count)
			fail_msg("\\_S5 at AML offset %zu: s5 %d, %d warnings", at, pw.s5, warns.count);
	}
	mem_reset();
}

static void test_power_fadt(void **state)
{
	char buf[300];
	(void)state;
	static const uint8_t s5_3[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x04, 0x01, 0x0a, 3 };
	static const uint8_t s5_5[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x06, 0x02, 0x0a, 5, 0x0a, 5 };

	// X_DSDT and X_PM1a/b win over the 32-bit fields.
	mem_reset();
	put_fadt3();
	put_dsdt(DSDT_AT, s5_3, sizeof(s5_3));
	put_dsdt(XDSDT_AT, s5_5, sizeof(s5_5));
	put64(fadt() + 140, XDSDT_AT);
	mem_copy(fadt() + 172, (uint8_t[]){ 0, 16, 0, 2 }, 4);
	put64(fadt() + 176, 0xfed80404);
	mem_copy(fadt() + 184, (uint8_t[]){ 1, 16, 0, 2 }, 4);
	put64(fadt() + 188, 0x4404);
	fadt_fixed();
	find_power();
	assert_int_equal(warns.count, 0);
	assert_int_equal(pw.dsdt, XDSDT_AT);
	assert_int_equal(pw.slp_typ_a, 5);
	assert_int_equal(pw.pm1a_cnt.space, ACPI_SPACE_MEMORY);
	assert_int_equal(pw.pm1a_cnt.address, 0xfed80404);
	assert_int_equal(pw.pm1b_cnt.space, ACPI_SPACE_IO);
	assert_string_equal(acpi_describe_power(buf, sizeof(buf), &pw),
			    "ACPI S5 through PM1a control at memory 0xfed80404 (SLP_TYP 5) and PM1b "
			    "control at I/O port 0x4404 (SLP_TYP 5); ACPI reset register at I/O port "
			    "0xcf9 (value 0x6)");

	// A DSDT with a bad checksum: warned about, no S5.
	mem_reset();
	put_fadt3();
	put_dsdt(DSDT_AT, s5_3, sizeof(s5_3))[9] ^= 1;
	find_power();
	assert_false(pw.s5);
	assert_int_equal(warns.count, 1);
	assert_true(has(warns.last, "DSDT at 0x7fe40000 has a bad checksum"));
	assert_string_equal(pw.s5_why, "the DSDT is unusable");

	// The DSDT where nothing can be read.
	mem_reset();
	put_fadt3();
	find_power();
	assert_false(pw.s5);
	assert_int_equal(warns.count, 1);
	assert_true(has(warns.last, "the FADT's pointer 0x7fe40000 (DSDT) cannot be read"));

	// Hardware-reduced, PM1a absent, PM1a in PCI space.
	static const struct {
		size_t off;
		uint8_t v;
		const char *why;
	} cut[] = {
		{ 112 + 2, 0x10, "hardware-reduced ACPI" },	// flags bit 20
		{ 64, 0x00, "the FADT gives no PM1a control block" },
		{ 40, 0x00, "the FADT gives no DSDT" },
	};
	for (size_t i = 0; i < sizeof(cut) / sizeof(cut[0]); i++) {
		mem_reset();
		put_fadt3();
		put_dsdt(DSDT_AT, s5_3, sizeof(s5_3));
		if (cut[i].off == 40 || cut[i].off == 64)
			put32(fadt() + cut[i].off, 0);
		else
			fadt()[cut[i].off] = cut[i].v;
		fadt_fixed();
		find_power();
		if (pw.s5 || !has(pw.s5_why, cut[i].why) || warns.count)
			fail_msg("case %s: s5 %d, why %s, %d warnings", cut[i].why, pw.s5, pw.s5_why,
				 warns.count);
	}
	mem_reset();
	put_fadt3();
	put_dsdt(DSDT_AT, s5_3, sizeof(s5_3));
	mem_copy(fadt() + 172, (uint8_t[]){ 2, 16, 0, 2 }, 4);
	put64(fadt() + 176, 0x1f00000404ull);
	fadt_fixed();
	find_power();
	assert_false(pw.s5);
	assert_string_equal(pw.s5_why, "a PM1 control block is neither in I/O nor in memory space");

	// The reset register: PCI, memory, cleared flag, null, another space.
	mem_reset();
	put_fadt3();
	put_dsdt(DSDT_AT, s5_3, sizeof(s5_3));
	fadt()[116] = ACPI_SPACE_PCI;
	put64(fadt() + 120, 0x1f000000acull);
	fadt_fixed();
	find_power();
	assert_true(pw.reset);
	assert_string_equal(acpi_describe_power(buf, sizeof(buf), &pw),
			    "ACPI S5 through PM1a control at I/O port 0x404 (SLP_TYP 3); ACPI reset "
			    "register at PCI 00:1f.0 offset 0xac (value 0x6)");
	fadt()[116] = ACPI_SPACE_MEMORY;
	fadt_fixed();
	find_power();
	assert_true(pw.reset);
	assert_int_equal(pw.reset_reg.space, ACPI_SPACE_MEMORY);
	fadt()[116] = 3;	// embedded controller
	fadt_fixed();
	find_power();
	assert_false(pw.reset);
	assert_true(has(pw.reset_why, "an address space ramsift cannot write"));
	fadt()[116] = ACPI_SPACE_IO;
	put64(fadt() + 120, 0);
	fadt_fixed();
	find_power();
	assert_false(pw.reset);
	assert_string_equal(pw.reset_why, "the FADT's RESET_REG is null");
	put64(fadt() + 120, 0xcf9);
	put32(fadt() + 112, 0);
	fadt_fixed();
	find_power();
	assert_false(pw.reset);
	assert_string_equal(pw.reset_why, "the FADT's RESET_REG_SUP flag is clear");
	assert_int_equal(warns.count, 0);

	// A broken FADT is no FADT: the MADT's search warns about it.
	fadt()[9] ^= 1;
	find(NULL, ACPI_CPUS_MAX);
	assert_int_equal(res.status, ACPI_CPUS_FOUND);
	assert_int_equal(res.fadt, 0);
	assert_true(has(warns.last, "FACP at 0x7fe03000 has a bad checksum"));
	acpi_find_power(read_sim, warning_keep, NULL, &res, &pw);
	assert_false(pw.s5 || pw.reset);
	assert_string_equal(pw.s5_why, "no FADT");

	// Shorter than ACPI 1.0's: ignored with a warning.
	mem_reset();
	put_fadt3();
	put32(fadt() + 4, 100);
	fix_sum(fadt(), 100, 9);
	find(NULL, ACPI_CPUS_MAX);
	assert_int_equal(res.fadt, 0);
	assert_true(has(warns.last, "FACP at 0x7fe03000 has length 100, outside 116-"));
	mem_reset();
}

// IAPC_BOOT_ARCH's 8042 flag (offset 109, bit 1), read from revision 2 on.
static const struct {
	uint8_t revision, low, high;
	enum acpi_i8042 want;
} i8042_cases[] = {
	{ 3, 0x02, 0x00, ACPI_8042_MAYBE },
	{ 3, 0x03, 0x80, ACPI_8042_MAYBE },	// legacy devices and others too
	{ 3, 0x00, 0x00, ACPI_8042_ABSENT },
	{ 3, 0xfd, 0xff, ACPI_8042_ABSENT },	// every flag but the 8042's
	{ 3, 0x00, 0x02, ACPI_8042_ABSENT },	// bit 9 is not bit 1
	{ 2, 0x02, 0x00, ACPI_8042_MAYBE },
	{ 2, 0x00, 0x00, ACPI_8042_ABSENT },
	{ 1, 0x00, 0x00, ACPI_8042_UNKNOWN },	// reserved in ACPI 1.0
	{ 1, 0x02, 0x00, ACPI_8042_UNKNOWN },
};

static void test_power_i8042(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(i8042_cases) / sizeof(i8042_cases[0]); c++) {
		mem_reset();
		put_fadt3();
		fadt()[8] = i8042_cases[c].revision;
		fadt()[109] = i8042_cases[c].low;
		fadt()[110] = i8042_cases[c].high;
		fadt_fixed();
		find_power();
		if (pw.i8042 != i8042_cases[c].want)
			fail_msg("case %zu: revision %u, IAPC_BOOT_ARCH 0x%02x%02x: i8042 %d, want %d", c,
				 i8042_cases[c].revision, i8042_cases[c].high, i8042_cases[c].low,
				 pw.i8042, i8042_cases[c].want);
	}
	mem_reset();
}

// Random bytes around well-formed tables: never a read outside the regions
// (the reader refuses them), never a CPU list beyond the capacity.
static void test_random(void **state)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	static const uint8_t e[] = { LAPIC(0, 0, 1), X2APIC(300, 1, 1), OVERRIDE(0xfee00000) };
	(void)state;

	for (int round = 0; round < 2000; round++) {
		mem_reset();
		put_all(5, e, sizeof(e));
		// Flip a few bytes in one of the tables, then fix its checksum
		// half of the time.
		struct region *r = &regions[x % nregions];
		for (int k = 0; k < 4; k++) {
			x ^= x << 13; x ^= x >> 7; x ^= x << 17;
			r->bytes[(x >> 8) % r->len] = (uint8_t)(x >> 32);
		}
		uint32_t len = r->bytes[4] | r->bytes[5] << 8 | r->bytes[6] << 16 |
			       (uint32_t)r->bytes[7] << 24;
		if (x & 1) {
			if (r->len == 20)
				fix_sum(r->bytes, 20, 8);
			else if (len <= r->len)
				fix_sum(r->bytes, len, 9);
		}
		find(NULL, 1 + x % 3);
		assert_true(res.ncpus <= 3);
		assert_true(res.nenabled <= res.ncpus);
		assert_int_equal(res.warnings, warns.count);
	}
	mem_reset();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qemu_fixtures),
		cmocka_unit_test(test_ebda),
		cmocka_unit_test(test_roots),
		cmocka_unit_test(test_loader_copies),
		cmocka_unit_test(test_madt),
		cmocka_unit_test(test_madt_fields),
		cmocka_unit_test(test_madt_header),
		cmocka_unit_test(test_capacity),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_power_fixtures),
		cmocka_unit_test(test_power_s5),
		cmocka_unit_test(test_power_s5_everywhere),
		cmocka_unit_test(test_power_fadt),
		cmocka_unit_test(test_power_i8042),
		cmocka_unit_test(test_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
