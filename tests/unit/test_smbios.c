// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/boot/smbios.c: QEMU's own tables (tests/unit/fixtures,
// dumped by `tests/linux/fixtures.sh smbios` with the identity that
// tests/e2e/identity.sh sets) found by the BIOS scan, through the loader's
// tag and through an EFI system table; then hand-made tables, good and
// broken, and the log's text with hostile strings.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "boot/smbios.h"
#include "memstr.h"
#include "fixtures/acpi_fixture.h"
#include "fixtures/smbios_qemu_pc.h"
#include "fixtures/smbios_qemu_q35_v3.h"

#include "simphys.h"

#define WARNING_LEN SMBIOS_WARNING_LEN
#include "warnings.h"

static const struct acpi_fixture *fixture(const struct acpi_fixture *f, const char *sig)
{
	for (; f->sig; f++)
		if (str_eq(f->sig, sig))
			return f;
	fail_msg("the fixture has no %s", sig);
	return NULL;
}

static void load(const struct acpi_fixture *f)
{
	for (; f->sig; f++)
		mem_add(f->phys, f->bytes, f->len);
}

static struct smbios_info *info;

static enum smbios_status find(const struct bootinfo *bi)
{
	warnings_reset();
	enum smbios_status st = smbios_find(bi, read_sim, warning_keep, NULL, info);
	if ((int)info->warnings != warns.count)
		fail_msg("%d warnings, the result says %zu", warns.count, info->warnings);
	return st;
}

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)v); put16(p + 2, (uint16_t)(v >> 16)); }
static void put64(uint8_t *p, uint64_t v) { put32(p, (uint32_t)v); put32(p + 4, (uint32_t)(v >> 32)); }

static void fix_sum(uint8_t *p, size_t n, size_t at)
{
	uint8_t s = 0;
	p[at] = 0;
	for (size_t i = 0; i < n; i++)
		s += p[i];
	p[at] = (uint8_t)-s;
}

// ---- QEMU's tables ----------------------------------------------------------

// What both fixtures hold: tests/linux/fixtures.sh's -smbios values.
static void check_qemu_identity(const char *name)
{
	char line[512], uuid[SMBIOS_UUID_LEN];

	if (info->status != SMBIOS_FOUND || warns.count != 0 || info->structures != 10 || !info->system ||
	    info->ndimms != 1)
		fail_msg("%s: status %d, %d warnings, %zu structures, system %d, %zu DIMMs", name,
			 info->status, warns.count, info->structures, info->system, info->ndimms);
	assert_string_equal(info->manufacturer, "Fleet Lab");
	assert_string_equal(info->product, "Rack 7 Node");
	assert_string_equal(info->version, "v2");
	assert_string_equal(info->serial, "SN-0042");
	assert_true(info->uuid_known);
	assert_string_equal(smbios_uuid_text(uuid, info->uuid), "6f1a7c2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b");
	const struct smbios_dimm *d = &info->dimm[0];
	assert_string_equal(d->locator, "SLOT 0");
	assert_string_equal(d->bank, "Bank A");
	assert_string_equal(d->manufacturer, "ACME");
	assert_string_equal(d->serial, "D-1");
	assert_string_equal(d->part_number, "PN-64");
	assert_true(d->installed && d->size_known);
	assert_int_equal(d->size_mib, 4096);
	assert_int_equal(d->speed_mts, 3200);
	smbios_describe_dimm(line, sizeof(line), d);
	assert_string_equal(line, "locator=\"SLOT 0\" bank=\"Bank A\" installed=yes size_mib=4096 "
			    "speed_mts=3200 manufacturer=\"ACME\" serial=\"D-1\" part_number=\"PN-64\"");
}

