// SPDX-License-Identifier: GPL-2.0-or-later
// The fuzz target of ramsift-fold's input reader: the program itself
// (tools/ramsift-fold.c, its main renamed), run on one input as its
// standard input, so that every format it reads is reached the way a user
// reaches it: ramsift logs and their ERROR lines, memtest86+ error rows,
// bare addresses (EDAC, rasdaemon), comments, and whatever else a file
// holds. Its output is captured and checked (fail.h's FAIL_IF if not); the
// input format and the checks are above LLVMFuzzerTestOneInput. Built by
// clang with -fsanitize=fuzzer (make fuzz-foldinput), or by gcc with
// tests/fuzz/replay.c's main (make check-fuzz-corpus).
#include <sanitizer/asan_interface.h>
#include <stdlib.h>

static void *fuzz_malloc(size_t n);
static void fuzz_free(void *p);

#define main ramsift_fold_main
#define malloc fuzz_malloc
#define free fuzz_free
#include "../../tools/ramsift-fold.c"
#undef main
#undef malloc
#undef free

#include "fail.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

// ramsift-fold allocates its fold's scratch, 3 MB and more, on every run;
// ASan maps such a block afresh each time and unmaps it from quarantine,
// which took 60 % of a run. One big block is kept from run to run instead,
// poisoned except for the bytes handed out, so that ASan still reports an
// access past them or after their free (as use-after-poison). What ASan did
// besides is done here: a second free aborts, a block not freed by the end
// of a run fails it (LeakSanitizer would have), and the first 4 KiB handed
// out are filled with ASan's 0xbe, not the last run's data. Lost: a pointer
// kept past its free and used after the block is handed out again (ASan's
// quarantine would keep the two apart).
#define BIG_BLOCK (1u << 20)
static struct {
	void *p;
	size_t cap;
	bool used;
} big;

static void *fuzz_malloc(size_t n)
{
	if (n < BIG_BLOCK || big.used)
		return malloc(n);
	if (big.cap < n) {
		free(big.p);
		big.p = malloc(n);
		big.cap = big.p ? n : 0;
		if (!big.p)
			return NULL;
	}
	big.used = true;
	ASAN_POISON_MEMORY_REGION(big.p, big.cap);
	ASAN_UNPOISON_MEMORY_REGION(big.p, n);
	memset(big.p, 0xbe, n < 4096 ? n : 4096);
	return big.p;
}

static void fuzz_free(void *p)
{
	if (p == NULL || p != big.p) {
		free(p);
		return;
	}
	if (!big.used) {
		fprintf(stderr, "fuzz_foldinput: ramsift-fold freed its big block twice\n");
		abort();
	}
	big.used = false;
	ASAN_POISON_MEMORY_REGION(big.p, big.cap);
}

static void check_pages(const char *out)
{
	uint64_t prev = 0;
	bool first = true;

	for (const char *p = out; *p; p = strchr(p, '\n') + 1) {
		char *end;
		uint64_t a = strtoull(p, &end, 16);
		FAIL_IF(strncmp(p, "0x", 2) != 0 || *end != '\n' || a % PAGE_SIZE || a >= RANGE_MAX_ADDR ||
			(!first && a <= prev));
		prev = a;
		first = false;
	}
}

// With every failing page outside the RAM ranges (status 1, named on
// standard error) memmap= has nothing to reserve and is left out.
static void check_all(const char *out, int status)
{
	static const char *const starts[] = { "badram=", "GRUB_BADRAM=\"", "memmap=", "fold: " };
	size_t n = 0;

	for (const char *p = out; *p; p = strchr(p, '\n') + 1, n++) {
		if (n == 2 && status == 1 && strncmp(p, "fold: ", 6) == 0)
			n++;
		FAIL_IF(n >= 4 || strncmp(p, starts[n], strlen(starts[n])) != 0 || !strchr(p, '\n'));
	}
	FAIL_IF(n != 0 && n != 4);
}

// An input is one control byte, then the file:
//   bits 0-2  --format: all, badram, grub, memmap, pages, json, windows,
//             offline;
//   bit 3     --uefi;
//   bit 4     --patterns 2 --holes 3 (else the defaults);
//   bit 5     --ram 0-640K,1M-3G,4G-5G (else the program's default).
// Checked: it returns 0, 1 or 3 (a log whose capped ERROR lines it cannot
// complete; 2 is a usage error, and the options are valid); with --format
// pages every line is a page address below 2^52, ascending; with --format
// all the lines are badram=, GRUB_BADRAM=, memmap= and fold:, in that order
// (memmap= left out when it has nothing to reserve), or none. Its
// complaints go to /dev/null; the sanitizers still report on descriptor 2.
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const formats[] = { "all", "badram", "grub", "memmap", "pages", "json", "windows",
					       "offline" };
	char *argv[12] = { "ramsift-fold", "--format" }, *out = NULL;
	int argc = 3;
	size_t out_len = 0;

	if (size == 0)
		return 0;
	uint8_t ctl = data[0];
	argv[2] = (char *)formats[ctl & 7];
	if (ctl & 8)
		argv[argc++] = "--uefi";
	if (ctl & 16) {
		argv[argc++] = "--patterns";
		argv[argc++] = "2";
		argv[argc++] = "--holes";
		argv[argc++] = "3";
	}
	if (ctl & 32) {
		argv[argc++] = "--ram";
		argv[argc++] = "0-640K,1M-3G,4G-5G";
	}
	argv[argc] = NULL;

	FILE *saved_in = stdin, *saved_out = stdout, *saved_err = stderr;
	// fmemopen wants at least a byte: an empty file is /dev/null.
	stdin = size > 1 ? fmemopen((void *)(data + 1), size - 1, "r") : fopen("/dev/null", "r");
	stdout = open_memstream(&out, &out_len);
	stderr = fopen("/dev/null", "w");
	FAIL_IF(!stdin || !stdout || !stderr);
	int status = ramsift_fold_main(argc, argv);
	fclose(stdin);
	fclose(stdout);
	fclose(stderr);
	stdin = saved_in;
	stdout = saved_out;
	stderr = saved_err;

	FAIL_IF(big.used);	// its big block never freed: a leak
	FAIL_IF(status != 0 && status != 1 && status != 3);
	if (strcmp(argv[2], "pages") == 0)
		check_pages(out);
	if (strcmp(argv[2], "all") == 0)
		check_all(out, status);
	free(out);
	return 0;
}
