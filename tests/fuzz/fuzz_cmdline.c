// SPDX-License-Identifier: GPL-2.0-or-later
// The fuzz target of lib/boot/cmdline.c and the number parsers it uses
// (lib/parse.c). An input is a command line as a loader passes it: its bytes
// up to the first NUL, at most BOOTINFO_CMDLINE_MAX - 1 (what struct
// bootinfo keeps), parsed against the real test table (lib/memtest). After
// the parse, what cmdline.h promises is checked (fail.h's FAIL_IF if not): every
// setting in its documented range, the test list made of valid indices,
// every warning's word a non-empty run of the line without a separator and
// its reason a terminated sentence. Then parse_u64 is held against strtoull
// on the input's first word (a number parses to the C library's value, or
// is rejected, as strtoull would reject it under parse.h's rules), and
// parse_size against parse_u64: the same number without a unit, the number
// shifted with K, M, G or T (and "iB") appended. Built by clang with -fsanitize=fuzzer (make fuzz-cmdline), or by gcc
// with tests/fuzz/replay.c's main (make check-fuzz-corpus).
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "badram/badram.h"
#include "boot/cmdline.h"
#include "memtest/memtest.h"
#include "parse.h"
#include "uart.h"
#include "fail.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char line[BOOTINFO_CMDLINE_MAX];
static size_t line_len;

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static void warn_check(void *ctx, const char *word, size_t word_len, const char *why)
{
	(void)ctx;
	FAIL_IF(word < line || word_len == 0 || word_len > line_len || (size_t)(word - line) > line_len - word_len);
	for (size_t i = 0; i < word_len; i++)
		FAIL_IF(is_space(word[i]) || word[i] == '\0');
	size_t n = strnlen(why, 300);
	FAIL_IF(n == 0 || n >= 300);
}

static void check_config(const struct config *c)
{
	FAIL_IF(c->serial_port > 3 || !uart_baud_valid(c->serial_baud) || c->passes > CMDLINE_MAX_PASSES ||
		c->ntests > CMDLINE_MAX_TESTS || c->onexit > ONEXIT_POWEROFF ||
		c->bitfade_s > CMDLINE_MAX_BITFADE || c->patterns < 1 || c->patterns > BADRAM_MAX_PAIRS ||
		c->holes < 1 || c->holes > CMDLINE_MAX_HOLES || c->cpus > CMDLINE_MAX_CPUS ||
		c->test_fault > TEST_FAULT_NVRAM_EFI32 || (!c->serial && !c->screen));
	for (size_t i = 0; i < c->ntests; i++)
		FAIL_IF(c->tests[i] >= mt_ntests);
}

// strtoull as parse_u64 documents it: decimal or 0x hex digits, nothing
// else (strtoull itself takes a sign and spaces).
static bool reference_u64(const char *s, size_t len, uint64_t *out)
{
	bool hex = len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');

	if (len == 0)
		return false;
	for (size_t i = hex ? 2 : 0; i < len; i++)
		if (!(hex ? isxdigit((unsigned char)s[i]) : isdigit((unsigned char)s[i])))
			return false;
	// Any length: leading zeros are digits too (a 133-digit 0...0800 fits).
	char *copy = strndup(s, len), *end;
	errno = 0;
	*out = strtoull(copy, &end, hex ? 16 : 10);
	bool ok = errno == 0 && *end == '\0';
	free(copy);
	return ok;
}

static void check_numbers(const char *s, size_t len)
{
	static const char units[] = "KMGT";
	uint64_t got = 7, want, size;
	bool ok = parse_u64(s, len, &got);

	FAIL_IF(ok != reference_u64(s, len, &want) || (ok && got != want) || (!ok && got != 7));
	// A size without a unit is the number; with one, the number shifted.
	FAIL_IF(parse_size(s, len, &size) ? ok && size != got : ok);
	if (!ok || len + 3 >= sizeof(line))
		return;
	char sized[BOOTINFO_CMDLINE_MAX];
	memcpy(sized, s, len);
	memcpy(sized + len + 1, "iB", 2);
	for (unsigned u = 0; u < 4; u++) {
		unsigned shift = 10 * (u + 1);
		sized[len] = units[u];
		bool fits = got <= UINT64_MAX >> shift;
		for (size_t n = len + 1; n <= len + 3; n += 2)
			FAIL_IF(parse_size(sized, n, &size) != fits || (fits && size != got << shift));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *names[MAX_TESTS];
	struct config cfg;

	for (size_t i = 0; i < mt_ntests; i++)
		names[i] = mt_tests[i].name;
	line_len = strnlen((const char *)data, size < sizeof(line) ? size : sizeof(line) - 1);
	memcpy(line, data, line_len);
	line[line_len] = '\0';

	config_defaults(&cfg);
	check_config(&cfg);
	cmdline_parse(line, &cfg, names, mt_ntests, warn_check, NULL);
	check_config(&cfg);

	size_t first = strcspn(line, " \t\r\n");
	check_numbers(line, first);
	return 0;
}
