// SPDX-License-Identifier: GPL-2.0-or-later
// ramsift-fold: fold failing physical addresses into GRUB badram pairs and a
// Linux memmap= line on the host, with the same lib/ code the tester runs;
// or write them for Windows' bcdedit or a running Linux's hard_offline_page.
// Reads bare hex addresses, ramsift ERROR lines and memtest86+ 6.x error
// rows from files or stdin, so an old log can be refolded with other budgets
// or addresses from Linux EDAC/rasdaemon folded. See --help.
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "badram/badram.h"
#include "escape.h"
#include "json.h"
#include "parse.h"

#define GIB (1ULL << 30)

// The --help text, a printf format: the budgets' ranges and defaults are
// filled in from the fold's constants (USAGE_ARGS), never written here.
#define USAGE \
"Usage: ramsift-fold [OPTION]... [FILE]...\n" \
"Fold failing physical addresses into at most K GRUB badram pairs that\n" \
"exclude the fewest good pages, and a Linux memmap= line.\n" \
"\n" \
"Input (standard input when no FILE is given, or for \"-\"), one per line:\n" \
"  - a bare hex address, with or without 0x (e.g. from EDAC/rasdaemon);\n" \
"  - a ramsift ERROR line: ERROR addr=0x... expected=... actual=... ...;\n" \
"  - a memtest86+ 6.x error row: CPU PASS TEST ADDRESS (SIZE) EXPECTED FOUND,\n" \
"    ADDRESS being the 12-or-more hex digits under \"Failing Address\".\n" \
"Blank lines and lines starting with '#' are ignored. An input that holds an\n" \
"ERROR line, a \"Failing Address\" header or the word ramsift is a log: its\n" \
"other lines are ignored, but for a ramsift log's \"usable\" lines, its RAM\n" \
"map (the default for --ram), and its offline: lines, which list the failing\n" \
"pages when errors= kept ERROR lines from the log. Otherwise any other line\n" \
"is reported with its file and line number and skipped.\n" \
"\n" \
"Options:\n" \
"  --patterns K       at most K addr,mask pairs, 1..%u (default %u)\n" \
"  --holes H          at most H holes cut into the memory map (default %u;\n" \
"                     Linux keeps only 128 e820 entries)\n" \
"  --ram RANGES       usable RAM, START-END[,START-END...] in bytes, END\n" \
"                     exclusive, each a number (0x for hex) with optional\n" \
"                     K/M/G/T suffix, e.g. 0-640K,1M-3G,4G-9G, each holding\n" \
"                     a whole 4 KiB page (default: a ramsift log's usable\n" \
"                     RAM, else one range from 0 to the highest failing\n" \
"                     address rounded up to a GiB)\n" \
"  --memmap-chars N   longest memmap= line (default %u; the kernel command\n" \
"                     line holds %u bytes in all)\n" \
"  --uefi             the pairs are for GRUB on UEFI only: drop the pair order\n" \
"                     and shapes GRUB 2.06 on BIOS needs to apply them all\n" \
"  --format F         all (default: badram=, GRUB_BADRAM=, memmap= and the\n" \
"                     summary), badram, grub, memmap, pages (the distinct\n" \
"                     failing page addresses), json (the fold as one JSON\n" \
"                     object, the keys of ramsift's json: line's \"fold\"),\n" \
"                     windows (the bcdedit commands for an elevated prompt:\n" \
"                     Windows' {badmemory} list of page frame numbers, then\n" \
"                     badmemoryaccess no) or offline (a shell script writing\n" \
"                     each page to /sys/devices/system/memory/\n" \
"                     hard_offline_page, for a running Linux, as root)\n" \
"  --help             show this text\n" \
"\n" \
"bcdedit /set replaces the whole list, so --format windows writes one command\n" \
"of at most 8191 characters (cmd.exe's limit): about 600 pages or more; the\n" \
"pages that do not fit are named on standard error.\n" \
"\n" \
"Exit status: 0 when every line parsed, 1 when some line did not or some\n" \
"failing address lies outside the RAM ranges (the rest is still folded), 2 on\n" \
"a usage or read error, 3 when a ramsift log's ERROR lines were capped by\n" \
"errors= and it lists not every failing page otherwise (nothing is printed:\n" \
"a fold of some pages would exclude too little).\n"
#define USAGE_ARGS (unsigned)BADRAM_MAX_PAIRS, (unsigned)BADRAM_DEFAULT_PAIRS, \
	(unsigned)BADRAM_DEFAULT_HOLES, (unsigned)BADRAM_DEFAULT_MEMMAP_CHARS, \
	(unsigned)BADRAM_MEMMAP_MAX_CHARS

