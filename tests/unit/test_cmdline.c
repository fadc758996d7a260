// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/boot/cmdline.c: a table of command lines, each with the
// whole expected config and the warnings it must produce, then a fuzz test
// (random bytes, huge words, 10 000 words) that checks the parser never
// crashes (under ASan/UBSan) and always leaves a config within its ranges.
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "badram/badram.h"
#include "boot/cmdline.h"
#include "memstr.h"
#include "contains.h"

static const char *const names[] = { "walk", "mats", "inv", "rand" };
#define NNAMES (sizeof(names) / sizeof(names[0]))

struct warnings {
	int count;
	char first_word[64];
	char first_why[320];
};

static void record(void *ctx, const char *word, size_t word_len,
		   const char *why)
{
	struct warnings *w = ctx;

	if (word_len == 0 || str_len(why) == 0)
		fail_msg("warning with empty word or reason");
	if (w->count++ == 0) {
		snprintf(w->first_word, sizeof(w->first_word), "%.*s",
			 (int)word_len, word);
		snprintf(w->first_why, sizeof(w->first_why), "%s", why);
	}
}

// Expected configs are written as the defaults plus the fields a case
// changes; a later designated initializer overriding DEF is the point.
#pragma GCC diagnostic ignored "-Woverride-init"
#define DEF .serial = true, .serial_port = 0, .serial_baud = 115200, \
	.screen = true, .passes = 1, .ntests = 0, .onexit = ONEXIT_HALT, \
	.seed = 0, .seed_set = false, .error_lines = 100, .bitfade_s = 90, .hammer_s = 10, \
	.patterns = BADRAM_DEFAULT_PAIRS, .holes = BADRAM_DEFAULT_HOLES, \
	.cpus = 0, .nvram = true, .usb = true, .dram = DRAM_MODE_ON, .test_fault = TEST_FAULT_NONE

