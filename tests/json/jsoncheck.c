// SPDX-License-Identifier: GPL-2.0-or-later
// ramsift-jsoncheck: the end-to-end tests' JSON checker (host, libc), apart
// from lib/json so that the writer is not checked by its own reading.
//   ramsift-jsoncheck LOG          the json: line of a ramsift log comes
//                                  right before the result line, is strict
//                                  JSON (tests/json/jsonparse.c), and each
//                                  value it shares with a text line equals it
//   ramsift-jsoncheck --valid FILE FILE is exactly one strict JSON text
//   ramsift-jsoncheck --get PATH FILE  print the value at PATH (names joined
//                                  by '.'): a string raw, else as JSON
// A log without ramsift's banner passes unchecked. Exit status: 0 good, 1 a
// check failed (each failure on stderr, naming the key and both values), 2
// usage or I/O error.
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "jsonparse.h"

static const char *log_name;
static int failures;

__attribute__((format(printf, 1, 2)))
static void fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ramsift-jsoncheck: %s: ", log_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	failures++;
}

// ---- input -----------------------------------------------------------------------

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f) {
		perror(path);
		exit(2);
	}
	for (;;) {
		if (n + 4096 + 1 > cap) {
			cap = 2 * cap + 8192;
			buf = realloc(buf, cap);
			if (!buf) {
				perror("ramsift-jsoncheck");
				exit(2);
			}
		}
		size_t got = fread(buf + n, 1, 4096, f);
		n += got;
		if (got == 0)
			break;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static char **lines;
static size_t nlines;

// Split the log at '\n' (in place).
static void split(char *text, size_t len)
{
	size_t cap = 0;
	char *p = text, *end = text + len;

	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		*nl = '\0';
		if (nl > p && nl[-1] == '\r')	// a raw serial log's line ends
			nl[-1] = '\0';
		if (nlines == cap) {
			cap = cap ? 2 * cap : 1024;
			lines = realloc(lines, cap * sizeof(*lines));
		}
		lines[nlines++] = p;
		p = nl + 1;
	}
}

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

// The first line starting with prefix, or NULL.
static const char *find_line(const char *prefix)
{
	for (size_t i = 0; i < nlines; i++)
		if (starts(lines[i], prefix))
			return lines[i];
	return NULL;
}

// The text after "key=" in line up to the next space (or the end), into out.
static bool field(const char *line, const char *key, char *out, size_t outlen)
{
	char k[64];
	snprintf(k, sizeof(k), " %s=", key);
	const char *p = strstr(line, k);
	if (!p && starts(line, k + 1))
		p = line - 1;
	if (!p)
		return false;
	p += strlen(k);
	size_t n = strcspn(p, " ");
	if (n >= outlen)
		n = outlen - 1;
	memcpy(out, p, n);
	out[n] = '\0';
	return true;
}

// A value of the log's key="..." form, unescaped (\" and \\).
static bool quoted(const char *line, const char *key, char *out, size_t outlen)
{
	char k[64];
	snprintf(k, sizeof(k), "%s=\"", key);
	const char *p = strstr(line, k);
	while (p && p != line && p[-1] != ' ')
		p = strstr(p + 1, k);
	if (!p)
		return false;
	p += strlen(k);
	size_t n = 0;
	while (*p && *p != '"') {
		if (*p == '\\' && p[1])
			p++;
		if (n + 1 < outlen)
			out[n++] = *p;
		p++;
	}
	out[n] = '\0';
	return *p == '"';
}

// ---- comparisons -------------------------------------------------------------------

static const struct jv *root;

static const struct jv *get(const struct jv *v, const char *path)
{
	const struct jv *r = jv_path(v, path);
	if (!r)
		fail("the JSON has no \"%s\"", path);
	return r;
}

static void same_number(const struct jv *v, const char *path, const char *text)
{
	const struct jv *n = get(v, path);
	if (n && (n->type != JV_NUMBER || strcmp(n->text, text) != 0))
		fail("\"%s\" is %s, the log says %s", path, n->type == JV_NUMBER ? n->text : "no number",
		     text);
}

static void same_string(const struct jv *v, const char *path, const char *text)
{
	const struct jv *s = get(v, path);
	if (s && (s->type != JV_STRING || strcmp(s->text, text) != 0))
		fail("\"%s\" is \"%s\", the log says \"%s\"", path, s->type == JV_STRING ? s->text : "(no string)",
		     text);
}