static void test_qemu_scan(void **state)
{
	char line[512];
	(void)state;

	mem_reset();
	load(smbios_qemu_pc);
	find(NULL);
	check_qemu_identity("pc");
	assert_int_equal(info->from, SMBIOS_FROM_SCAN);
	assert_int_equal(info->entry, 0xf59d0);
	assert_false(info->v3);
	assert_int_equal(info->major, 2);
	assert_int_equal(info->minor, 8);
	assert_int_equal(info->table, 0xf59f0);
	smbios_describe_system(line, sizeof(line), info);
	assert_string_equal(line, "manufacturer=\"Fleet Lab\" product=\"Rack 7 Node\" version=\"v2\" "
			    "serial=\"SN-0042\" uuid=6f1a7c2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b smbios=2.8 entry=scan");

	mem_reset();
	load(smbios_qemu_q35_v3);
	find(NULL);
	check_qemu_identity("q35");
	assert_true(info->v3);
	assert_int_equal(info->major, 3);
	assert_int_equal(info->minor, 0);
	smbios_describe_system(line, sizeof(line), info);
	assert_true(has(line, " smbios=3.0 entry=scan"));

	// Both entry points in the F segment: the 3.0 one wins, wherever it is.
	mem_reset();
	load(smbios_qemu_pc);
	const struct acpi_fixture *e3 = fixture(smbios_qemu_q35_v3, "_SM3");
	uint8_t *e = mem_add(0xffe00, e3->bytes, e3->len);
	find(NULL);
	assert_true(info->v3);
	assert_int_equal(info->entry, 0xffe00);
	// ... unless it is broken (warned about).
	e[6] ^= 1;
	find(NULL);
	assert_false(info->v3);
	assert_int_equal(warns.count, 1);
	assert_true(has(warns.last, "the 3.0 entry point at 0xffe00 has a bad length"));
	mem_reset();
}

static void test_qemu_tag(void **state)
{
	struct bootinfo *bi = calloc(1, sizeof(*bi));
	(void)state;

	for (int v3 = 0; v3 < 2; v3++) {
		const struct acpi_fixture *f = v3 ? smbios_qemu_q35_v3 : smbios_qemu_pc;
		const struct acpi_fixture *ep = fixture(f, v3 ? "_SM3" : "_SM_"), *t = fixture(f, "SMBT");
		mem_reset();
		mem_add(t->phys, t->bytes, t->len);	// the table only: no scan finds an entry
		mem_copy(bi->smbios.bytes, ep->bytes, ep->len);
		bi->smbios.len = (uint8_t)ep->len;
		find(bi);
		check_qemu_identity(v3 ? "q35 tag" : "pc tag");
		assert_int_equal(info->from, SMBIOS_FROM_TAG);
		assert_int_equal(info->entry, 0);
		assert_string_equal(smbios_from_name(info->from), "tag");
	}

	// A broken copy: warned about, then the scan.
	mem_reset();
	load(smbios_qemu_pc);
	bi->smbios.bytes[0] = 'X';
	find(bi);
	assert_int_equal(info->from, SMBIOS_FROM_SCAN);
	assert_int_equal(warns.count, 1);
	assert_true(has(warns.last, "tag 13 holds no valid entry point"));
	free(bi);
	mem_reset();
}

// An EFI system table at 0x7f000000 (64-bit or 32-bit) whose configuration
// table lists some other table, then the given SMBIOS entries.
#define SYSTAB_AT 0x7f000000u
#define CONFIG_AT 0x7f001000u
static const uint8_t guid_smbios[16] = { 0x31, 0x2d, 0x9d, 0xeb, 0x88, 0x2d, 0xd3, 0x11,
					 0x9a, 0x16, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d };
static const uint8_t guid_smbios3[16] = { 0x44, 0x15, 0xfd, 0xf2, 0x94, 0x97, 0x2c, 0x4a,
					  0x99, 0x2e, 0xe5, 0xbb, 0xcf, 0x20, 0xe3, 0x94 };
static const uint8_t guid_acpi20[16] = { 0x71, 0xe8, 0x68, 0x88, 0xf1, 0xe4, 0xd3, 0x11,
					 0xbc, 0x22, 0x00, 0x80, 0xc7, 0x3c, 0x88, 0x81 };

static void put_systab(bool efi64, uint64_t smbios2, uint64_t smbios3)
{
	uint8_t *h = mem_add(SYSTAB_AT, NULL, 120);
	uint8_t *c = mem_add(CONFIG_AT, NULL, 3 * 24);
	size_t esize = efi64 ? 24 : 20, n = 0;

	mem_copy(h, "IBI SYST", 8);
	const uint8_t *guids[3] = { guid_acpi20, guid_smbios, guid_smbios3 };
	uint64_t ptrs[3] = { 0xe0000, smbios2, smbios3 };
	for (int i = 0; i < 3; i++) {
		if (!ptrs[i])
			continue;
		mem_copy(c + n * esize, guids[i], 16);
		if (efi64)
			put64(c + n * esize + 16, ptrs[i]);
		else
			put32(c + n * esize + 16, (uint32_t)ptrs[i]);
		n++;
	}
	if (efi64) {
		put64(h + 104, n);
		put64(h + 112, CONFIG_AT);
	} else {
		put32(h + 64, (uint32_t)n);
		put32(h + 68, CONFIG_AT);
	}
}