struct options {
	struct badram_budget budget;
	struct range ram[64];
	size_t nram;
	const char *format;
};

struct addrs {
	uint64_t *a;
	size_t n, cap;
	uint64_t max;
};

// What a ramsift log says beyond its ERROR lines.
struct log_facts {
	struct range usable[64];         // its "usable" lines: the RAM map
	size_t nusable;
	unsigned long long unprinted;    // ERROR lines errors= kept from it
	struct addrs offline;            // the pages its offline: lines list
	bool offline_partial;            // they list only the lowest pages
	const char *name;                // the input that said so, for messages
};

static void add_addr(struct addrs *v, uint64_t a)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 1024;
		v->a = realloc(v->a, v->cap * sizeof(*v->a));
		if (v->a == NULL) {
			perror("ramsift-fold");
			exit(2);
		}
	}
	v->a[v->n++] = a;
	if (a > v->max)
		v->max = a;
}

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

enum parsed { LINE_ADDR, LINE_SKIP, LINE_BAD, LINE_BEYOND };

// Parse the hex digits s[0..len), with an optional 0x, into a physical
// address: LINE_ADDR, LINE_BEYOND for a number at or above 2^52 (no x86-64
// physical address), LINE_BAD for no hex number.
static enum parsed parse_hex_addr(const char *s, size_t len, uint64_t *out)
{
	char buf[24] = "0x";

	if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		len -= 2;
	}
	while (len > 1 && s[0] == '0') {	// leading zeros do not count towards 16 digits
		s++;
		len--;
	}
	if (len == 0)
		return LINE_BAD;
	for (size_t i = 0; i < len; i++)
		if (!is_hex(s[i]))
			return LINE_BAD;
	if (len > sizeof(buf) - 3)
		return LINE_BEYOND;
	memcpy(buf + 2, s, len);
	if (!parse_u64(buf, len + 2, out))
		return LINE_BEYOND;
	return *out < RANGE_MAX_ADDR ? LINE_ADDR : LINE_BEYOND;
}

// Split line into at most max whitespace-separated words.
static size_t words(char *line, char **w, size_t *wl, size_t max)
{
	size_t n = 0;
	char *p = line;

	while (*p && n < max) {
		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		if (!*p)
			break;
		w[n] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
			p++;
		wl[n] = (size_t)(p - w[n]);
		n++;
	}
	return n;
}

static bool is_decimal(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return len > 0;
}

static bool is_error_line(const char *line)
{
	const char *e = strstr(line, "ERROR");
	return e != NULL && strstr(e, "addr=") != NULL;
}

// Classify one line; for LINE_ADDR, *a gets the address.
static enum parsed parse_line(char *line, bool log, uint64_t *a)
{
	char *w[8];
	size_t wl[8];
	size_t n = words(line, w, wl, 8);

	if (n == 0 || w[0][0] == '#')
		return LINE_SKIP;
	if (is_error_line(line)) {
		const char *p = strstr(strstr(line, "ERROR"), "addr=") + 5;
		size_t len = strcspn(p, " \t\r\n");
		return parse_hex_addr(p, len, a);
	}
	// memtest86+ 6.x: " %2i   %4i   %2i   %09x%03x (%kB)  expected found"
	if (n >= 5 && is_decimal(w[0], wl[0]) && is_decimal(w[1], wl[1]) &&
	    is_decimal(w[2], wl[2]) && w[4][0] == '(' && wl[3] >= 12)
		return parse_hex_addr(w[3], wl[3], a);
	if (n == 1) {
		enum parsed p = parse_hex_addr(w[0], wl[0], a);
		if (p != LINE_BAD || !log)
			return p;
	}
	return log ? LINE_SKIP : LINE_BAD;
}