static const struct {
	const char *line;
	struct config want;
	int nwarn;
	const char *why;        // substring of the first warning, if any
	const char *word;       // the first warned word, if any
} cases[] = {
	{ NULL, { DEF }, 0, NULL, NULL },
	{ "", { DEF }, 0, NULL, NULL },
	{ " \t\n\r ", { DEF }, 0, NULL, NULL },
	// The image path GRUB, QEMU and iPXE put first.
	{ "/boot/ramsift.elf", { DEF }, 0, NULL, NULL },
	{ "(hd0,msdos1)/ramsift.elf passes=3", { DEF, .passes = 3 }, 0, NULL, NULL },
	{ "http://10.0.0.1/ramsift.elf", { DEF }, 0, NULL, NULL },
	{ "ramsift.elf", { DEF }, 0, NULL, NULL },
	{ "ramsift.bin onexit=qemu", { DEF, .onexit = ONEXIT_QEMU }, 0, NULL, NULL },
	{ "ramsift", { DEF }, 1, "not an option", "ramsift" },
	{ "passes=2 /boot/ramsift.elf", { DEF, .passes = 2 }, 1, "not an option", "/boot/ramsift.elf" },
	// console=
	{ "console=ttyS0", { DEF, .screen = false }, 0, NULL, NULL },
	{ "console=ttyS1,9600", { DEF, .screen = false, .serial_port = 1, .serial_baud = 9600 }, 0, NULL, NULL },
	{ "console=ttyS3,115200n8", { DEF, .screen = false, .serial_port = 3 }, 0, NULL, NULL },
	{ "console=ttyS0,57600n8r", { DEF, .screen = false, .serial_baud = 57600 }, 0, NULL, NULL },
	{ "console=ttyS0,38400n", { DEF, .screen = false, .serial_baud = 38400 }, 0, NULL, NULL },
	{ "console=ttyS0,50", { DEF, .screen = false, .serial_baud = 50 }, 0, NULL, NULL },
	{ "console=ttyS0,9600e7", { DEF, .screen = false, .serial_baud = 9600 }, 1, "8N1", "console=ttyS0,9600e7" },
	{ "console=ttyS0,9600o8", { DEF, .screen = false, .serial_baud = 9600 }, 1, "8N1", NULL },
	{ "console=ttyS0,9600n9", { DEF, .screen = false }, 1, "bad serial options", NULL },
	{ "console=ttyS0,9601", { DEF, .screen = false }, 1, "baud", NULL },
	{ "console=ttyS0,110", { DEF, .screen = false }, 1, "baud", NULL },
	{ "console=ttyS0,230400", { DEF, .screen = false }, 1, "baud", NULL },
	{ "console=ttyS0,25", { DEF, .screen = false }, 1, "baud", NULL },
	{ "console=ttyS0,0", { DEF, .screen = false }, 1, "baud", NULL },
	{ "console=ttyS0,", { DEF, .screen = false }, 1, "bad serial options", NULL },
	{ "console=ttyS0,fast", { DEF, .screen = false }, 1, "bad serial options", NULL },
	{ "console=ttyS0,99999999999999999999999", { DEF, .screen = false }, 1, "bad serial options", NULL },
	{ "console=ttyS4", { DEF }, 1, "unknown console, ignored", "console=ttyS4" },
	{ "console=ttyS01", { DEF }, 1, "unknown console", NULL },
	{ "console=ttyS", { DEF }, 1, "unknown console", NULL },
	{ "console=", { DEF }, 1, "unknown console", NULL },
	{ "console=tty2", { DEF }, 1, "unknown console", NULL },
	{ "console=tty0", { DEF, .serial = false }, 0, NULL, NULL },
	{ "console=tty1", { DEF, .serial = false }, 0, NULL, NULL },
	{ "console=tty0 console=ttyS1", { DEF, .serial_port = 1 }, 0, NULL, NULL },
	{ "console=ttyS1 console=tty0", { DEF, .serial_port = 1 }, 0, NULL, NULL },
	{ "console=ttyS1 console=ttyS2,19200", { DEF, .screen = false, .serial_port = 2, .serial_baud = 19200 }, 1, "one serial console only: ttyS2 is used, not the earlier ttyS1", "console=ttyS2,19200" },
	{ "console=ttyS1,9600 console=ttyS1", { DEF, .screen = false, .serial_port = 1 }, 0, NULL, NULL },
	{ "console=bogus console=tty0", { DEF, .serial = false }, 1, "unknown console", NULL },
	// passes=
	{ "passes=0", { DEF, .passes = 0 }, 0, NULL, NULL },
	{ "passes=1000000", { DEF, .passes = 1000000 }, 0, NULL, NULL },
	{ "passes=0x10", { DEF, .passes = 16 }, 0, NULL, NULL },
	{ "passes=1000001", { DEF }, 1, "out of range, ignored", "passes=1000001" },
	{ "passes=18446744073709551616", { DEF }, 1, "not a number", NULL },
	{ "passes=", { DEF }, 1, "not a number", NULL },
	{ "passes=-1", { DEF }, 1, "not a number", NULL },
	{ "passes=two", { DEF }, 1, "not a number, ignored", NULL },
	{ "passes=5 passes=7", { DEF, .passes = 7 }, 0, NULL, NULL },
	{ "passes=5 passes=x", { DEF, .passes = 5 }, 1, "not a number", NULL },
	// tests=
	{ "tests=mats", { DEF, .ntests = 1, .tests = { 1 } }, 0, NULL, NULL },
	{ "tests=rand,walk,mats", { DEF, .ntests = 3, .tests = { 3, 0, 1 } }, 0, NULL, NULL },
	{ "tests=inv,inv", { DEF, .ntests = 2, .tests = { 2, 2 } }, 0, NULL, NULL },
	{ "tests=inv,nope,walk", { DEF, .ntests = 2, .tests = { 2, 0 } }, 1, "unknown test \"nope\" left out, the others run; known: all walk mats inv rand", "tests=inv,nope,walk" },
	{ "tests=nope", { DEF }, 1, "unknown test", NULL },
	{ "tests=", { DEF }, 1, "empty test name", NULL },
	{ "tests=mats,", { DEF, .ntests = 1, .tests = { 1 } }, 1, "empty test name", NULL },
	{ "tests=,,", { DEF }, 3, "empty test name", NULL },
	{ "tests=Mats", { DEF }, 1, "unknown test", NULL },
	{ "tests=mat", { DEF }, 1, "unknown test", NULL },
	{ "tests=matss", { DEF }, 1, "unknown test", NULL },
	{ "tests=walk tests=inv", { DEF, .ntests = 1, .tests = { 2 } }, 0, NULL, NULL },
	{ "tests=walk tests=bad", { DEF, .ntests = 1, .tests = { 0 } }, 1, "unknown test", NULL },
	{ "tests=walk,walk,walk,walk,walk,walk,walk,walk,walk,walk,walk,walk,walk,walk,walk,walk,"
	  "walk,walk,walk,walk,walk,walk,walk,walk,walk,walk,walk,walk,walk,walk,walk,mats,rand",
	  { DEF, .ntests = 32, .tests = { [31] = 1 } }, 1, "too many tests", NULL },
	// onexit=
	{ "onexit=halt", { DEF }, 0, NULL, NULL },
	{ "onexit=reboot", { DEF, .onexit = ONEXIT_REBOOT }, 0, NULL, NULL },
	{ "onexit=qemu", { DEF, .onexit = ONEXIT_QEMU }, 0, NULL, NULL },
	{ "onexit=poweroff", { DEF, .onexit = ONEXIT_POWEROFF }, 0, NULL, NULL },
	{ "onexit=off", { DEF }, 1, "ignored: must be halt, reboot, poweroff or qemu", "onexit=off" },
	{ "onexit=poweroffx", { DEF }, 1, "must be halt", NULL },
	{ "onexit=", { DEF }, 1, "must be halt", NULL },
	{ "onexit=HALT", { DEF }, 1, "must be halt", NULL },
	{ "onexit=reboot onexit=qemu", { DEF, .onexit = ONEXIT_QEMU }, 0, NULL, NULL },
	// unknown keys and stray words
	{ "quiet", { DEF }, 1, "not an option (expected key=value), ignored; known: console= passes= tests= onexit= seed= errors= bitfade= hammer= patterns= holes= cpus= nvram= usb= dram= test_fault=", "quiet" },
	{ "foo=1", { DEF }, 1, "unknown option, ignored; known: console= passes= tests= onexit= seed= errors= bitfade= hammer= patterns= holes= cpus= nvram= usb= dram= test_fault=", "foo=1" },
	{ "=1", { DEF }, 1, "unknown option", "=1" },
	{ "=", { DEF }, 1, "unknown option", "=" },
	{ "Passes=2", { DEF }, 1, "unknown option", NULL },
	{ "passes2=2", { DEF }, 1, "unknown option", NULL },
	{ "pass=2", { DEF }, 1, "unknown option", NULL },
	{ "passes==2", { DEF }, 1, "not a number", NULL },
	// everything at once, with odd spacing
	{ "  /ramsift.elf\tconsole=ttyS0,9600 console=tty0\n passes=0 tests=walk,rand onexit=qemu  ",
	  { DEF, .serial_baud = 9600, .passes = 0, .ntests = 2, .tests = { 0, 3 }, .onexit = ONEXIT_QEMU },
	  0, NULL, NULL },
	{ "passes=2\0passes=3", { DEF, .passes = 2 }, 0, NULL, NULL },   // stops at NUL
	{ "tests=all", { DEF, .ntests = 4, .tests = { 0, 1, 2, 3 } }, 0, NULL, NULL },
	{ "tests=rand,all", { DEF, .ntests = 5, .tests = { 3, 0, 1, 2, 3 } }, 0, NULL, NULL },
	{ "tests=nope", { DEF }, 1, "unknown test \"nope\", word ignored; known: all walk mats inv rand", NULL },
	// seed= errors= bitfade= hammer= patterns= holes=
	{ "seed=0x1234abcd", { DEF, .seed = 0x1234abcd, .seed_set = true }, 0, NULL, NULL },
	{ "seed=0", { DEF, .seed = 0, .seed_set = true }, 0, NULL, NULL },
	{ "seed=18446744073709551615", { DEF, .seed = UINT64_MAX, .seed_set = true }, 0, NULL, NULL },
	{ "seed=xyz", { DEF }, 1, "not a number, ignored; seed=", "seed=xyz" },
	{ "errors=0", { DEF, .error_lines = 0 }, 0, NULL, NULL },
	{ "errors=5000", { DEF, .error_lines = 5000 }, 0, NULL, NULL },
	{ "errors=4294967296", { DEF }, 1, "out of range, ignored; errors=", NULL },
	{ "bitfade=0", { DEF, .bitfade_s = 0 }, 0, NULL, NULL },
	{ "bitfade=300", { DEF, .bitfade_s = 300 }, 0, NULL, NULL },
	{ "bitfade=86401", { DEF }, 1, "out of range, ignored; bitfade=", NULL },
	{ "patterns=1 holes=1", { DEF, .patterns = 1, .holes = 1 }, 0, NULL, NULL },
	{ "patterns=64 holes=100000", { DEF, .patterns = 64, .holes = 100000 }, 0, NULL, NULL },
	{ "patterns=0", { DEF }, 1, "out of range, ignored; patterns= takes 1..64", NULL },
	{ "patterns=65", { DEF }, 1, "out of range", NULL },
	{ "holes=0", { DEF }, 1, "out of range, ignored; holes=", NULL },
	{ "holes=-3", { DEF }, 1, "not a number, ignored; holes=", NULL },
	// cpus= nvram= test_fault=
	{ "cpus=0", { DEF, .cpus = 0 }, 0, NULL, NULL },
	{ "cpus=1", { DEF, .cpus = 1 }, 0, NULL, NULL },
	{ "cpus=4 cpus=2", { DEF, .cpus = 2 }, 0, NULL, NULL },
	{ "cpus=512", { DEF, .cpus = 512 }, 0, NULL, NULL },
	{ "cpus=513", { DEF }, 1, "out of range, ignored; cpus= takes 0..512 (the CPUs that test", "cpus=513" },
	{ "cpus=all", { DEF }, 1, "not a number, ignored; cpus=", NULL },
	{ "cpus=3 cpus=-1", { DEF, .cpus = 3 }, 1, "not a number", "cpus=-1" },
	{ "test_fault=ap-absent", { DEF, .test_fault = TEST_FAULT_AP_ABSENT }, 0, NULL, NULL },
	{ "test_fault=ap-ud2", { DEF, .test_fault = TEST_FAULT_AP_UD2 }, 0, NULL, NULL },
	{ "test_fault=ap-ud2 test_fault=ap-absent", { DEF, .test_fault = TEST_FAULT_AP_ABSENT }, 0, NULL, NULL },
	{ "test_fault=ap-absent-many", { DEF, .test_fault = TEST_FAULT_AP_ABSENT_MANY }, 0, NULL, NULL },
	{ "test_fault=ap-hang", { DEF, .test_fault = TEST_FAULT_AP_HANG }, 0, NULL, NULL },
	{ "test_fault=ap-hang-end", { DEF, .test_fault = TEST_FAULT_AP_HANG_END }, 0, NULL, NULL },
	{ "test_fault=ap-stack", { DEF, .test_fault = TEST_FAULT_AP_STACK }, 0, NULL, NULL },
	{ "test_fault=nvram-fault", { DEF, .test_fault = TEST_FAULT_NVRAM_FAULT }, 0, NULL, NULL },
	{ "test_fault=nvram-get-fault", { DEF, .test_fault = TEST_FAULT_NVRAM_GET_FAULT }, 0, NULL, NULL },
	{ "test_fault=nvram-set-error", { DEF, .test_fault = TEST_FAULT_NVRAM_SET_ERROR }, 0, NULL, NULL },
	{ "test_fault=nvram-query-error", { DEF, .test_fault = TEST_FAULT_NVRAM_QUERY_ERROR }, 0, NULL, NULL },
	{ "test_fault=nvram-no-query", { DEF, .test_fault = TEST_FAULT_NVRAM_NO_QUERY }, 0, NULL, NULL },
	{ "test_fault=nvram-efi32", { DEF, .test_fault = TEST_FAULT_NVRAM_EFI32 }, 0, NULL, NULL },
	{ "test_fault=hammer-weak", { DEF, .test_fault = TEST_FAULT_HAMMER_WEAK }, 0, NULL, NULL },
	{ "nvram=off", { DEF, .nvram = false }, 0, NULL, NULL },
	{ "nvram=off nvram=on", { DEF }, 0, NULL, NULL },
	{ "nvram=no", { DEF }, 1, "ignored: must be on or off", "nvram=no" },
	{ "nvram=", { DEF }, 1, "ignored: must be on or off", "nvram=" },
	{ "usb=off", { DEF, .usb = false }, 0, NULL, NULL },
	{ "usb=off usb=on", { DEF }, 0, NULL, NULL },
	{ "usb=on nvram=off", { DEF, .nvram = false }, 0, NULL, NULL },
	{ "hammer=60", { DEF, .hammer_s = 60 }, 0, NULL, NULL },
	{ "hammer=0", { DEF }, 1, "hammer= takes 1..3600 seconds", "hammer=0" },
	{ "dram=off", { DEF, .dram = DRAM_MODE_OFF }, 0, NULL, NULL },
	{ "dram=force", { DEF, .dram = DRAM_MODE_FORCE }, 0, NULL, NULL },
	{ "dram=off dram=on", { DEF }, 0, NULL, NULL },
	{ "dram=off dram=yes", { DEF, .dram = DRAM_MODE_OFF }, 1, "ignored: must be on, off or force", "dram=yes" },
	{ "usb=0", { DEF }, 1, "ignored: must be on or off (read USB keyboards", "usb=0" },
	{ "usb=off usb=OFF", { DEF, .usb = false }, 1, "off leaves every USB controller", "usb=OFF" },
	{ "test_fault=ap", { DEF }, 1, "must be ap-absent, ap-ud2, ap-absent-many, ap-hang,", "test_fault=ap" },
	{ "test_fault=ap-hang-", { DEF }, 1, "must be ap-absent", "test_fault=ap-hang-" },
	{ "test_fault=", { DEF }, 1, "must be ap-absent, ap-ud2, ap-absent-many, ap-hang,", NULL },
};