static void is_null(const struct jv *v, const char *path, const char *why)
{
	const struct jv *n = get(v, path);
	if (n && n->type != JV_NULL)
		fail("\"%s\" should be null: %s", path, why);
}

// The log shows bytes outside printable ASCII as '?': compare so.
static void same_logged(const struct jv *v, const char *path, const char *text)
{
	const struct jv *s = get(v, path);
	if (!s)
		return;
	if (s->type != JV_STRING) {
		fail("\"%s\" is no string", path);
		return;
	}
	char *shown = strdup(s->text);
	for (char *c = shown; *c; c++)
		if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e)
			*c = '?';
	if (strcmp(shown, text) != 0)
		fail("\"%s\" is \"%s\", the log says \"%s\"", path, s->text, text);
	free(shown);
}

static void check_result(const char *rl)
{
	char v[256];
	static const char *const numbers[] = { "passes", "errors", "tested_bytes", "usable_bytes",
					       "elapsed_s" };

	field(rl, "result", v, sizeof(v));
	same_string(root, "result", v);
	for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++)
		if (field(rl, numbers[i], v, sizeof(v)))
			same_number(root, numbers[i], v);
	if (field(rl, "version", v, sizeof(v)))
		same_string(root, "version", v);
}

static void check_start(void)
{
	const char *l;
	char v[4096];

	if ((l = find_line("run: "))) {
		field(l, "seed", v, sizeof(v));
		same_string(root, "seed", v);
		field(l, "passes", v, sizeof(v));
		same_number(root, "config.passes", v);
		field(l, "errors", v, sizeof(v));
		same_number(root, "config.errors", v);
		field(l, "bitfade", v, sizeof(v));
		same_number(root, "config.bitfade_s", v);
	}
	if ((l = find_line("loader: "))) {
		const char *comma = strchr(l, ',');
		size_t n = comma ? (size_t)(comma - l) - 8 : 0;
		snprintf(v, sizeof(v), "%.*s", (int)n, l + 8);
		if (strcmp(v, "unnamed") == 0)
			is_null(root, "loader.name", "the log says unnamed");
		else
			same_string(root, "loader.name", v);
		same_string(root, "loader.protocol", strstr(l, ", multiboot2,") ? "multiboot2" : "multiboot");
		const char *c = strstr(l, "; command line: '");
		const struct jv *cl = get(root, "cmdline");
		if (c && cl && cl->type == JV_STRING) {
			// The log shows the command line escaped (lib/escape.h), whole.
			char *shown = malloc(cl->len * ESCAPE_MAX_PER_BYTE + 1);
			c += strlen("; command line: '");
			size_t len = strlen(c);
			escape_text(shown, cl->len * ESCAPE_MAX_PER_BYTE + 1, cl->text, cl->len);
			if (len == 0 || c[len - 1] != '\'' || strlen(shown) != len - 1 ||
			    memcmp(shown, c, len - 1) != 0)
				fail("\"cmdline\" escaped is '%s', the log says '%s'", shown, c);
			free(shown);
		}
	}
	same_string(root, "firmware", find_line("firmware: UEFI") ? "uefi" : "bios");
	int end = 0;
	if ((l = find_line("cpus: ")) && sscanf(l, "cpus: %4095[0-9] found%n", v, &end) == 1 && end > 0)
		same_number(root, "cpus", v);
	else if (find_line("warning: cpus: "))
		is_null(root, "cpus", "the log says there is no MADT");
}