// Note what a ramsift log line says beyond ERROR lines into *lf: a
// "  usable 0xSTART-0xLAST SIZE" line, the count of ERROR lines errors= kept
// back, an "offline: echo 0xADDR > ..." page, and whether those lines list
// every failing page.
static void note_log_line(const char *line, const char *name, struct log_facts *lf)
{
	unsigned long long start, last, n;
	int end = 0;

	if (sscanf(line, "  usable 0x%llx-0x%llx %n", &start, &last, &end) == 2 && end > 0 &&
	    last >= start && last < RANGE_MAX_ADDR &&
	    lf->nusable < sizeof(lf->usable) / sizeof(lf->usable[0]))
		lf->usable[lf->nusable++] = (struct range){ start, last + 1 };
	else if (sscanf(line, "summary: %llu ERROR lines were not printed%n", &n, &end) == 1 && end > 0) {
		lf->unprinted += n;
		lf->name = name;
	} else if (sscanf(line, "offline: echo 0x%llx > %n", &start, &end) == 1 && end > 0 &&
		 start < RANGE_MAX_ADDR)
		add_addr(&lf->offline, start);
	else if (strncmp(line, "summary: the windows: and offline: lines list the lowest", 56) == 0)
		lf->offline_partial = true;
}

// line without its line end, escaped for the terminal (escape.h), cut to
// 200 bytes.
static const char *shown_line(const char *line)
{
	static char shown[200 * ESCAPE_MAX_PER_BYTE + 4];
	size_t len = strcspn(line, "\r\n"), n = len < 200 ? len : 200;

	escape_text(shown, sizeof(shown), line, n);
	if (n < len)
		strcat(shown, "...");
	return shown;
}

// Read one input; returns the number of bad lines.
static size_t read_input(FILE *f, const char *name, struct addrs *v, struct log_facts *lf)
{
	char **lines = NULL, *line = NULL;
	size_t nlines = 0, cap = 0, bad = 0, linecap = 0;
	bool log = false;

	while (getline(&line, &linecap, f) >= 0) {
		if (nlines == cap) {
			cap = cap ? 2 * cap : 1024;
			lines = realloc(lines, cap * sizeof(*lines));
		}
		lines[nlines++] = strdup(line);
		log |= is_error_line(line) || strstr(line, "Failing Address") ||
		       strstr(line, "ramsift");
	}
	free(line);
	if (ferror(f)) {	// a directory, an I/O error: not an empty input
		fprintf(stderr, "ramsift-fold: %s: %s\n", name, strerror(errno));
		exit(2);
	}
	for (size_t i = 0; i < nlines; i++) {
		uint64_t a;
		if (log)
			note_log_line(lines[i], name, lf);
		switch (parse_line(lines[i], log, &a)) {
		case LINE_ADDR:
			add_addr(v, a);
			break;
		case LINE_BAD:
			fprintf(stderr, "%s:%zu: not an address, ERROR line or memtest86+ row: %s\n",
				name, i + 1, shown_line(lines[i]));
			bad++;
			break;
		case LINE_BEYOND:
			fprintf(stderr, "%s:%zu: the address is at or beyond 2^52, the x86-64 physical "
				"address limit, so no RAM holds it (a corrupted line?): %s\n",
				name, i + 1, shown_line(lines[i]));
			bad++;
			break;
		case LINE_SKIP:
			break;
		}
		free(lines[i]);
	}
	free(lines);
	return bad;
}

// Sort ram[0..n) by start and merge overlaps: the fold wants them
// disjoint. Returns the new count.
static size_t merge_ranges(struct range *ram, size_t n)
{
	size_t m = 0;

	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && ram[j - 1].start > ram[j].start; j--) {
			struct range t = ram[j];
			ram[j] = ram[j - 1];
			ram[j - 1] = t;
		}
	for (size_t i = 0; i < n; i++) {
		if (m > 0 && ram[i].start <= ram[m - 1].end) {
			if (ram[i].end > ram[m - 1].end)
				ram[m - 1].end = ram[i].end;
		} else {
			ram[m++] = ram[i];
		}
	}
	return m;
}