static void check_config(const char *name, const struct config *got,
			 const struct config *want)
{
#define FIELD(f) do { \
	if ((unsigned long long)got->f != (unsigned long long)want->f) \
		fail_msg("\"%s\": " #f " = %llu, want %llu", name, \
			 (unsigned long long)got->f, \
			 (unsigned long long)want->f); \
	} while (0)
	FIELD(serial);
	FIELD(serial_port);
	FIELD(serial_baud);
	FIELD(screen);
	FIELD(passes);
	FIELD(ntests);
	FIELD(onexit);
	FIELD(seed);
	FIELD(seed_set);
	FIELD(error_lines);
	FIELD(bitfade_s);
	FIELD(hammer_s);
	FIELD(patterns);
	FIELD(holes);
	FIELD(cpus);
	FIELD(nvram);
	FIELD(usb);
	FIELD(dram);
	FIELD(test_fault);
	for (size_t i = 0; i < want->ntests; i++)
		FIELD(tests[i]);
#undef FIELD
}

static void test_table(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const char *name = cases[c].line ? cases[c].line : "(NULL)";
		struct config cfg;
		struct warnings w = { 0 };

		config_defaults(&cfg);
		cmdline_parse(cases[c].line, &cfg, names, NNAMES, record, &w);
		check_config(name, &cfg, &cases[c].want);
		if (w.count != cases[c].nwarn)
			fail_msg("\"%s\": %d warnings, want %d (first: %s: %s)",
				 name, w.count, cases[c].nwarn, w.first_word,
				 w.first_why);
		if (cases[c].why && !contains(w.first_why, cases[c].why))
			fail_msg("\"%s\": warning \"%s\" lacks \"%s\"", name,
				 w.first_why, cases[c].why);
		if (cases[c].word && !str_eq(w.first_word, cases[c].word))
			fail_msg("\"%s\": warned word \"%s\", want \"%s\"", name,
				 w.first_word, cases[c].word);
	}
}