static void check_identity(bool truncated)
{
	const char *l = find_line("machine: ");
	char v[1024];

	if (!l)
		return;
	if (starts(l, "machine: unknown")) {
		is_null(root, "machine", "the log says the machine is unknown");
		return;
	}
	static const char *const keys[] = { "manufacturer", "product", "version", "serial" };
	for (size_t i = 0; i < 4; i++) {
		char path[64];
		snprintf(path, sizeof(path), "machine.%s", keys[i]);
		if (quoted(l, keys[i], v, sizeof(v)))
			same_logged(root, path, v);
		else
			fail("the machine: line has no %s=", keys[i]);
	}
	field(l, "uuid", v, sizeof(v));
	if (strcmp(v, "unknown") == 0)
		is_null(root, "machine.uuid", "the log says unknown");
	else
		same_string(root, "machine.uuid", v);
	field(l, "smbios", v, sizeof(v));
	same_string(root, "machine.smbios", v);
	if (field(l, "entry", v, sizeof(v)))
		same_string(root, "machine.entry", v);

	const struct jv *d = get(root, "dimms");
	size_t k = 0;
	for (size_t i = 0; i < nlines && d; i++) {
		if (!starts(lines[i], "dimm: locator="))
			continue;
		if (truncated)
			continue;
		if (k >= d->n) {
			fail("the log has more dimm: lines than \"dimms\" (%zu)", d->n);
			break;
		}
		const struct jv *e = &d->item[k++];
		static const char *const dk[] = { "locator", "bank", "manufacturer", "serial", "part_number" };
		for (size_t j = 0; j < 5; j++)
			if (quoted(lines[i], dk[j], v, sizeof(v)))
				same_logged(e, dk[j], v);
		field(lines[i], "installed", v, sizeof(v));
		const struct jv *inst = get(e, "installed");
		if (inst && (inst->type != JV_BOOL || inst->b != (strcmp(v, "yes") == 0)))
			fail("dimm %zu: \"installed\" differs from the log's %s", k - 1, v);
		static const char *const nk[] = { "size_mib", "speed_mts" };
		for (size_t j = 0; j < 2; j++) {
			field(lines[i], nk[j], v, sizeof(v));
			if (strcmp(v, "unknown") == 0)
				is_null(e, nk[j], "the log says unknown");
			else
				same_number(e, nk[j], v);
		}
	}
	if (d && !truncated && k != d->n)
		fail("\"dimms\" has %zu entries, the log %zu dimm: lines", d->n, k);
}

static void check_pages(bool truncated)
{
	const char *l = find_line("summary: ");
	const struct jv *listed = get(root, "failing_pages.listed");
	char v[64];

	for (size_t i = 0; i < nlines; i++) {
		int end = 0;
		if (sscanf(lines[i], "summary: %63[0-9] distinct failing pages recorded%n", v, &end) == 1 &&
		    end > 0)
			same_number(root, "failing_pages.count", v);
	}
	(void)l;
	if (!listed || truncated)
		return;
	// offline: lines are the listed pages, in order.
	size_t k = 0;
	for (size_t i = 0; i < nlines; i++) {
		unsigned long long a;
		if (sscanf(lines[i], "offline: echo 0x%llx > ", &a) != 1)
			continue;
		snprintf(v, sizeof(v), "0x%llx", a);
		if (k >= listed->n || strcmp(listed->item[k].text, v) != 0)
			fail("offline: line %zu writes %s, \"failing_pages.listed\" has %s", k, v,
			     k < listed->n ? listed->item[k].text : "nothing there");
		k++;
	}
	if (k && k != listed->n)
		fail("%zu offline: lines, %zu pages listed", k, listed->n);
	// The windows: list: the same pages as page frame numbers.
	const char *w = find_line("windows: bcdedit /set {badmemory} badmemorylist");
	if (w) {
		const char *p = w + strlen("windows: bcdedit /set {badmemory} badmemorylist");
		size_t j = 0;
		unsigned long long pfn;
		int used;
		while (sscanf(p, " 0x%llx%n", &pfn, &used) == 1) {
			snprintf(v, sizeof(v), "0x%llx", pfn << 12);
			if (j >= listed->n || strcmp(listed->item[j].text, v) != 0)
				fail("the windows: list's page %zu is %s, the JSON lists %s", j, v,
				     j < listed->n ? listed->item[j].text : "nothing there");
			j++;
			p += used;
		}
		if (j != listed->n)
			fail("the windows: list has %zu pages, the JSON lists %zu", j, listed->n);
	}
}

