// SPDX-License-Identifier: GPL-2.0-or-later
// The command-line parser declared in cmdline.h. The line is walked word by
// word in place (no copies, no length limit); each "key=value" word is
// dispatched through the keys[] table. Handlers validate the whole value
// before changing cfg, so a rejected value leaves the setting untouched.
#include "badram/badram.h"
#include "boot/cmdline.h"
#include "fmt.h"
#include "parse.h"
#include "memstr.h"
#include "uart.h"

// cfg->tests holds indices into the name table as uint8_t.
_Static_assert(MAX_TESTS <= UINT8_MAX + 1, "test indices fit in a uint8_t");

struct parser {
	struct config *cfg;
	const char *const *names;
	size_t nnames;
	cmdline_warn_fn warn;
	void *ctx;
	const char *word;       // the current "key=value" word
	size_t word_len;
	bool console_seen;      // a valid console= has reset the defaults
};

// Messages that list choices are built on the stack; longer lists are cut
// with "...". 256 bytes of a 16 KiB stack is affordable on the setup path.
#define MSG_LEN 256

struct msg {
	char buf[MSG_LEN];
	size_t len;
};

static void msg_add(struct msg *m, const char *s, size_t n)
{
	static const char more[] = "...";

	if (m->len > MSG_LEN - sizeof(more))
		return;         // already cut

	size_t room = MSG_LEN - sizeof(more) - m->len;  // keep space for "..."

	if (n > room) {
		mem_copy(m->buf + m->len, more, sizeof(more));
		m->len = MSG_LEN;
		return;
	}
	mem_copy(m->buf + m->len, s, n);
	m->len += n;
	m->buf[m->len] = '\0';
}

static void msg_str(struct msg *m, const char *s)
{
	msg_add(m, s, str_len(s));
}