// All 115200/d rates are accepted and nothing else is.
static void test_baud_rates(void **state)
{
	(void)state;
	int accepted = 0;

	for (unsigned baud = 1; baud <= 230400; baud++) {
		char line[64];
		struct config cfg;
		struct warnings w = { 0 };
		bool valid = baud >= 50 && 115200 % baud == 0 && baud <= 115200;

		snprintf(line, sizeof(line), "console=ttyS2,%u", baud);
		config_defaults(&cfg);
		cmdline_parse(line, &cfg, names, NNAMES, record, &w);
		if (valid != (w.count == 0) || cfg.serial_baud != (valid ? baud : 115200))
			fail_msg("baud %u: %d warnings, serial_baud %u", baud,
				 w.count, cfg.serial_baud);
		accepted += valid;
	}
	assert_int_equal(accepted, 68);   // 115200/d for d = 1..2304
}

// No warn callback: bad input is silently ignored.
static void test_null_warn(void **state)
{
	(void)state;
	struct config cfg;

	config_defaults(&cfg);
	cmdline_parse("foo passes=3 tests=x", &cfg, names, NNAMES, NULL, NULL);
	assert_int_equal(cfg.passes, 3);
	assert_int_equal(cfg.ntests, 0);
	config_defaults(&cfg);
	cmdline_parse("tests=walk", &cfg, NULL, 0, NULL, NULL);
	assert_int_equal(cfg.ntests, 0);
}