static void check_fold(void)
{
	const char *b = NULL, *g = NULL, *m = NULL, *f = NULL;

	for (size_t i = 0; i < nlines; i++) {
		if (starts(lines[i], "badram="))
			b = lines[i];
		if (starts(lines[i], "GRUB_BADRAM="))
			g = lines[i];
		if (starts(lines[i], "memmap="))
			m = lines[i];
		if (starts(lines[i], "fold: "))
			f = lines[i];
	}
	const struct jv *fold = get(root, "fold");
	if (!fold)
		return;
	if (!b) {
		if (fold->type != JV_NULL)
			fail("\"fold\" is not null, and the log has no badram= line");
		return;
	}
	if (fold->type != JV_OBJECT) {
		fail("the log has BadRAM lines, \"fold\" is no object");
		return;
	}
	same_string(fold, "badram", b);
	if (g)
		same_string(fold, "grub", g);
	if (m)
		same_string(fold, "memmap", m);
	if (f) {
		same_string(fold, "summary", f);
		static const char *const nk[] = { "failing_pages", "holes", "excluded_pages",
						  "sacrificed_pages" };
		char v[64];
		for (size_t i = 0; i < 4; i++)
			if (field(f, nk[i], v, sizeof(v)))
				same_number(fold, nk[i], v);
		if (field(f, "pairs", v, sizeof(v))) {
			const struct jv *p = get(fold, "pairs");
			if (p && (size_t)atol(v) != p->n)
				fail("\"fold.pairs\" has %zu pairs, the fold: line says %s", p->n, v);
		}
	}
	// The pairs, one by one, as badram= lists them.
	const struct jv *p = get(fold, "pairs");
	const char *s = b + strlen("badram=");
	for (size_t i = 0; p && i < p->n; i++) {
		char addr[32], mask[32];
		if (sscanf(s, "%31[^,],%31[^,]", addr, mask) != 2) {
			fail("badram= has fewer pairs than \"fold.pairs\"");
			break;
		}
		same_string(&p->item[i], "addr", addr);
		same_string(&p->item[i], "mask", mask);
		s += strlen(addr) + 1 + strlen(mask);
		s += *s == ',';
	}
	same_string(fold, "mode", find_line("summary: the pairs are folded for GRUB on UEFI") ? "uefi" :
				   "bios");
}

// The MCE lines the run's polls printed, counted as the JSON counts them;
// the hypervisor the machine: line names (src/machine.c prints it after
// the identity's line, whenever the identity was printed).
static void check_machine_check(void)
{
	static const char *const kinds[] = { "corrected", "uncorrected" };
	char v[32], key[32], name[64];

	for (size_t k = 0; k < 2; k++) {
		size_t n = 0, want = strlen(kinds[k]) + 1;
		for (size_t i = 0; i < nlines; i++) {
			size_t len = strlen(lines[i]);
			n += starts(lines[i], "MCE ") && len > want &&
			     lines[i][len - want] == ' ' &&
			     strcmp(lines[i] + len - want + 1, kinds[k]) == 0;
		}
		snprintf(v, sizeof(v), "%zu", n);
		snprintf(key, sizeof(key), "mce_%s", kinds[k]);
		same_number(root, key, v);
	}
	const char *prefix = "machine: running under a hypervisor (";
	const char *l = find_line(prefix);
	if (l) {
		const char *end = strstr(l, "): the memory tested is virtual");
		if (!end) {
			fail("the hypervisor line does not say what it means: %s", l);
			return;
		}
		snprintf(name, sizeof(name), "%.*s", (int)(end - l - strlen(prefix)), l + strlen(prefix));
		same_string(root, "hypervisor", name);
	} else if (find_line("machine: ")) {
		is_null(root, "hypervisor", "the log names no hypervisor");
	}
}

// The nvram: line that says what became of the result (the log's last;
// src/record_keep.c): the JSON's why; with none, null or (a log from before
// this line was added) no such key.
static void check_nvram(size_t result_at)
{
	const char *last = NULL;
	const struct jv *n = jv_path(root, "nvram");

	for (size_t i = 0; i < result_at; i++)
		if (starts(lines[i], "nvram: "))
			last = lines[i] + strlen("nvram: ");
	if (last)
		same_string(root, "nvram.why", last);
	else if (n)
		is_null(root, "nvram", "the log has no nvram: line");
}

// The dram: lines of the DRAM geometry learning: the functions it learned, in order
// (the JSON's dram.functions); a run from before the phase has no key.
// The final diagnosis: line (the one without a "pass N: " prefix) is the
// JSON's diagnosis.text.
static void check_dram(size_t result_at)
{
	const struct jv *d = jv_path(root, "dram");
	const struct jv *f = d && d->type == JV_OBJECT ? get(root, "dram.functions") : NULL;
	const char *diag = NULL;
	size_t nf = 0;
	char hex[32];

	for (size_t i = 0; i < result_at; i++) {
		if (starts(lines[i], "diagnosis: "))
			diag = lines[i] + strlen("diagnosis: ");
		if (!starts(lines[i], "dram: bank function "))
			continue;
		snprintf(hex, sizeof(hex), "%s", lines[i] + strlen("dram: bank function "));
		if (!f || f->type != JV_ARRAY || nf >= f->n)
			fail("the log's %s is not in dram.functions", lines[i]);
		else if (f->item[nf].type != JV_STRING || strcmp(f->item[nf].text, hex) != 0)
			fail("dram.functions[%zu] is not the log's %s", nf, hex);
		nf++;
	}
	if (f && f->type == JV_ARRAY && f->n != nf)
		fail("dram.functions has %zu functions, the log's dram: lines %zu", f->n, nf);
	if (diag)
		same_string(root, "diagnosis.text", diag);
	else if (jv_path(root, "diagnosis"))
		is_null(root, "diagnosis", "the log has no diagnosis: line");
}