static void warn(const struct parser *p, const char *why)
{
	if (p->warn != NULL)
		p->warn(p->ctx, p->word, p->word_len, why);
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// ---- console= ----------------------------------------------------------

// Parse the ",115200n8" options after ttySx. Returns the baud to use and
// warns about anything it had to change.
static uint32_t serial_options(const struct parser *p, const char *s, size_t n)
{
	size_t i = 0;
	uint64_t baud;

	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	if (!parse_u64(s, i, &baud)) {
		warn(p, "bad serial options; expected ttySN,BAUD[n8], e.g. ttyS0,115200n8; using 115200 8N1");
		return UART_BAUD_DEFAULT;
	}
	// Optional parity letter, data bits, and Linux's 'r' (RTS/CTS).
	char parity = i < n ? s[i++] : 'n';
	char bits = i < n ? s[i++] : '8';
	if (i < n && s[i] == 'r')
		i++;
	bool format_ok = (parity == 'n' || parity == 'o' || parity == 'e') &&
			 (bits == '7' || bits == '8');
	if (i != n || !format_ok) {
		warn(p, "bad serial options; expected ttySN,BAUD[n8], e.g. ttyS0,115200n8; using 115200 8N1");
		return UART_BAUD_DEFAULT;
	}
	if (parity != 'n' || bits != '8')
		warn(p, "only 8 data bits, no parity (n8) is supported; using 8N1");
	if (!uart_baud_valid(baud)) {
		warn(p, "unsupported baud rate; must be 115200/N (115200, 57600, 38400, 19200, 9600, ...); using 115200");
		return UART_BAUD_DEFAULT;
	}
	return (uint32_t)baud;
}

static void set_console(struct parser *p, const char *v, size_t n, const void *arg)
{
	(void)arg;
	struct config *cfg = p->cfg;
	bool is_serial = n >= 5 && str_n_eq(v, "ttyS", 4) && v[4] >= '0' &&
			 v[4] <= '3' && (n == 5 || v[5] == ',');
	bool is_screen = str_eq_n(v, n, "tty0") || str_eq_n(v, n, "tty1");

	if (!is_serial && !is_screen) {
		warn(p, "unknown console, ignored; accepted: ttyS0..ttyS3[,BAUD[n8]], tty0, tty1");
		return;
	}
	if (!p->console_seen) {
		// The first valid console= replaces the default set.
		cfg->serial = false;
		cfg->screen = false;
		p->console_seen = true;
	}
	if (is_screen) {
		cfg->screen = true;
		return;
	}
	uint8_t port = (uint8_t)(v[4] - '0');
	uint32_t baud = UART_BAUD_DEFAULT;

	if (n > 5)
		baud = serial_options(p, v + 6, n - 6);
	if (cfg->serial && cfg->serial_port != port) {
		char why[80];
		fmt_snprintf(why, sizeof(why), "one serial console only: ttyS%u is used, not the "
			     "earlier ttyS%u", port, cfg->serial_port);
		warn(p, why);
	}
	cfg->serial = true;
	cfg->serial_port = port;
	cfg->serial_baud = baud;
}

// ---- numbers: passes= errors= bitfade= seed= patterns= holes= -------------

// A numeric key: its range, the usage a warning quotes, and where it goes.
// The usage is what, then (unless unit is NULL) the range min..max formatted
// from the constants, then unit: "passes= takes " "0..1000000" " (0 = ...)".
struct number {
	uint64_t min, max;
	const char *what;
	const char *unit;
	size_t offset;          // of a uint32_t in struct config (seed: uint64_t)
};

#define U32_FIELD(f) offsetof(struct config, f)

static const struct number passes_num = { 0, CMDLINE_MAX_PASSES,
	"passes= takes ", " (0 = until stopped)", U32_FIELD(passes) };
static const struct number errors_num = { 0, UINT32_MAX,
	"errors= takes ", " ERROR lines to print", U32_FIELD(error_lines) };
static const struct number bitfade_num = { 0, CMDLINE_MAX_BITFADE,
	"bitfade= takes ", " seconds (0 = skip the wait)", U32_FIELD(bitfade_s) };
static const struct number hammer_num = { 1, CMDLINE_MAX_HAMMER,
	"hammer= takes ", " seconds of row hammering a pass (the hammer test)", U32_FIELD(hammer_s) };
static const struct number patterns_num = { 1, BADRAM_MAX_PAIRS,
	"patterns= takes ", " BadRAM pairs", U32_FIELD(patterns) };
static const struct number holes_num = { 1, CMDLINE_MAX_HOLES,
	"holes= takes ", " holes in the memory map", U32_FIELD(holes) };
static const struct number cpus_num = { 0, CMDLINE_MAX_CPUS,
	"cpus= takes ", " (the CPUs that test, the BSP included; 0 = all)", U32_FIELD(cpus) };
static const struct number seed_num = { 0, UINT64_MAX,
	"seed= takes a 64-bit number, decimal or 0x hex", NULL, offsetof(struct config, seed) };

// Parse v[0..n) as a number in num's range; otherwise warn with its usage
// ("passes= takes 0..1000000 ...") and return false.
static bool parse_number(struct parser *p, const char *v, size_t n, const struct number *num,
			 uint64_t *out)
{
	char why[MSG_LEN];
	uint64_t x;
	bool ok = parse_u64(v, n, &x);

	if (ok && x >= num->min && x <= num->max) {
		*out = x;
		return true;
	}
	if (num->unit != NULL)
		fmt_snprintf(why, sizeof(why), "%s%s%llu..%llu%s",
			     ok ? "out of range, ignored; " : "not a number, ignored; ",
			     num->what, (unsigned long long)num->min, (unsigned long long)num->max,
			     num->unit);
	else
		fmt_snprintf(why, sizeof(why), "%s%s",
			     ok ? "out of range, ignored; " : "not a number, ignored; ",
			     num->what);
	warn(p, why);
	return false;
}

static void set_u32(struct parser *p, const char *v, size_t n, const void *arg)
{
	const struct number *num = arg;
	uint64_t x;

	if (parse_number(p, v, n, num, &x))
		*(uint32_t *)((char *)p->cfg + num->offset) = (uint32_t)x;
}

static void set_seed(struct parser *p, const char *v, size_t n, const void *arg)
{
	uint64_t x;

	if (parse_number(p, v, n, arg, &x)) {
		p->cfg->seed = x;
		p->cfg->seed_set = true;
	}
}

// ---- tests= ------------------------------------------------------------

// others_run: some name of the word is known, so this one alone is left out;
// else the whole word is ignored.
static void warn_test_name(const struct parser *p, const char *name, size_t n, bool others_run)
{
	struct msg m = { .len = 0 };

	msg_str(&m, n == 0 ? "empty test name" : "unknown test \"");
	if (n != 0) {
		msg_add(&m, name, n);
		msg_str(&m, "\"");
	}
	msg_str(&m, others_run ? " left out, the others run" : ", word ignored");
	msg_str(&m, "; known: all");
	for (size_t i = 0; i < p->nnames && i < MAX_TESTS; i++) {
		msg_str(&m, " ");
		msg_str(&m, p->names[i]);
	}
	warn(p, m.buf);
}

// Whether v[0..n) names a test or "all".
static bool test_known(const struct parser *p, const char *v, size_t n)
{
	if (str_eq_n(v, n, "all"))
		return true;
	for (size_t idx = 0; idx < p->nnames && idx < MAX_TESTS; idx++)
		if (str_eq_n(v, n, p->names[idx]))
			return true;
	return false;
}

// Whether any comma-separated name of v[0..n) is known.
static bool any_test_known(const struct parser *p, const char *v, size_t n)
{
	for (size_t i = 0, start = 0; i <= n; start = ++i) {
		while (i < n && v[i] != ',')
			i++;
		if (test_known(p, v + start, i - start))
			return true;
	}
	return false;
}

static void set_tests(struct parser *p, const char *v, size_t n, const void *arg)
{
	(void)arg;
	uint8_t list[CMDLINE_MAX_TESTS];
	size_t count = 0;
	bool too_many = false, others_run = any_test_known(p, v, n);
	size_t i = 0;

	// Each iteration takes one comma-separated name; a trailing comma
	// yields a final empty name, which is reported like any other.
	while (i <= n) {
		size_t start = i;
		size_t idx;

		while (i < n && v[i] != ',')
			i++;
		// "all": every known test, in table order.
		if (str_eq_n(v + start, i - start, "all")) {
			for (idx = 0; idx < p->nnames && idx < MAX_TESTS; idx++) {
				if (count < CMDLINE_MAX_TESTS)
					list[count++] = (uint8_t)idx;
				else
					too_many = true;
			}
			i++;
			continue;
		}
		for (idx = 0; idx < p->nnames && idx < MAX_TESTS; idx++) {
			if (str_eq_n(v + start, i - start, p->names[idx]))
				break;
		}
		if (idx == p->nnames || idx >= MAX_TESTS)
			warn_test_name(p, v + start, i - start, others_run);
		else if (count < CMDLINE_MAX_TESTS)
			list[count++] = (uint8_t)idx;
		else
			too_many = true;
		i++;    // skip the comma (or step past the end)
	}
	if (too_many) {
		char why[64];

		fmt_snprintf(why, sizeof(why), "too many tests; only the first %u are run",
			     CMDLINE_MAX_TESTS);
		warn(p, why);
	}
	if (count == 0)
		return;
	mem_copy(p->cfg->tests, list, count);
	p->cfg->ntests = count;
}

// ---- onexit= -----------------------------------------------------------

static const char *const onexit_names[] = {
	[ONEXIT_HALT] = "halt",
	[ONEXIT_REBOOT] = "reboot",
	[ONEXIT_QEMU] = "qemu",
	[ONEXIT_POWEROFF] = "poweroff",
};

const char *cmdline_onexit_name(enum onexit e)
{
	return (unsigned)e < sizeof(onexit_names) / sizeof(onexit_names[0]) ? onexit_names[e] : "?";
}

static void set_onexit(struct parser *p, const char *v, size_t n, const void *arg)
{
	(void)arg;
	for (size_t i = 0; i < sizeof(onexit_names) / sizeof(onexit_names[0]); i++) {
		if (str_eq_n(v, n, onexit_names[i])) {
			p->cfg->onexit = (enum onexit)i;
			return;
		}
	}
	warn(p, "ignored: must be halt, reboot, poweroff or qemu");
}

// ---- nvram= usb= ------------------------------------------------------

// A key that is on or off: the config's bool at offset, and the warning
// for any other value.
struct on_off {
	size_t offset;
	const char *why;
};

static const struct on_off nvram_switch = {
	offsetof(struct config, nvram),
	"ignored: must be on or off (keep the result in the UEFI variable RamsiftResult; on by default)"
};
static const struct on_off usb_switch = {
	offsetof(struct config, usb),
	"ignored: must be on or off (read USB keyboards; on by default; off leaves every USB "
	"controller as the firmware left it)"
};

static void set_on_off(struct parser *p, const char *v, size_t n, const void *arg)
{
	const struct on_off *sw = arg;
	bool *field = (bool *)((char *)p->cfg + sw->offset);

	if (str_eq_n(v, n, "on"))
		*field = true;
	else if (str_eq_n(v, n, "off"))
		*field = false;
	else
		warn(p, sw->why);
}

// ---- dram= ------------------------------------------------------------

static const char *const dram_names[] = {
	[DRAM_MODE_ON] = "on",
	[DRAM_MODE_OFF] = "off",
	[DRAM_MODE_FORCE] = "force",
};

const char *cmdline_dram_name(enum dram_mode m)
{
	return (unsigned)m < sizeof(dram_names) / sizeof(dram_names[0]) ? dram_names[m] : "?";
}

static void set_dram(struct parser *p, const char *v, size_t n, const void *arg)
{
	(void)arg;
	for (size_t i = 0; i < sizeof(dram_names) / sizeof(dram_names[0]); i++) {
		if (str_eq_n(v, n, dram_names[i])) {
			p->cfg->dram = (enum dram_mode)i;
			return;
		}
	}
	warn(p, "ignored: must be on, off or force (learn the DRAM's geometry from timing "
		"before the tests; on by default, on real hardware only)");
}

// ---- test_fault= ------------------------------------------------------

static const char *const test_fault_names[] = {
	[TEST_FAULT_AP_ABSENT] = "ap-absent",
	[TEST_FAULT_AP_ABSENT_MANY] = "ap-absent-many",
	[TEST_FAULT_AP_UD2] = "ap-ud2",
	[TEST_FAULT_AP_HANG] = "ap-hang",
	[TEST_FAULT_AP_HANG_END] = "ap-hang-end",
	[TEST_FAULT_AP_STACK] = "ap-stack",
	[TEST_FAULT_NVRAM_FAULT] = "nvram-fault",
	[TEST_FAULT_NVRAM_GET_FAULT] = "nvram-get-fault",
	[TEST_FAULT_NVRAM_SET_ERROR] = "nvram-set-error",
	[TEST_FAULT_NVRAM_QUERY_ERROR] = "nvram-query-error",
	[TEST_FAULT_NVRAM_NO_QUERY] = "nvram-no-query",
	[TEST_FAULT_NVRAM_EFI32] = "nvram-efi32",
	[TEST_FAULT_HAMMER_WEAK] = "hammer-weak",
};

#define TEST_FAULT_NAMES (sizeof(test_fault_names) / sizeof(test_fault_names[0]))

// Lists the table, so a new hook is named without another edit.
static void warn_test_fault(const struct parser *p)
{
	struct msg m = { .len = 0 };

	msg_str(&m, "ignored: must be ");
	for (size_t i = TEST_FAULT_NONE + 1; i < TEST_FAULT_NAMES; i++) {
		msg_str(&m, test_fault_names[i]);
		msg_str(&m, i + 2 < TEST_FAULT_NAMES ? ", " : i + 1 < TEST_FAULT_NAMES ? " or " : "");
	}
	msg_str(&m, " (test hooks that make ramsift fail on purpose)");
	warn(p, m.buf);
}

static void set_test_fault(struct parser *p, const char *v, size_t n, const void *arg)
{
	(void)arg;
	for (size_t i = 0; i < TEST_FAULT_NAMES; i++) {
		if (test_fault_names[i] && str_eq_n(v, n, test_fault_names[i])) {
			p->cfg->test_fault = (enum test_fault)i;
			return;
		}
	}
	warn_test_fault(p);
}

// ---- dispatch ----------------------------------------------------------

// One row per key; the unknown-option message lists them in this order.
static const struct {
	const char *key;
	void (*set)(struct parser *p, const char *value, size_t len, const void *arg);
	const void *arg;        // passed to set: a struct number for numbers
} keys[] = {
	{ "console", set_console, NULL },
	{ "passes", set_u32, &passes_num },
	{ "tests", set_tests, NULL },
	{ "onexit", set_onexit, NULL },
	{ "seed", set_seed, &seed_num },
	{ "errors", set_u32, &errors_num },
	{ "bitfade", set_u32, &bitfade_num },
	{ "hammer", set_u32, &hammer_num },
	{ "patterns", set_u32, &patterns_num },
	{ "holes", set_u32, &holes_num },
	{ "cpus", set_u32, &cpus_num },
	{ "nvram", set_on_off, &nvram_switch },
	{ "usb", set_on_off, &usb_switch },
	{ "dram", set_dram, NULL },
	{ "test_fault", set_test_fault, NULL },
};

static void warn_unknown(const struct parser *p, const char *what)
{
	struct msg m = { .len = 0 };

	msg_str(&m, what);
	msg_str(&m, "; known:");
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		msg_str(&m, " ");
		msg_str(&m, keys[i].key);
		msg_str(&m, "=");
	}
	warn(p, m.buf);
}