// Each range is rounded inward to whole pages (the fold works in pages) and
// must keep one: "1-2" is no RAM.
static bool parse_ram(const char *arg, struct options *o)
{
	const char *p = arg;

	o->nram = 0;
	while (*p) {
		size_t len = strcspn(p, ","), dash;
		const char *d = memchr(p, '-', len);
		uint64_t s, e;
		if (d == NULL || o->nram == sizeof(o->ram) / sizeof(o->ram[0]))
			return false;
		dash = (size_t)(d - p);
		if (!parse_size(p, dash, &s) || !parse_size(d + 1, len - dash - 1, &e) ||
		    e > RANGE_MAX_ADDR || s > RANGE_MAX_ADDR - PAGE_SIZE)
			return false;
		s = (s + PAGE_SIZE - 1) & ~(uint64_t)(PAGE_SIZE - 1);
		e &= ~(uint64_t)(PAGE_SIZE - 1);
		if (s >= e)
			return false;
		o->ram[o->nram].start = s;
		o->ram[o->nram++].end = e;
		p += len + (p[len] == ',');
	}
	o->nram = merge_ranges(o->ram, o->nram);
	return o->nram > 0;
}

static bool parse_uint(const char *s, unsigned lo, unsigned hi, unsigned *out)
{
	uint64_t v;

	if (!parse_u64(s, strlen(s), &v) || v < lo || v > hi)
		return false;
	*out = (unsigned)v;
	return true;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

// The fold as one JSON object, written by lib/badram's writer: the keys of
// the "fold" member of ramsift's json: line.
static void print_json(const struct badram_result *r, bool uefi)
{
	static char buf[64 * 1024], scratch[BADRAM_LINE_MAX];
	struct json j;

	json_init(&j, buf, sizeof(buf));
	badram_json(&j, r, uefi ? "uefi" : "bios", scratch);
	if (!json_end(&j)) {
		fprintf(stderr, "ramsift-fold: the JSON object needs %zu bytes\n", j.n);
		exit(2);
	}
	puts(buf);
}

// All the distinct failing page addresses, ascending; *n gets how many.
static uint64_t *sorted_pages(const struct badram_table *t, size_t *n)
{
	uint64_t *p = malloc((t->n + 1) * sizeof(*p));

	if (p == NULL) {
		perror("ramsift-fold");
		exit(2);
	}
	*n = 0;
	for (uint64_t i = 0; i <= t->mask; i++)
		if (t->slot[i] != BADRAM_TABLE_EMPTY)
			p[(*n)++] = t->slot[i] << PAGE_SHIFT;
	qsort(p, *n, sizeof(*p), cmp_u64);
	return p;
}

static void print_windows(const struct badram_table *t)
{
	static char line[BADRAM_WINDOWS_LINE_MAX + 1];
	size_t n, listed;
	uint64_t *p = sorted_pages(t, &n);

	if (n) {
		badram_format_windows(line, sizeof(line), p, n, &listed);
		puts(line);
		puts(BADRAM_WINDOWS_ACCESS);
		if (listed < n)
			fprintf(stderr, "ramsift-fold: %zu failing pages from 0x%llx on do not fit the "
				"%u characters of one cmd.exe command and are not listed (bcdedit /set "
				"replaces the list: a second command would drop the first's)\n",
				n - listed, (unsigned long long)p[listed], BADRAM_WINDOWS_LINE_MAX);
	}
	free(p);
}

static void print_offline(const struct badram_table *t)
{
	char line[128];
	size_t n;
	uint64_t *p = sorted_pages(t, &n);

	for (size_t i = 0; i < n; i++) {
		badram_format_offline(line, sizeof(line), p[i]);
		puts(line);
	}
	free(p);
}

static void print_pages(const struct badram_table *t)
{
	size_t n;
	uint64_t *p = sorted_pages(t, &n);

	for (size_t i = 0; i < n; i++)
		printf("0x%llx\n", (unsigned long long)p[i]);
	free(p);
}

static void print_result(const struct options *o, const struct badram_table *t,
			 const struct badram_result *r)
{
	char line[BADRAM_LINE_MAX];
	bool all = strcmp(o->format, "all") == 0;

	if (strcmp(o->format, "json") == 0) {
		print_json(r, o->budget.uefi_only);
		return;
	}
	if (strcmp(o->format, "pages") == 0) {
		print_pages(t);
		return;
	}
	if (strcmp(o->format, "windows") == 0) {
		print_windows(t);
		return;
	}
	if (strcmp(o->format, "offline") == 0) {
		print_offline(t);
		return;
	}
	if (r->npairs == 0)
		return;
	bool memmap = r->nmemmap > 0;	// no failing page in RAM: nothing to reserve
	if (all || strcmp(o->format, "badram") == 0) {
		badram_format_badram(line, sizeof(line), r);
		puts(line);
	}
	if (all || strcmp(o->format, "grub") == 0) {
		badram_format_grub(line, sizeof(line), r);
		puts(line);
	}
	if (memmap && (all || strcmp(o->format, "memmap") == 0)) {
		badram_format_memmap(line, sizeof(line), r);
		puts(line);
	}
	if (all) {
		badram_format_summary(line, sizeof(line), r);
		puts(line);
	}
}

static int usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "ramsift-fold: %s: %s\nTry 'ramsift-fold --help'.\n", what, arg);
	return 2;
}