static void test_efi(void **state)
{
	struct bootinfo *bi = calloc(1, sizeof(*bi));
	const struct acpi_fixture *e2 = fixture(smbios_qemu_pc, "_SM_"), *e3 = fixture(smbios_qemu_q35_v3, "_SM3");
	const struct acpi_fixture *t = fixture(smbios_qemu_pc, "SMBT");
	(void)state;

	for (int efi64 = 0; efi64 < 2; efi64++) {
		// Both GUIDs: SMBIOS 3 wins; the entry points away from the F segment.
		mem_reset();
		mem_add(t->phys, t->bytes, t->len);
		mem_add(0x7f100000, e2->bytes, e2->len);
		mem_add(0x7f100100, e3->bytes, e3->len);
		put_systab(efi64, 0x7f100000, 0x7f100100);
		bi->efi = true;
		bi->efi64 = efi64;
		bi->efi_systab = SYSTAB_AT;
		find(bi);
		check_qemu_identity("efi");
		assert_int_equal(info->from, SMBIOS_FROM_EFI);
		assert_string_equal(smbios_from_name(info->from), "efi");
		assert_int_equal(info->entry, 0x7f100100);
		assert_true(info->v3);

		// SMBIOS 2 only.
		mem_reset();
		mem_add(t->phys, t->bytes, t->len);
		mem_add(0x7f100000, e2->bytes, e2->len);
		put_systab(efi64, 0x7f100000, 0);
		find(bi);
		check_qemu_identity("efi, 2.x");
		assert_int_equal(info->entry, 0x7f100000);
	}

	// A system table without its signature, or listing too many tables:
	// warned about, then the scan.
	mem_reset();
	load(smbios_qemu_pc);
	put_systab(true, 0x7f100000, 0);
	regions[nregions - 2].bytes[0] = 'X';
	find(bi);
	assert_int_equal(info->from, SMBIOS_FROM_SCAN);
	assert_true(has(warns.last, "the EFI system table at 0x7f000000 cannot be read or has no "
				      "signature"));
	mem_reset();
	load(smbios_qemu_pc);
	put_systab(true, 0x7f100000, 0);
	put64(regions[nregions - 2].bytes + 104, 100000);
	find(bi);
	assert_int_equal(info->from, SMBIOS_FROM_SCAN);
	assert_true(has(warns.last, "lists 100000 configuration tables"));
	free(bi);
	mem_reset();
}

// ---- hand-made tables ---------------------------------------------------------

#define TABLE_AT 0x9000u
#define ENTRY_AT 0xf0000u

static uint8_t table[8192];
static size_t table_len;
static uint16_t table_count;

// Append a structure: type, formatted area (n bytes after the header), and
// the strings, "\0"-separated in one literal (NULL: none).
static void add(uint8_t type, const uint8_t *f, size_t n, const char *strings, size_t slen)
{
	uint8_t *s = table + table_len;
	s[0] = type;
	s[1] = (uint8_t)(4 + n);
	put16(s + 2, table_count++);
	mem_copy(s + 4, f, n);
	table_len += 4 + n;
	if (strings && slen) {
		mem_copy(table + table_len, strings, slen);
		table_len += slen;
		table[table_len++] = 0;
	} else {
		table[table_len++] = 0;
		table[table_len++] = 0;
	}
}

#define STR(s) s, sizeof(s)	// the literal's bytes and its NUL
#define F(...) (const uint8_t[]){ __VA_ARGS__ }, sizeof((const uint8_t[]){ __VA_ARGS__ })

static void start(void)
{
	mem_set(table, 0, sizeof(table));
	table_len = 0;
	table_count = 0;
}