static bool ends_with(const char *s, size_t n, const char *suffix)
{
	size_t k = str_len(suffix);

	return n >= k && str_eq_n(s + n - k, k, suffix);
}

static bool looks_like_image_path(const char *w, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (w[i] == '/' || w[i] == ':')
			return true;
	}
	return ends_with(w, n, ".elf") || ends_with(w, n, ".bin");
}

static void parse_word(struct parser *p, bool first)
{
	const char *w = p->word;
	size_t n = p->word_len;
	size_t eq = 0;

	while (eq < n && w[eq] != '=')
		eq++;
	if (eq == n) {
		if (!(first && looks_like_image_path(w, n)))
			warn_unknown(p, "not an option (expected key=value), ignored");
		return;
	}
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (str_eq_n(w, eq, keys[i].key)) {
			keys[i].set(p, w + eq + 1, n - eq - 1, keys[i].arg);
			return;
		}
	}
	warn_unknown(p, "unknown option, ignored");
}

void config_defaults(struct config *cfg)
{
	mem_set(cfg, 0, sizeof(*cfg));
	cfg->serial = true;
	cfg->serial_port = 0;
	cfg->serial_baud = UART_BAUD_DEFAULT;
	cfg->screen = true;
	cfg->passes = 1;
	cfg->ntests = 0;
	cfg->onexit = ONEXIT_HALT;
	cfg->error_lines = CMDLINE_DEFAULT_ERROR_LINES;
	cfg->bitfade_s = CMDLINE_DEFAULT_BITFADE;
	cfg->hammer_s = CMDLINE_DEFAULT_HAMMER;
	cfg->patterns = BADRAM_DEFAULT_PAIRS;
	cfg->holes = BADRAM_DEFAULT_HOLES;
	cfg->cpus = 0;
	cfg->nvram = true;
	cfg->usb = true;
	cfg->dram = DRAM_MODE_ON;
	cfg->test_fault = TEST_FAULT_NONE;
}

void cmdline_parse(const char *line, struct config *cfg,
		   const char *const *test_names, size_t ntest_names,
		   cmdline_warn_fn warn_fn, void *ctx)
{
	struct parser p = {
		.cfg = cfg, .names = test_names, .nnames = ntest_names,
		.warn = warn_fn, .ctx = ctx,
	};
	bool first = true;

	if (line == NULL)
		return;
	for (const char *s = line; *s != '\0';) {
		if (is_space(*s)) {
			s++;
			continue;
		}
		const char *start = s;

		while (*s != '\0' && !is_space(*s))
			s++;
		p.word = start;
		p.word_len = (size_t)(s - start);
		parse_word(&p, first);
		first = false;
	}
}