// usage_error for an option that wants a number in lo..hi.
static int range_error(const char *option, unsigned lo, unsigned hi, const char *arg)
{
	char what[64];

	snprintf(what, sizeof(what), "%s wants %u..%u", option, lo, hi);
	return usage_error(what, arg);
}

// Whether a is in one of ram[0..n).
static bool in_ram(const struct range *ram, size_t n, uint64_t a)
{
	for (size_t i = 0; i < n; i++)
		if (a >= ram[i].start && a < ram[i].end)
			return true;
	return false;
}

// The addresses outside ram[0..n), named on standard error; returns how many.
static size_t outside_ram(const struct addrs *v, const struct range *ram, size_t n)
{
	size_t out = 0;
	uint64_t first = 0;

	for (size_t i = 0; i < v->n; i++)
		if (!in_ram(ram, n, v->a[i]) && out++ == 0)
			first = v->a[i];
	if (out)
		fprintf(stderr, "ramsift-fold: failing addresses outside the RAM ranges: %zu (the "
			"first 0x%llx); memmap= cannot reserve them: give --ram the machine's whole "
			"RAM map\n", out, (unsigned long long)first);
	return out;
}

// A log whose ERROR lines errors= capped names only some failing pages: take
// its offline: lines when they list them all, else refuse (false: exit 3).
static bool complete_capped(struct addrs *v, const struct log_facts *lf)
{
	if (lf->unprinted == 0)
		return true;
	if (lf->offline.n == 0 || lf->offline_partial) {
		fprintf(stderr, "ramsift-fold: %s: %llu ERROR lines were not printed (errors= caps "
			"them), and the log lists not every failing page otherwise: a fold of the "
			"pages it names would exclude too little. Use the log's own badram=, "
			"GRUB_BADRAM= and memmap= lines, or run ramsift again with a larger errors=\n",
			lf->name, lf->unprinted);
		return false;
	}
	fprintf(stderr, "ramsift-fold: %s: %llu ERROR lines were not printed (errors= caps them); "
		"folding the %zu failing pages its offline: lines list instead\n",
		lf->name, lf->unprinted, lf->offline.n);
	for (size_t i = 0; i < lf->offline.n; i++)
		add_addr(v, lf->offline.a[i]);
	return true;
}