// A 2.x entry point (version major.minor) at ENTRY_AT for the table at
// TABLE_AT, and the table itself, in memory.
static void place(uint8_t major, uint8_t minor)
{
	uint8_t e[31] = { 0 };
	mem_copy(e, "_SM_", 4);
	e[5] = 31;
	e[6] = major;
	e[7] = minor;
	mem_copy(e + 16, "_DMI_", 5);
	put16(e + 22, (uint16_t)table_len);
	put32(e + 24, TABLE_AT);
	put16(e + 28, table_count);
	fix_sum(e + 16, 15, 5);
	fix_sum(e, 31, 4);
	mem_reset();
	mem_add(ENTRY_AT, e, sizeof(e));
	mem_add(TABLE_AT, table, table_len);
}

// A type 17 formatted area (after the header) of length len (>= 0x15):
// size word, speed word, the five strings 1-5 in order.
static void dimm(size_t len, uint16_t size, uint16_t speed, uint32_t ext_size, uint32_t ext_speed,
		 const char *strings, size_t slen)
{
	uint8_t f[0x5c - 4] = { 0 };
	put16(f + 0x0c - 4, size);
	f[0x10 - 4] = 1;
	f[0x11 - 4] = 2;
	put16(f + 0x15 - 4, speed);
	f[0x17 - 4] = 3;
	f[0x18 - 4] = 4;
	f[0x1a - 4] = 5;
	put32(f + 0x1c - 4, ext_size);
	put32(f + 0x54 - 4, ext_speed);
	add(17, f, len - 4, strings, slen);
}

static void test_memory_devices(void **state)
{
	char line[512];
	(void)state;

	start();
	dimm(0x28, 0x4000, 2666, 0, 0, STR("A1\0BANK 0\0Samsung\0S1\0M393A2K43"));
	dimm(0x28, 0, 0, 0, 0, STR("A2\0BANK 1\0NO DIMM"));		// empty slot
	dimm(0x28, 0xffff, 0, 0, 0, STR("A3\0BANK 2"));			// unknown size
	dimm(0x28, 0x7fff, 3200, 128 * 1024, 0, STR("B1\0BANK 3\0Hynix\0S4\0HMA"));	// extended size
	dimm(0x28, 0x8000 | 512, 0, 0, 0, STR("B2\0BANK 4"));		// 512 KiB
	dimm(0x58, 0x1000, 0xffff, 0, 8400, STR("B3"));			// extended speed
	dimm(0x28, 0x1000, 0xffff, 0, 0, NULL, 0);			// 0xffff, no extension
	dimm(0x15, 0x800, 0, 0, 0, STR("OLD\0OLDBANK"));		// SMBIOS 2.1: no speed
	add(17, F(0, 0, 0, 0), NULL, 0);				// too short: skipped
	add(127, NULL, 0, NULL, 0);
	place(2, 8);
	find(NULL);
	assert_int_equal(warns.count, 0);
	assert_int_equal(info->structures, 10);
	assert_false(info->system);
	assert_int_equal(info->ndimms, 8);
	const struct smbios_dimm *d = info->dimm;
	assert_int_equal(d[0].size_mib, 16384);
	assert_int_equal(d[0].speed_mts, 2666);
	assert_string_equal(d[0].part_number, "M393A2K43");
	assert_false(d[1].installed);
	assert_string_equal(d[1].manufacturer, "NO DIMM");
	assert_string_equal(d[1].serial, "");
	assert_true(d[2].installed);
	assert_false(d[2].size_known);
	assert_string_equal(d[2].manufacturer, "");	// string 3 does not exist
	assert_int_equal(d[3].size_mib, 128 * 1024);
	assert_int_equal(d[4].size_mib, 0);
	assert_true(d[4].installed && d[4].size_known);
	assert_int_equal(d[5].speed_mts, 8400);
	assert_int_equal(d[6].speed_mts, 0);
	assert_string_equal(d[6].locator, "");
	assert_string_equal(d[7].bank, "OLDBANK");
	assert_int_equal(d[7].size_mib, 2048);
	assert_int_equal(d[7].speed_mts, 0);
	assert_string_equal(d[7].manufacturer, "");

	smbios_describe_dimm(line, sizeof(line), &d[1]);
	assert_string_equal(line, "locator=\"A2\" bank=\"BANK 1\" installed=no size_mib=0 speed_mts=unknown "
			    "manufacturer=\"NO DIMM\" serial=\"\" part_number=\"\"");
	smbios_describe_dimm(line, sizeof(line), &d[2]);
	assert_true(has(line, "installed=yes size_mib=unknown speed_mts=unknown"));

	// More than SMBIOS_DIMMS_MAX: counted, not kept.
	start();
	for (int i = 0; i < SMBIOS_DIMMS_MAX + 3; i++)
		dimm(0x28, 0x1000, 0, 0, 0, STR("S"));
	place(3, 2);
	find(NULL);
	assert_int_equal(info->ndimms, SMBIOS_DIMMS_MAX);
	assert_int_equal(info->dimms_beyond, 3);
	mem_reset();
}

