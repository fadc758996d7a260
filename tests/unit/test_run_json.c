// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/run/runjson.c and lib/badram/fold_json.c: the run's JSON
// object read back with the strict reader of tests/json/jsonparse.c, its
// keys in their documented order, its values equal to the inputs and to
// the text lines lib/badram formats; hostile command lines and SMBIOS
// strings (every byte, ill-formed UTF-8, 64 DIMMs of them) still give valid
// JSON within RUNJSON_LINE_MAX; small buffers drop the lists first.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "run/runjson.h"
#include "memstr.h"	// lib's: -Ilib hides libc's
#include "../json/jsonparse.h"
#include "../json/jsonparse.c"

static char line[RUNJSON_LINE_MAX];
static char scratch[BADRAM_LINE_MAX];

static struct jv *parse_line(void)
{
	char err[128];
	struct jv *v = jv_parse(line, str_len(line), err, sizeof(err));
	if (!v)
		fail_msg("not valid JSON (%s): %.300s", err, line);
	return v;
}

static const struct jv *at(const struct jv *v, const char *path)
{
	const struct jv *r = jv_path(v, path);
	if (!r)
		fail_msg("no member %s in %.300s", path, line);
	return r;
}

static void want_number(const struct jv *v, const char *path, const char *text)
{
	const struct jv *n = at(v, path);
	if (n->type != JV_NUMBER || !str_eq(n->text, text))
		fail_msg("%s: want the number %s, got type %d \"%s\"", path, text, n->type,
			 n->text ? n->text : "");
}

static void want_string(const struct jv *v, const char *path, const char *text)
{
	const struct jv *n = at(v, path);
	if (n->type != JV_STRING || !str_eq(n->text, text))
		fail_msg("%s: want the string \"%s\", got type %d \"%s\"", path, text, n->type,
			 n->text ? n->text : "");
}

static void want_null(const struct jv *v, const char *path)
{
	if (at(v, path)->type != JV_NULL)
		fail_msg("%s: want null", path);
}

static void want_bool(const struct jv *v, const char *path, bool b)
{
	const struct jv *n = at(v, path);
	if (n->type != JV_BOOL || n->b != b)
		fail_msg("%s: want %s", path, b ? "true" : "false");
}

static struct run_status status;
static struct config cfg;
static struct bootinfo bi;
static struct smbios_info smbios;

static struct runjson base(void)
{
	mem_set(&status, 0, sizeof(status));
	status.passes_done = 1;
	status.tested_bytes = status.usable_bytes = 66543616;
	config_defaults(&cfg);
	cfg.onexit = ONEXIT_QEMU;
	cfg.bitfade_s = 0;
	mem_set(&bi, 0, sizeof(bi));
	bi.protocol = 1;
	mem_copy(bi.loader, "qemu", 5);
	mem_copy(bi.cmdline, "console=ttyS0,115200 onexit=qemu bitfade=0", 43);
	return (struct runjson){ .version = "0.2-gabc1234", .result = RESULT_PASS, .status = &status,
				 .elapsed_ms = 2345, .cfg = &cfg, .seed_known = true,
				 .seed = 0x9e3779b97f4a7c15ull, .cpus = 4, .bi = &bi,
				 .scratch = scratch };
}

// The top-level keys, in the order docs/output-contract.md lists them.
static const char *const keys[] = {
	"ramsift_json", "version", "result", "passes", "errors", "tested_bytes", "usable_bytes",
	"elapsed_s", "seed", "cpus", "firmware", "loader", "cmdline", "config", "failing_pages",
	"fold", "machine", "dimms", "dimms_left_out", "truncated", "hypervisor", "mce_corrected",
	"mce_uncorrected", "nvram", "dram", "diagnosis", "hammer", "hammer_only",
};