// The list of known tests in a warning is cut, not overflowed.
static void test_long_name_list(void **state)
{
	(void)state;
	static char storage[300][8];
	static const char *many[300];
	char line[64];
	struct config cfg;
	struct warnings w = { 0 };

	for (size_t i = 0; i < 300; i++) {
		snprintf(storage[i], sizeof(storage[i]), "t%zu", i);
		many[i] = storage[i];
	}
	config_defaults(&cfg);
	snprintf(line, sizeof(line), "tests=t0,t%d,t%d,zz", MAX_TESTS - 1, MAX_TESTS);
	cmdline_parse(line, &cfg, many, 300, record, &w);
	assert_int_equal(cfg.ntests, 2);
	assert_int_equal(cfg.tests[1], MAX_TESTS - 1);
	assert_int_equal(w.count, 2);             // t<MAX_TESTS> is beyond the table
	assert_true(contains(w.first_why, "..."));
	assert_true(str_len(w.first_why) < 256);
}

// The test_fault= warning names every hook: each name it lists selects a
// hook of its own, and together they select all of them.
static void test_fault_warning_names_every_hook(void **state)
{
	(void)state;
	bool named[TEST_FAULT_HAMMER_WEAK + 1] = { false };
	struct warnings w = { 0 };
	struct config cfg;
	char list[320];
	char word[64];

	config_defaults(&cfg);
	cmdline_parse("test_fault=none", &cfg, names, NNAMES, record, &w);
	assert_int_equal(w.count, 1);
	const char *from = strstr(w.first_why, "must be ");
	const char *to = strstr(w.first_why, " (");
	assert_non_null(from);
	assert_non_null(to);
	from += strlen("must be ");
	snprintf(list, sizeof(list), "%.*s", (int)(to - from), from);
	for (char *name = strtok(list, ", "); name != NULL; name = strtok(NULL, ", ")) {
		if (strcmp(name, "or") == 0)
			continue;
		struct warnings none = { 0 };

		config_defaults(&cfg);
		snprintf(word, sizeof(word), "test_fault=%s", name);
		cmdline_parse(word, &cfg, names, NNAMES, record, &none);
		if (none.count != 0 || cfg.test_fault == TEST_FAULT_NONE ||
		    cfg.test_fault > TEST_FAULT_HAMMER_WEAK || named[cfg.test_fault])
			fail_msg("\"%s\" listed in \"%s\": %d warnings, hook %d", word,
				 w.first_why, none.count, (int)cfg.test_fault);
		named[cfg.test_fault] = true;
	}
	for (int f = TEST_FAULT_NONE + 1; f <= TEST_FAULT_HAMMER_WEAK; f++)
		if (!named[f])
			fail_msg("hook %d is missing from \"%s\"", f, w.first_why);
}