static void test_system(void **state)
{
	char uuid[SMBIOS_UUID_LEN];
	static const uint8_t f[] = { 1, 2, 3, 4, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
				     0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 6, 0, 0 };
	(void)state;

	// Before 2.6 the UUID is as stored; from 2.6 its first fields are swapped.
	start();
	add(1, f, sizeof(f), STR("Maker\0Box\0rev A\0XYZ"));
	place(2, 5);
	find(NULL);
	assert_string_equal(smbios_uuid_text(uuid, info->uuid), "00112233-4455-6677-8899-aabbccddeeff");
	assert_string_equal(info->version, "rev A");
	place(2, 6);
	find(NULL);
	assert_string_equal(smbios_uuid_text(uuid, info->uuid), "33221100-5544-7766-8899-aabbccddeeff");

	// All 0xFF (not present) and all 0x00 (not set): unknown.
	uint8_t g[sizeof(f)];
	mem_copy(g, f, sizeof(f));
	mem_set(g + 4, 0xff, 16);
	start();
	add(1, g, sizeof(g), STR("M\0P\0V\0S"));
	place(2, 8);
	find(NULL);
	assert_true(info->system);
	assert_false(info->uuid_known);
	mem_set(g + 4, 0, 16);
	start();
	add(1, g, sizeof(g), STR("M\0P\0V\0S"));
	place(2, 8);
	find(NULL);
	assert_false(info->uuid_known);

	// SMBIOS 2.0's type 1 has no UUID; only the first type 1 counts.
	start();
	add(1, F(1, 2, 3, 0), STR("First\0One\0x"));
	add(1, f, sizeof(f), STR("Second\0Two\0y\0z"));
	place(2, 0);
	find(NULL);
	assert_string_equal(info->manufacturer, "First");
	assert_string_equal(info->serial, "");
	assert_false(info->uuid_known);

	// A string longer than kept: cut.
	char big[SMBIOS_STRING_MAX * 2 + 1];
	mem_set(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	start();
	add(1, F(1, 0, 0, 0), big, sizeof(big));
	place(2, 8);
	find(NULL);
	assert_int_equal(str_len(info->manufacturer), SMBIOS_STRING_MAX);
	mem_reset();
}

static void test_broken(void **state)
{
	(void)state;

	start();
	add(1, F(1, 2, 0, 0), STR("Maker\0Box"));
	dimm(0x28, 0x1000, 0, 0, 0, STR("S0"));
	add(127, NULL, 0, NULL, 0);
	size_t good_len = table_len;

	// The entry point's checksum: warned about, nothing else there.
	place(2, 8);
	regions[0].bytes[8] ^= 1;
	assert_int_equal(find(NULL), SMBIOS_NO_ENTRY);
	assert_int_equal(warns.count, 1);
	assert_true(has(warns.last, "the 2.x entry point at 0xf0000 has a bad length (31), checksum"));
	// The _DMI_ part's checksum.
	place(2, 8);
	regions[0].bytes[21] ^= 1;
	fix_sum(regions[0].bytes, 31, 4);
	assert_int_equal(find(NULL), SMBIOS_NO_ENTRY);
	assert_true(has(warns.last, "_DMI_ part"));

	// The table unreadable.
	place(2, 8);
	regions[1].len = 2;
	assert_int_equal(find(NULL), SMBIOS_NO_TABLE);
	assert_true(has(warns.last, "the table at 0x9000 (length"));

	// A table longer than what is there: read to where it can be, warned.
	place(2, 8);
	put16(regions[0].bytes + 22, (uint16_t)(good_len + 100));
	put16(regions[0].bytes + 28, 10);
	fix_sum(regions[0].bytes + 16, 15, 5);
	fix_sum(regions[0].bytes, 31, 4);
	regions[1].bytes[good_len - 6] = 5;	// the end structure made a type 5
	assert_int_equal(find(NULL), SMBIOS_FOUND);
	assert_string_equal(info->manufacturer, "Maker");
	assert_int_equal(info->ndimms, 1);
	assert_int_equal(warns.count, 1);
	assert_true(has(warns.last, "the structure at 0x"));

	// The structure count stops the walk before the end structure.
	place(2, 8);
	put16(regions[0].bytes + 28, 1);
	fix_sum(regions[0].bytes + 16, 15, 5);
	fix_sum(regions[0].bytes, 31, 4);
	find(NULL);
	assert_int_equal(info->structures, 1);
	assert_int_equal(info->ndimms, 0);
	assert_int_equal(warns.count, 0);

	// A structure length below its header.
	place(2, 8);
	regions[1].bytes[1] = 3;
	find(NULL);
	assert_int_equal(info->structures, 0);
	assert_true(has(warns.last, "has length 3, less than its header"));

	// A structure past the table's end.
	place(2, 8);
	regions[1].bytes[1] = 200;
	find(NULL);
	assert_true(has(warns.last, "has length 200, past the table's end"));

	// Strings without their end.
	start();
	add(1, F(1, 2, 0, 0), STR("Maker\0Box"));
	table_len--;			// drop the set's final NUL
	place(2, 8);
	find(NULL);
	assert_int_equal(info->structures, 0);
	assert_true(has(warns.last, "run past the table's end"));
	mem_reset();
}

// ---- the log's text --------------------------------------------------------------

static void test_describe(void **state)
{
	char line[512];
	(void)state;

	start();
	add(1, F(1, 2, 3, 4), STR("Say \"hi\"\0back\\slash\0tab\there\0\x1b[2J\xc3\xa9"));
	place(2, 8);
	find(NULL);
	smbios_describe_system(line, sizeof(line), info);
	assert_string_equal(line, "manufacturer=\"Say \\\"hi\\\"\" product=\"back\\\\slash\" "
			    "version=\"tab?here\" serial=\"?[2J??\" uuid=unknown smbios=2.8 entry=scan");
	// Tiny buffers: terminated, the length needed returned.
	int need = smbios_describe_system(NULL, 0, info);
	assert_int_equal(need, (int)str_len(line));
	for (size_t n = 1; n < 20; n++) {
		assert_int_equal(smbios_describe_system(line, n, info), need);
		assert_true(str_len(line) == n - 1);
	}
	assert_string_equal(smbios_status_text(SMBIOS_NO_ENTRY),
			    "no SMBIOS entry point in the loader's tag, the EFI system table or "
			    "0xF0000-0xFFFFF");
	mem_reset();
}

// Random bytes in a table behind a good entry point: never a read outside
// what the reader offers, never more DIMMs than kept, counts that agree.
static void test_random(void **state)
{
	uint64_t x = 0x2545f4914f6cdd1dull;
	(void)state;

	for (int round = 0; round < 3000; round++) {
		start();
		add(1, F(1, 2, 3, 4), STR("A\0B\0C\0D"));
		dimm(0x28, 0x1000, 0, 0, 0, STR("S0\0B0\0M\0N\0P"));
		add(127, NULL, 0, NULL, 0);
		for (int k = 0; k < 6; k++) {
			x ^= x << 13; x ^= x >> 7; x ^= x << 17;
			table[(x >> 8) % table_len] = (uint8_t)(x >> 32);
		}
		place(2, (uint8_t)(x & 15));
		find(NULL);
		assert_true(info->ndimms <= 1 + 1);
		assert_true(str_len(info->manufacturer) <= SMBIOS_STRING_MAX);
		char line[2048];
		smbios_describe_system(line, sizeof(line), info);
		for (size_t i = 0; i < info->ndimms; i++)
			smbios_describe_dimm(line, sizeof(line), &info->dimm[i]);
	}
	mem_reset();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qemu_scan),
		cmocka_unit_test(test_qemu_tag),
		cmocka_unit_test(test_efi),
		cmocka_unit_test(test_memory_devices),
		cmocka_unit_test(test_system),
		cmocka_unit_test(test_broken),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_random),
	};
	info = malloc(sizeof(*info));
	int failed = cmocka_run_group_tests(tests, NULL, NULL);
	free(info);
	return failed;
}