static void test_pass(void **state)
{
	(void)state;
	struct runjson in = base();

	assert_true(runjson_render(line, sizeof(line), &in));
	struct jv *v = parse_line();
	assert_int_equal(v->n, sizeof(keys) / sizeof(keys[0]));
	for (size_t i = 0; i < v->n; i++)
		if (!str_eq(v->key[i], keys[i]))
			fail_msg("key %zu: want %s, got %s", i, keys[i], v->key[i]);
	want_number(v, "ramsift_json", "1");
	want_string(v, "version", "0.2-gabc1234");
	want_string(v, "result", "PASS");
	want_number(v, "passes", "1");
	want_number(v, "errors", "0");
	want_number(v, "tested_bytes", "66543616");
	want_number(v, "usable_bytes", "66543616");
	want_number(v, "elapsed_s", "2.345");
	want_string(v, "seed", "0x9e3779b97f4a7c15");
	want_number(v, "cpus", "4");
	want_string(v, "firmware", "bios");
	want_string(v, "loader.name", "qemu");
	want_string(v, "loader.protocol", "multiboot");
	want_string(v, "cmdline", "console=ttyS0,115200 onexit=qemu bitfade=0");
	want_number(v, "config.passes", "1");
	want_string(v, "config.onexit", "qemu");
	want_number(v, "config.errors", "100");
	want_number(v, "config.bitfade_s", "0");
	want_number(v, "config.patterns", "20");
	want_number(v, "config.holes", "48");
	want_null(v, "config.seed");
	assert_int_equal(at(v, "config.tests")->n, 3);	// the default pass, by name
	want_string(&at(v, "config.tests")->item[0], "", "address-walk");
	want_string(&at(v, "config.tests")->item[1], "", "march-c");
	want_string(&at(v, "config.tests")->item[2], "", "bit-fade");
	want_number(v, "failing_pages.count", "0");
	want_bool(v, "failing_pages.lower_bound", false);
	assert_int_equal(at(v, "failing_pages.listed")->n, 0);
	want_number(v, "failing_pages.left_out", "0");
	want_null(v, "fold");
	want_null(v, "machine");
	assert_int_equal(at(v, "dimms")->n, 0);
	want_number(v, "dimms_left_out", "0");
	want_null(v, "hypervisor");
	want_number(v, "mce_corrected", "0");
	want_number(v, "mce_uncorrected", "0");
	want_bool(v, "truncated", false);
	want_null(v, "dram");
	want_null(v, "diagnosis");
	want_null(v, "hammer");
	want_number(v, "hammer_only", "0");
	jv_free(v);

	// What the run does not know is null; UEFI, multiboot2, tests= named.
	in.seed_known = false;
	in.cpus = 0;
	in.result = RESULT_ABORTED;
	bi.efi = true;
	bi.protocol = 2;
	bi.loader[0] = '\0';
	cfg.ntests = 2;
	cfg.tests[0] = 1;
	cfg.tests[1] = 1;
	cfg.seed_set = true;
	cfg.seed = 42;
	cfg.onexit = ONEXIT_POWEROFF;
	assert_true(runjson_render(line, sizeof(line), &in));
	v = parse_line();
	want_string(v, "result", "ABORTED");
	want_null(v, "seed");
	want_null(v, "cpus");
	want_string(v, "firmware", "uefi");
	want_null(v, "loader.name");
	want_string(v, "loader.protocol", "multiboot2");
	assert_int_equal(at(v, "config.tests")->n, 2);
	want_string(v, "config.seed", "0x2a");
	want_string(v, "config.onexit", "poweroff");
	jv_free(v);

	in.bi = NULL;
	in.hypervisor = "QEMU TCG";
	in.mce_corrected = 2;
	in.mce_uncorrected = 1;
	assert_true(runjson_render(line, sizeof(line), &in));
	v = parse_line();
	want_string(v, "hypervisor", "QEMU TCG");
	want_number(v, "mce_corrected", "2");
	want_number(v, "mce_uncorrected", "1");
	want_null(v, "firmware");
	want_null(v, "loader");
	want_null(v, "cmdline");
	want_null(v, "nvram");
	jv_free(v);

	struct runjson_nvram nv = { .kept = true, .bytes = 181, .pages = 3, .ranges = 2,
				    .why = "kept 3 failing pages in RamsiftResult" };
	in.nvram = &nv;
	assert_true(runjson_render(line, sizeof(line), &in));
	v = parse_line();
	want_number(v, "nvram.bytes", "181");
	want_number(v, "nvram.pages", "3");
	want_number(v, "nvram.ranges", "2");
	want_string(v, "nvram.why", "kept 3 failing pages in RamsiftResult");
	want_bool(v, "nvram.kept", true);
	want_bool(v, "nvram.pages_cut", false);
	jv_free(v);

	// The DRAM geometry learning skipped, then a learned map and a row diagnosed.
	in.dram_status = "hypervisor";
	assert_true(runjson_render(line, sizeof(line), &in));
	v = parse_line();
	want_string(v, "dram.status", "hypervisor");
	assert_int_equal(at(v, "dram.functions")->n, 0);
	want_null(v, "dram.row_bits");
	want_null(v, "diagnosis");
	jv_free(v);
	struct dram_map map = { .funcs = { 0x2040, 0x4080 }, .nfuncs = 2, .row_lo = 18, .row_hi = 30 };
	struct dram_diagnosis diag = { .shape = DRAM_SHAPE_ROW, .mapped = true, .cells = 5,
				       .rows = 1, .columns = 5, .banks = 1, .map_banks = 4,
				       .bank = 2, .row = 0x1a, .in_shape = 5 };
	char words[256];
	dram_diagnosis_format(&diag, words, sizeof(words));
	in.dram_status = "learned";
	in.dram_map = &map;
	in.diagnosis = &diag;
	assert_true(runjson_render(line, sizeof(line), &in));
	v = parse_line();
	want_string(v, "dram.status", "learned");
	assert_int_equal(at(v, "dram.functions")->n, 2);
	want_string(&at(v, "dram.functions")->item[0], "", "0x2040");
	want_string(&at(v, "dram.functions")->item[1], "", "0x4080");
	want_number(&at(v, "dram.row_bits")->item[0], "", "18");
	want_number(&at(v, "dram.row_bits")->item[1], "", "30");
	want_string(v, "diagnosis.shape", "row");
	want_bool(v, "diagnosis.mapped", true);
	want_bool(v, "diagnosis.replace", false);
	want_number(v, "diagnosis.cells", "5");
	want_number(v, "diagnosis.rows", "1");
	want_string(v, "diagnosis.text", words);
	jv_free(v);

	in.hammered = true;
	in.hammer_rate = 640000;
	in.hammer_rows = 52;
	in.hammer_only = 3;
	assert_true(runjson_render(line, sizeof(line), &in));
	v = parse_line();
	want_number(v, "hammer.rate", "640000");
	want_number(v, "hammer.rows", "52");
	want_number(v, "hammer_only", "3");
	jv_free(v);
}