// The hammer: lines: the JSON's hammer is null without a "hammer: pass"
// line; hammer_only is the summary's hammer_only= (0 without the line); a
// log from before them has neither key.
static void check_hammer(size_t result_at)
{
	const struct jv *h = jv_path(root, "hammer");
	bool hammered = false;
	char n[32] = "0";

	for (size_t i = 0; i < result_at; i++) {
		hammered |= starts(lines[i], "hammer: pass ");
		if (starts(lines[i], "summary: row hammer: "))
			field(lines[i], "hammer_only", n, sizeof(n));
	}
	if (!h)
		return;
	if (hammered && h->type != JV_OBJECT)
		fail("the log has hammer: lines, the JSON's hammer is no object");
	if (!hammered)
		is_null(root, "hammer", "the log has no hammer: pass line");
	same_number(root, "hammer_only", n);
}

static int check_log(const char *path)
{
	size_t len;
	char *text = read_file(path, &len);
	size_t json_at = 0, result_at = 0, njson = 0, nresult = 0;

	log_name = path;
	split(text, len);
	bool banner = false;
	for (size_t i = 0; i < nlines; i++) {
		if (strstr(lines[i], ": memory tester") && starts(lines[i], "ramsift "))
			banner = true;
		if (starts(lines[i], "json: ")) {
			json_at = i;
			njson++;
		}
		if (starts(lines[i], "ramsift: result=")) {
			result_at = i;
			nresult++;
		}
	}
	if (!banner || nresult == 0)
		return 0;	// not a ramsift run, or one that never ended
	if (njson != 1 || json_at + 1 != result_at) {
		fail("want one json: line right before the result line; %zu json: lines, the last at "
		     "line %zu, the result at %zu", njson, json_at + 1, result_at + 1);
		return 1;
	}
	char err[200];
	const char *j = lines[json_at] + strlen("json: ");
	struct jv *v = jv_parse(j, strlen(j), err, sizeof(err));
	if (!v) {
		fail("the json: line is not valid JSON: %s", err);
		return 1;
	}
	root = v;
	const struct jv *t = get(root, "truncated");
	bool truncated = t && t->type == JV_BOOL && t->b;
	check_result(lines[result_at]);
	check_start();
	check_identity(truncated);
	check_pages(truncated);
	check_fold();
	check_machine_check();
	check_nvram(result_at);
	check_dram(result_at);
	check_hammer(result_at);
	jv_free(v);
	free(text);
	return failures ? 1 : 0;
}

static struct jv *parse_file(const char *path)
{
	size_t len;
	char *text = read_file(path, &len), err[200];

	log_name = path;
	if (len && text[len - 1] == '\n')
		len--;
	struct jv *v = jv_parse(text, len, err, sizeof(err));
	if (!v)
		fail("not one valid JSON text: %s", err);
	free(text);
	return v;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--valid") == 0) {
		struct jv *v = parse_file(argv[2]);
		jv_free(v);
		return v ? 0 : 1;
	}
	if (argc == 4 && strcmp(argv[1], "--get") == 0) {
		struct jv *v = parse_file(argv[3]);
		const struct jv *r = v ? jv_path(v, argv[2]) : NULL;
		if (!r) {
			if (v)
				fail("no \"%s\"", argv[2]);
			jv_free(v);
			return 1;
		}
		static const char *const words[] = { "null", "bool", "number", "string", "array", "object" };
		if (r->type == JV_STRING || r->type == JV_NUMBER)
			printf("%s\n", r->text);
		else if (r->type == JV_BOOL)
			printf("%s\n", r->b ? "true" : "false");
		else if (r->type == JV_ARRAY)
			printf("array %zu\n", r->n);
		else
			printf("%s\n", words[r->type]);
		jv_free(v);
		return 0;
	}
	if (argc == 2 && argv[1][0] != '-')
		return check_log(argv[1]);
	fprintf(stderr, "usage: ramsift-jsoncheck LOG | --valid FILE | --get PATH FILE\n");
	return 2;
}