int main(int argc, char **argv)
{
	struct options o = { .budget = badram_budget_default(), .format = "all" };
	struct addrs v = { 0 };
	struct log_facts lf = { 0 };
	size_t bad = 0, nfiles = 0;
	static const char *formats[] = { "all", "badram", "grub", "memmap", "pages", "json", "windows",
					 "offline" };
	unsigned chars;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "--help") == 0) {
			printf(USAGE, USAGE_ARGS);
			return 0;
		} else if (strcmp(a, "--patterns") == 0) {
			if (val == NULL || !parse_uint(val, 1, BADRAM_MAX_PAIRS, &o.budget.pairs))
				return range_error(a, 1, BADRAM_MAX_PAIRS, val ? val : "(none)");
			i++;
		} else if (strcmp(a, "--holes") == 0) {
			if (val == NULL || !parse_uint(val, 1, UINT32_MAX, &o.budget.holes))
				return usage_error("--holes wants a count >= 1", val ? val : "(none)");
			i++;
		} else if (strcmp(a, "--memmap-chars") == 0) {
			if (val == NULL || !parse_uint(val, BADRAM_MEMMAP_MIN_CHARS, BADRAM_MEMMAP_MAX_CHARS, &chars))
				return range_error(a, BADRAM_MEMMAP_MIN_CHARS, BADRAM_MEMMAP_MAX_CHARS, val ? val : "(none)");
			o.budget.memmap_chars = chars;
			i++;
		} else if (strcmp(a, "--uefi") == 0) {
			o.budget.uefi_only = true;
		} else if (strcmp(a, "--ram") == 0) {
			if (val == NULL || !parse_ram(val, &o))
				return usage_error("--ram wants START-END[,START-END...], START below END, "
						   "each range holding a whole 4 KiB page, all below 2^52",
						   val ? val : "(none)");
			i++;
		} else if (strcmp(a, "--format") == 0) {
			bool ok = false;
			for (size_t k = 0; val && k < sizeof(formats) / sizeof(*formats); k++)
				ok |= strcmp(val, formats[k]) == 0;
			if (!ok)
				return usage_error("--format wants all, badram, grub, memmap, pages, json, "
						   "windows or offline",
						   val ? val : "(none)");
			o.format = val;
			i++;
		} else if (a[0] == '-' && a[1] == '-') {
			return usage_error("unknown option", a);
		}
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] == '-' && a[1] == '-') {
			i += strcmp(a, "--uefi") != 0;      // skip the option's value
			continue;
		}
		nfiles++;
		if (strcmp(a, "-") == 0) {
			bad += read_input(stdin, "<stdin>", &v, &lf);
			continue;
		}
		FILE *f = fopen(a, "r");
		if (f == NULL) {
			fprintf(stderr, "ramsift-fold: %s: %s\n", a, strerror(errno));
			return 2;
		}
		bad += read_input(f, a, &v, &lf);
		fclose(f);
	}
	if (nfiles == 0)
		bad += read_input(stdin, "<stdin>", &v, &lf);
	if (!complete_capped(&v, &lf)) {
		free(v.a);
		free(lf.offline.a);
		return 3;
	}
	if (v.n == 0)
		fprintf(stderr, "ramsift-fold: the input names no failing address: nothing to exclude\n");

	// A table twice the addresses' count (a power of two) never overflows.
	size_t slots = 1024;
	while (slots < 2 * v.n)
		slots *= 2;
	uint64_t *slot = malloc(slots * sizeof(*slot));
	size_t sbytes = BADRAM_FOLD_SCRATCH_BYTES(slots);
	void *scratch = malloc(sbytes);
	struct badram_table t;
	struct badram_result r;
	if (slot == NULL || scratch == NULL) {
		perror("ramsift-fold");
		return 2;
	}
	badram_table_init(&t, slot, slots);
	for (size_t i = 0; i < v.n; i++)
		badram_table_add(&t, v.a[i]);
	if (o.nram == 0 && lf.nusable > 0) {
		memcpy(o.ram, lf.usable, lf.nusable * sizeof(*lf.usable));
		o.nram = merge_ranges(o.ram, lf.nusable);
	}
	if (o.nram == 0 && v.n > 0) {
		o.ram[0].start = 0;
		o.ram[0].end = (v.max / GIB + 1) * GIB;
		o.nram = 1;
	}
	bad += outside_ram(&v, o.ram, o.nram);
	badram_fold(&t, o.ram, o.nram, o.budget, scratch, sbytes, &r);
	print_result(&o, &t, &r);
	free(slot);
	free(scratch);
	free(v.a);
	free(lf.offline.a);
	return bad ? 1 : 0;
}