static void test_fail(void **state)
{
	(void)state;
	static uint64_t slots[1024];
	static uint8_t scratch[BADRAM_FOLD_SCRATCH_BYTES(1024)];
	static struct badram_result r;
	struct badram_table t;
	struct range ram = { 0, 128 << 20 };
	uint64_t pages[2];
	char text[BADRAM_LINE_MAX];

	badram_table_init(&t, slots, 1024);
	badram_table_add(&t, 0x5a5a5a8);
	badram_table_add(&t, 0x7000010);
	badram_fold(&t, &ram, 1, badram_budget_default(), scratch, sizeof(scratch), &r);
	assert_int_equal(badram_table_pages(&t, pages, 2), 2);

	struct runjson in = base();
	in.result = RESULT_FAIL;
	status.errors = 7;
	in.pages = pages;
	in.npages = 1;		// one listed, one left out
	in.failing_pages = 2;
	in.fold = &r;
	assert_true(runjson_render(line, sizeof(line), &in));
	struct jv *v = parse_line();
	want_string(v, "result", "FAIL");
	want_number(v, "errors", "7");
	want_number(v, "failing_pages.count", "2");
	assert_int_equal(at(v, "failing_pages.listed")->n, 1);
	want_string(&at(v, "failing_pages.listed")->item[0], "", "0x5a5a000");
	want_number(v, "failing_pages.left_out", "1");
	want_string(v, "fold.mode", "bios");
	badram_format_badram(text, sizeof(text), &r);
	want_string(v, "fold.badram", text);
	badram_format_grub(text, sizeof(text), &r);
	want_string(v, "fold.grub", text);
	badram_format_memmap(text, sizeof(text), &r);
	want_string(v, "fold.memmap", "memmap=4K$0x5a5a000,4K$0x7000000");
	want_string(v, "fold.memmap", text);
	badram_format_summary(text, sizeof(text), &r);
	want_string(v, "fold.summary", text);
	const struct jv *pairs = at(v, "fold.pairs");
	assert_int_equal(pairs->n, 2);
	want_string(&pairs->item[0], "mask", "0x7ffffffffffff000");
	const struct jv *ranges = at(v, "fold.memmap_ranges");
	assert_int_equal(ranges->n, 2);
	want_string(&ranges->item[1], "start", "0x7000000");
	want_string(&ranges->item[1], "end", "0x7001000");
	want_number(v, "fold.failing_pages", "2");
	want_number(v, "fold.excluded_pages", "2");
	want_number(v, "fold.sacrificed_pages", "0");
	want_number(v, "fold.holes", "2");
	want_number(v, "fold.pairs_budget", "20");
	want_number(v, "fold.holes_budget", "48");
	want_string(v, "fold.limit", "none");
	want_bool(v, "fold.grub_bios_safe", true);
	want_bool(v, "fold.replace_advised", false);
	want_bool(v, "fold.overflow", false);
	want_bool(v, "fold.degraded", false);
	jv_free(v);

	in.fold_uefi = true;
	assert_true(runjson_render(line, sizeof(line), &in));
	v = parse_line();
	want_string(v, "fold.mode", "uefi");
	jv_free(v);

	// A fold of nothing (ramsift-fold with no input): the lines are null.
	static struct badram_result none;
	badram_table_init(&t, slots, 1024);
	badram_fold(&t, &ram, 1, badram_budget_default(), scratch, sizeof(scratch), &none);
	in.fold = &none;
	assert_true(runjson_render(line, sizeof(line), &in));
	v = parse_line();
	want_null(v, "fold.badram");
	want_null(v, "fold.summary");
	assert_int_equal(at(v, "fold.pairs")->n, 0);
	jv_free(v);
}