static void check_sane(const struct config *cfg, const char *what)
{
	bool ok = cfg->serial_port <= 3 && cfg->serial_baud >= 50 &&
		  cfg->serial_baud <= 115200 && 115200 % cfg->serial_baud == 0 &&
		  cfg->passes <= CMDLINE_MAX_PASSES &&
		  cfg->ntests <= CMDLINE_MAX_TESTS &&
		  (cfg->onexit == ONEXIT_HALT || cfg->onexit == ONEXIT_REBOOT ||
		   cfg->onexit == ONEXIT_QEMU || cfg->onexit == ONEXIT_POWEROFF) &&
		  cfg->bitfade_s <= CMDLINE_MAX_BITFADE &&
		  cfg->patterns >= 1 && cfg->patterns <= BADRAM_MAX_PAIRS &&
		  cfg->holes >= 1 && cfg->holes <= CMDLINE_MAX_HOLES &&
		  cfg->cpus <= CMDLINE_MAX_CPUS && cfg->test_fault <= TEST_FAULT_HAMMER_WEAK;

	for (size_t i = 0; ok && i < cfg->ntests; i++)
		ok = cfg->tests[i] < NNAMES;
	if (!ok)
		fail_msg("%s: config out of range", what);
}

static void count_only(void *ctx, const char *word, size_t word_len,
		       const char *why)
{
	(void)word;
	(void)why;
	if (word_len == 0)
		fail_msg("empty warned word");
	(*(unsigned long *)ctx)++;
}