static void test_identity(void **state)
{
	(void)state;
	struct runjson in = base();

	mem_set(&smbios, 0, sizeof(smbios));
	smbios.status = SMBIOS_FOUND;
	smbios.from = SMBIOS_FROM_SCAN;
	smbios.major = 3;
	smbios.minor = 0;
	smbios.system = true;
	mem_copy(smbios.manufacturer, "Fleet Lab", 10);
	mem_copy(smbios.product, "Rack 7 Node", 12);
	mem_copy(smbios.serial, "SN-0042", 8);
	smbios.uuid_known = true;
	for (int i = 0; i < 16; i++)
		smbios.uuid[i] = (uint8_t)(i * 17);
	smbios.ndimms = 2;
	smbios.dimms_beyond = 3;
	mem_copy(smbios.dimm[0].locator, "SLOT 0", 7);
	smbios.dimm[0].installed = smbios.dimm[0].size_known = true;
	smbios.dimm[0].size_mib = 4096;
	smbios.dimm[0].speed_mts = 3200;
	mem_copy(smbios.dimm[0].part_number, "PN-64", 6);
	mem_copy(smbios.dimm[1].locator, "SLOT 1", 7);
	in.smbios = &smbios;
	assert_true(runjson_render(line, sizeof(line), &in));
	struct jv *v = parse_line();
	want_string(v, "machine.manufacturer", "Fleet Lab");
	want_string(v, "machine.product", "Rack 7 Node");
	want_string(v, "machine.version", "");
	want_string(v, "machine.serial", "SN-0042");
	want_string(v, "machine.uuid", "00112233-4455-6677-8899-aabbccddeeff");
	want_string(v, "machine.smbios", "3.0");
	want_string(v, "machine.entry", "scan");
	const struct jv *d = at(v, "dimms");
	assert_int_equal(d->n, 2);
	want_string(&d->item[0], "locator", "SLOT 0");
	want_bool(&d->item[0], "installed", true);
	want_number(&d->item[0], "size_mib", "4096");
	want_number(&d->item[0], "speed_mts", "3200");
	want_string(&d->item[0], "part_number", "PN-64");
	want_bool(&d->item[1], "installed", false);
	want_number(&d->item[1], "size_mib", "0");
	want_null(&d->item[1], "speed_mts");
	want_number(v, "dimms_left_out", "3");
	jv_free(v);

	smbios.uuid_known = false;
	smbios.dimm[1].installed = true;	// installed, size unknown
	assert_true(runjson_render(line, sizeof(line), &in));
	v = parse_line();
	want_null(v, "machine.uuid");
	want_null(&at(v, "dimms")->item[1], "size_mib");
	jv_free(v);

	smbios.status = SMBIOS_NO_ENTRY;
	assert_true(runjson_render(line, sizeof(line), &in));
	v = parse_line();
	want_null(v, "machine");
	assert_int_equal(at(v, "dimms")->n, 0);
	want_number(v, "dimms_left_out", "0");
	jv_free(v);
}