static void test_fuzz(void **state)
{
	(void)state;
	static const char *const pieces[] = {
		"console=", "ttyS", "tty0", ",", "115200", "n8", "passes=",
		"tests=", "walk", "mats", "onexit=", "qemu", "=", " ", "\t",
		"0x", "9", "/", ".elf", "\xff", "e7",
	};
	size_t size = 1 << 16;
	char *buf = malloc(size + 1);
	struct config cfg;
	unsigned long nwarn;

	assert_non_null(buf);
	srand(1234);
	for (int round = 0; round < 3000; round++) {
		size_t len = (size_t)rand() % 200;

		if (round % 2 == 0) {
			for (size_t i = 0; i < len; i++)
				buf[i] = (char)(rand() % 256);
		} else {
			size_t i = 0;

			while (i < len) {
				const char *p = pieces[rand() % (int)(sizeof(pieces) / sizeof(pieces[0]))];

				while (*p != '\0' && i < len)
					buf[i++] = *p++;
			}
		}
		buf[len] = '\0';  // embedded NULs end the line early
		config_defaults(&cfg);
		nwarn = 0;
		cmdline_parse(buf, &cfg, names, NNAMES, count_only, &nwarn);
		check_sane(&cfg, "random line");
	}

	// One word as long as the buffer.
	for (size_t i = 0; i < size; i++)
		buf[i] = 'a';
	buf[size] = '\0';
	nwarn = 0;
	cmdline_parse(buf, &cfg, names, NNAMES, count_only, &nwarn);
	assert_int_equal(nwarn, 1);
	mem_copy(buf, "tests=", 6);
	nwarn = 0;
	cmdline_parse(buf, &cfg, names, NNAMES, count_only, &nwarn);
	assert_int_equal(nwarn, 1);
	mem_copy(buf, "console=ttyS0,", 14);
	cmdline_parse(buf, &cfg, names, NNAMES, count_only, &nwarn);
	check_sane(&cfg, "long words");

	// 10 000 words.
	size_t pos = 0;
	for (int i = 0; i < 10000; i++) {
		static const char word[] = "x=1 ";

		mem_copy(buf + pos, word, 4);
		pos += 4;
	}
	buf[pos] = '\0';
	nwarn = 0;
	cmdline_parse(buf, &cfg, names, NNAMES, count_only, &nwarn);
	assert_int_equal(nwarn, 10000);
	free(buf);
}

// The onexit= words, as the JSON line names the setting.
static void test_onexit_names(void **state)
{
	(void)state;
	assert_string_equal(cmdline_onexit_name(ONEXIT_HALT), "halt");
	assert_string_equal(cmdline_onexit_name(ONEXIT_REBOOT), "reboot");
	assert_string_equal(cmdline_onexit_name(ONEXIT_QEMU), "qemu");
	assert_string_equal(cmdline_onexit_name(ONEXIT_POWEROFF), "poweroff");
	assert_string_equal(cmdline_onexit_name((enum onexit)99), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_baud_rates),
		cmocka_unit_test(test_null_warn),
		cmocka_unit_test(test_long_name_list),
		cmocka_unit_test(test_fault_warning_names_every_hook),
		cmocka_unit_test(test_fuzz),
		cmocka_unit_test(test_onexit_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