// The worst strings everywhere: still one valid JSON text in the buffer.
static void test_hostile(void **state)
{
	(void)state;
	static uint64_t pages[512];
	struct runjson in = base();

	for (size_t i = 0; i < sizeof(bi.cmdline) - 1; i++)
		bi.cmdline[i] = (char)(1 + i % 255);	// every byte but NUL, controls too
	bi.cmdline[sizeof(bi.cmdline) - 1] = '\0';
	for (size_t i = 0; i < sizeof(bi.loader) - 1; i++)
		bi.loader[i] = (char)(0x80 + i);	// ill-formed UTF-8
	mem_set(&smbios, 0, sizeof(smbios));
	smbios.status = SMBIOS_FOUND;
	smbios.system = true;
	smbios.ndimms = SMBIOS_DIMMS_MAX;
	smbios_string *strings[] = { &smbios.manufacturer, &smbios.product, &smbios.version,
				     &smbios.serial };
	for (size_t k = 0; k < 4; k++) {
		mem_set(*strings[k], 0x01, SMBIOS_STRING_MAX);
		(*strings[k])[SMBIOS_STRING_MAX] = '\0';
	}
	for (size_t i = 0; i < SMBIOS_DIMMS_MAX; i++) {
		struct smbios_dimm *d = &smbios.dimm[i];
		smbios_string *ds[] = { &d->locator, &d->bank, &d->manufacturer, &d->serial, &d->part_number };
		for (size_t k = 0; k < 5; k++) {
			mem_set(*ds[k], k % 2 ? '"' : 0x1f, SMBIOS_STRING_MAX);
			(*ds[k])[SMBIOS_STRING_MAX] = '\0';
		}
	}
	for (int i = 0; i < 512; i++)
		pages[i] = 0xfffff00000000ull + (uint64_t)i * 4096;
	in.smbios = &smbios;
	in.pages = pages;
	in.npages = 512;
	in.failing_pages = 100000;
	in.pages_lower_bound = true;
	assert_true(runjson_render(line, sizeof(line), &in));
	struct jv *v = parse_line();
	// Each byte back: ASCII as itself, the rest (never well-formed here:
	// each is followed by another lead byte or by ASCII) as U+FFFD.
	const struct jv *c = at(v, "cmdline");
	size_t pos = 0;
	for (size_t i = 0; i < sizeof(bi.cmdline) - 1; i++) {
		unsigned char b = (unsigned char)bi.cmdline[i];
		bool ok = b < 0x80 ? pos < c->len && (unsigned char)c->text[pos] == b :
				     pos + 3 <= c->len && mem_cmp(c->text + pos, "\xef\xbf\xbd", 3) == 0;
		if (!ok)
			fail_msg("cmdline byte %zu (0x%02x) not read back at %zu", i, b, pos);
		pos += b < 0x80 ? 1 : 3;
	}
	assert_int_equal(pos, c->len);
	want_bool(v, "failing_pages.lower_bound", true);
	// Whatever did not fit went first: the lists, and it says so.
	if (at(v, "truncated")->b) {
		assert_int_equal(at(v, "dimms")->n, 0);
		want_number(v, "dimms_left_out", "64");
	} else {
		assert_int_equal(at(v, "dimms")->n, SMBIOS_DIMMS_MAX);
		assert_int_equal(at(v, "failing_pages.listed")->n, 512);
	}
	jv_free(v);

	// A buffer too small for the lists: truncated, still valid.
	assert_true(runjson_render(line, 16 * 1024, &in));
	v = parse_line();
	want_bool(v, "truncated", true);
	assert_int_equal(at(v, "failing_pages.listed")->n, 0);
	want_number(v, "failing_pages.left_out", "100000");
	jv_free(v);

	// Too small for the command line: the counters only.
	assert_true(runjson_render(line, 400, &in));
	v = parse_line();
	want_bool(v, "truncated", true);
	want_string(v, "result", "PASS");
	assert_null(jv_get(v, "cmdline"));
	jv_free(v);
	assert_false(runjson_render(line, 40, &in));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pass),
		cmocka_unit_test(test_fail),
		cmocka_unit_test(test_identity),
		cmocka_unit_test(test_hostile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
