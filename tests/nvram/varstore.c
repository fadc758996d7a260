// SPDX-License-Identifier: GPL-2.0-or-later
// ramsift-varstore: read and edit the UEFI variables in an OVMF VARS file
// (the second pflash of a UEFI boot under QEMU) on the host, for the
// end-to-end tests of ramsift's NVRAM record: read what a boot wrote, plant
// a record before one, delete it, fill the store so that little space
// remains, and list it all. See usage() and tests/nvram/vstore.h.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse.h"
#include "vstore.h"

enum exit_status { EXIT_DONE, EXIT_ABSENT, EXIT_MALFORMED, EXIT_USAGE };

#define FILE_MAX (64u << 20)	// OVMF's VARS files are 128 KiB and 528 KiB
#define NAME_MAX_CHARS 1024
// Each filler variable takes at most this much of the store: the smallest
// PcdMaxVariableSize of OVMF's builds (8 KiB in the 2 MiB one, 33 KiB in
// the 4 MiB one), so the firmware could have written each of them itself.
#define FILLER_MAX 0x2000
#define FILLER_NAME "RamsiftFiller"
#define FILLERS_MAX 100	// two digits after the name
#define FILLER_ATTRIBUTES 0x7u	// non-volatile, boot service and runtime access

static const char *prog = "ramsift-varstore";

// ramsift's vendor GUID (lib/record/record.h) and EFI_GLOBAL_VARIABLE's.
static const struct { const char *word, *text; } guid_words[] = {
	{ "ramsift", "7ae28629-a6cc-4876-b74d-186249b7a3d3" },
	{ "global", "8be4df61-93ca-11d2-aa0d-00e098032b8c" },
};

static void usage(void)
{
	fprintf(stderr,
		"Usage: %s FILE COMMAND [ARGUMENT]...\n"
		"Read or edit the UEFI variable store of the OVMF VARS file FILE.\n"
		"\n"
		"  list                        the store's numbers, then each variable: its offset,\n"
		"                              state, attributes, data bytes, GUID and name\n"
		"  get NAME GUID               the variable's data to standard output\n"
		"  set NAME GUID ATTRIBUTES    the data from standard input; the copy there was is\n"
		"                              marked deleted, and the store compacted if short\n"
		"  delete NAME GUID            mark the variable deleted\n"
		"  free                        the bytes QueryVariableInfo would say remain\n"
		"  fill KIB                    add " FILLER_NAME "00, 01, ... under ramsift's GUID\n"
		"                              (replacing earlier ones) so that KIB KiB remain\n"
		"  reclaim                     compact the store as the firmware does when full\n"
		"\n"
		"GUID is 8-4-4-4-12 hex digits, or \"ramsift\" or \"global\" (EFI_GLOBAL_VARIABLE).\n"
		"ATTRIBUTES is a number, e.g. 7: non-volatile, boot service and runtime access.\n"
		"Edits refuse a store whose FTW working block logs a write half done: the\n"
		"firmware would copy its spare over them.\n"
		"Exit status: 0 done, 1 no such variable or no room for it, 2 FILE is no\n"
		"well-formed variable store (the message says where) or one with such a\n"
		"write, 3 a usage or I/O error.\n",
		prog);
	exit(EXIT_USAGE);
}

__attribute__((format(printf, 2, 3), noreturn))
static void die(int status, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}

// ---- names and GUIDs ---------------------------------------------------

// One UTF-8 character of the Basic Multilingual Plane at *p; -1 if invalid.
static long utf8_char(const unsigned char **p)
{
	const unsigned char *c = *p;
	long ch;
	int more;
	if (c[0] < 0x80)
		ch = c[0], more = 0;
	else if ((c[0] & 0xe0) == 0xc0)
		ch = c[0] & 0x1f, more = 1;
	else if ((c[0] & 0xf0) == 0xe0)
		ch = c[0] & 0x0f, more = 2;
	else
		return -1;
	for (int i = 1; i <= more; i++) {
		if ((c[i] & 0xc0) != 0x80)
			return -1;
		ch = ch << 6 | (c[i] & 0x3f);
	}
	*p = c + 1 + more;
	bool overlong = (more == 1 && ch < 0x80) || (more == 2 && ch < 0x800);
	return overlong || (ch >= 0xd800 && ch <= 0xdfff) ? -1 : ch;
}

// NAME as UCS-2 with its NUL, into out; its bytes.
static size_t name_to_ucs2(const char *name, uint8_t out[2 * (NAME_MAX_CHARS + 1)])
{
	const unsigned char *p = (const unsigned char *)name;
	size_t n = 0;
	while (*p) {
		long ch = utf8_char(&p);
		if (ch <= 0 || n == NAME_MAX_CHARS)
			die(EXIT_USAGE, "the name \"%s\" is not up to %u characters of UTF-8 in the BMP",
			    name, NAME_MAX_CHARS);
		out[2 * n] = (uint8_t)ch;
		out[2 * n++ + 1] = (uint8_t)(ch >> 8);
	}
	if (n == 0)
		die(EXIT_USAGE, "an empty variable name");
	out[2 * n] = out[2 * n + 1] = 0;
	return 2 * (n + 1);
}

static void print_name(const uint8_t *ucs2, size_t bytes)
{
	for (size_t i = 0; i + 2 < bytes; i += 2) {	// the NUL left out
		unsigned ch = ucs2[i] | ucs2[i + 1] << 8;
		if (ch == '\\')
			fputs("\\\\", stdout);
		else if (ch >= 0x20 && ch < 0x7f)
			putchar((int)ch);
		else if (ch < 0xa0 || (ch >= 0xd800 && ch <= 0xdfff))
			printf("\\u%04x", ch);
		else if (ch < 0x800)
			printf("%c%c", 0xc0 | ch >> 6, 0x80 | (ch & 0x3f));
		else
			printf("%c%c%c", 0xe0 | ch >> 12, 0x80 | (ch >> 6 & 0x3f), 0x80 | (ch & 0x3f));
	}
}

// 8-4-4-4-12 hex digits into EFI_GUID's bytes: the first three groups
// little-endian, the last two as written.
static bool parse_guid_text(const char *text, uint8_t guid[VS_GUID_BYTES])
{
	static const int order[VS_GUID_BYTES] = { 3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15 };
	if (strlen(text) != 36)
		return false;
	for (int i = 0, at = 0; i < VS_GUID_BYTES; i++) {
		if (at == 8 || at == 13 || at == 18 || at == 23) {
			if (text[at++] != '-')
				return false;
		}
		int hi = parse_digit(text[at]), lo = parse_digit(text[at + 1]);
		if (hi < 0 || lo < 0)
			return false;
		guid[order[i]] = (uint8_t)(hi << 4 | lo);
		at += 2;
	}
	return true;
}

static void parse_guid(const char *arg, uint8_t guid[VS_GUID_BYTES])
{
	const char *text = arg;
	for (size_t i = 0; i < sizeof guid_words / sizeof guid_words[0]; i++)
		if (strcmp(arg, guid_words[i].word) == 0)
			text = guid_words[i].text;
	if (!parse_guid_text(text, guid))
		die(EXIT_USAGE, "\"%s\" is no GUID (8-4-4-4-12 hex digits, \"ramsift\" or \"global\")", arg);
}

static void print_guid(const uint8_t *g)
{
	printf("%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
	       g[3], g[2], g[1], g[0], g[5], g[4], g[7], g[6], g[8], g[9], g[10], g[11], g[12], g[13], g[14], g[15]);
}

static unsigned long parse_number(const char *arg, unsigned long max, const char *what)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(arg, &end, 0);
	if (errno || end == arg || *end || arg[0] == '-' || v > max)
		die(EXIT_USAGE, "%s \"%s\" is not a number from 0 to %lu", what, arg, max);
	return v;
}

// ---- the file --------------------------------------------------------------

static uint8_t *read_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0)
		die(EXIT_USAGE, "%s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode) || st.st_size > FILE_MAX)
		die(EXIT_USAGE, "%s: not a regular file of up to %u bytes", path, FILE_MAX);
	uint8_t *buf = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!buf)
		die(EXIT_USAGE, "out of memory");
	size_t got = 0;
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
		if (n <= 0)
			die(EXIT_USAGE, "%s: %s", path, n ? strerror(errno) : "shorter than it was");
		got += (size_t)n;
	}
	close(fd);
	*len = got;
	return buf;
}

// Replace path by buf[0..len) at once: a new file beside it, renamed over it.
static void write_file(const char *path, const uint8_t *buf, size_t len)
{
	struct stat st;
	char *tmp;
	if (stat(path, &st) != 0 || asprintf(&tmp, "%s.XXXXXX", path) < 0)
		die(EXIT_USAGE, "%s: %s", path, strerror(errno));
	int fd = mkstemp(tmp);
	if (fd < 0)
		die(EXIT_USAGE, "%s: %s", tmp, strerror(errno));
	size_t done = 0;
	while (done < len) {
		ssize_t n = write(fd, buf + done, len - done);
		if (n <= 0) {
			unlink(tmp);
			die(EXIT_USAGE, "%s: %s", tmp, strerror(errno));
		}
		done += (size_t)n;
	}
	if (fchmod(fd, st.st_mode & 07777) != 0 || fsync(fd) != 0 || close(fd) != 0 || rename(tmp, path) != 0) {
		unlink(tmp);
		die(EXIT_USAGE, "%s: %s", path, strerror(errno));
	}
	free(tmp);
}

// Standard input, at most max bytes (more cannot fit the store).
static uint8_t *read_stdin(size_t max, size_t *len)
{
	uint8_t *buf = malloc(max + 1);
	size_t got = 0, n;
	if (!buf)
		die(EXIT_USAGE, "out of memory");
	while (got <= max && (n = fread(buf + got, 1, max + 1 - got, stdin)) > 0)
		got += n;
	bool error = ferror(stdin), too_long = got > max;
	if (error || too_long)
		free(buf);	// before die(): the leak checker runs at exit
	if (error)
		die(EXIT_USAGE, "standard input: %s", strerror(errno));
	if (too_long)
		die(EXIT_ABSENT, "more than %zu bytes of data on standard input: they cannot fit the store", max);
	*len = got;
	return buf;
}

// ---- the commands ----------------------------------------------------------

static const char *state_name(const struct vs_var *v)
{
	static char other[16];
	if (v->partial)
		return "partial";
	switch (v->state) {
	case VS_ADDED:
		return "added";
	case VS_ADDED & VS_IN_DELETED_TRANSITION:
		return v->live ? "replacing" : "replaced";
	case VS_ADDED & VS_DELETED:
	case VS_ADDED & VS_IN_DELETED_TRANSITION & VS_DELETED:
		return "deleted";
	case VS_HEADER_VALID_ONLY:
		return "header";
	}
	snprintf(other, sizeof other, "0x%02x", v->state);
	return other;
}

static const char *ftw_pending_text(const struct vs_store *s)
{
	static char text[200];
	snprintf(text, sizeof text, "a write of %llu bytes at block %llu + 0x%llx is half done; the firmware "
		 "finishes it from its spare copy at the next boot, over this store",
		 (unsigned long long)s->ftw_length, (unsigned long long)s->ftw_lba, (unsigned long long)s->ftw_offset);
	return text;
}

static void print_summary(const struct vs_store *s, const char *path)
{
	size_t live = 0, dead = 0;
	for (size_t i = 0; i < s->nvars; i++)
		s->var[i].live ? live++ : dead++;
	uint64_t live_bytes = vs_live_bytes(s);
	printf("store: %s: %zu bytes at 0x%zx, %s variable headers of %zu bytes\n", path, s->store_size,
	       s->store_off, s->auth ? "authenticated" : "plain", s->header_size);
	printf("variables: %zu live in %llu bytes, %zu dead in %llu bytes, from 0x%zx to 0x%zx; erased %zu bytes to 0x%zx\n",
	       live, (unsigned long long)live_bytes, dead,
	       (unsigned long long)(s->tail - s->first - live_bytes), s->first, s->tail, s->end - s->tail, s->end);
	printf("free: %llu of %llu bytes (QueryVariableInfo during boot services, and after a reclaim)\n",
	       (unsigned long long)vs_remaining(s), (unsigned long long)vs_space(s));
	if (s->ftw == VS_FTW_ABSENT)
		printf("ftw: no working block after the store\n");
	else if (s->ftw == VS_FTW_IDLE)
		printf("ftw: working block at 0x%zx, no write pending\n", s->ftw_off);
	else
		printf("ftw: working block at 0x%zx: %s\n", s->ftw_off, ftw_pending_text(s));
}

static int cmd_list(const struct vs_store *s, const char *path)
{
	print_summary(s, path);
	printf("OFFSET   STATE     ATTRIBUTES  DATA GUID                                 NAME\n");
	for (size_t i = 0; i < s->nvars; i++) {
		const struct vs_var *v = &s->var[i];
		printf("0x%06zx %-9s 0x%08x %6u ", v->off, state_name(v), v->attributes,
		       v->partial ? 0 : v->data_size);
		print_guid(v->guid);
		putchar(' ');
		print_name(s->file + v->name_off, v->partial ? 0 : v->name_size);
		putchar('\n');
	}
	return EXIT_DONE;
}

static int cmd_get(const struct vs_store *s, const char *name, const char *guid_arg)
{
	uint8_t ucs2[2 * (NAME_MAX_CHARS + 1)], guid[VS_GUID_BYTES];
	size_t name_size = name_to_ucs2(name, ucs2);
	parse_guid(guid_arg, guid);
	const struct vs_var *v = vs_find(s, ucs2, name_size, guid);
	if (!v)
		die(EXIT_ABSENT, "no variable %s of GUID %s", name, guid_arg);
	if (fwrite(s->file + v->data_off, 1, v->data_size, stdout) != v->data_size || fflush(stdout) != 0)
		die(EXIT_USAGE, "standard output: %s", strerror(errno));
	return EXIT_DONE;
}

static int cmd_set(struct vs_store *s, const char *name, const char *guid_arg, const char *attr_arg)
{
	uint8_t ucs2[2 * (NAME_MAX_CHARS + 1)], guid[VS_GUID_BYTES];
	size_t name_size = name_to_ucs2(name, ucs2), data_size;
	parse_guid(guid_arg, guid);
	// All ones would read as an erased field: a header written in part.
	uint32_t attributes = (uint32_t)parse_number(attr_arg, 0xfffffffe, "the attributes");
	uint8_t *data = read_stdin(vs_space(s), &data_size);
	bool fits = vs_set(s, ucs2, name_size, guid, attributes, data, data_size);
	free(data);	// before die(): the leak checker runs at exit
	if (!fits)
		die(EXIT_ABSENT, "%s (%llu bytes in the store) does not fit: %llu bytes remain", name,
		    (unsigned long long)vs_entry_size(s, name_size, data_size), (unsigned long long)vs_remaining(s));
	return EXIT_DONE;
}

static int cmd_delete(struct vs_store *s, const char *name, const char *guid_arg)
{
	uint8_t ucs2[2 * (NAME_MAX_CHARS + 1)], guid[VS_GUID_BYTES];
	size_t name_size = name_to_ucs2(name, ucs2);
	parse_guid(guid_arg, guid);
	if (!vs_delete(s, ucs2, name_size, guid))
		die(EXIT_ABSENT, "no variable %s of GUID %s", name, guid_arg);
	return EXIT_DONE;
}

static size_t filler_name(unsigned i, uint8_t ucs2[2 * (NAME_MAX_CHARS + 1)])
{
	char name[sizeof FILLER_NAME + 2];
	snprintf(name, sizeof name, FILLER_NAME "%02u", i);
	return name_to_ucs2(name, ucs2);
}

static void delete_fillers(struct vs_store *s, const uint8_t *guid)
{
	uint8_t ucs2[2 * (NAME_MAX_CHARS + 1)];
	for (unsigned i = 0; i < FILLERS_MAX; i++) {
		size_t name_size = filler_name(i, ucs2);
		vs_delete(s, ucs2, name_size, guid);
	}
}

// Add fillers of 4-byte units to the store: n as even as can be, each at
// most FILLER_MAX and at least a header and name.
static void add_fillers(struct vs_store *s, const uint8_t *guid, uint64_t bytes)
{
	uint8_t ucs2[2 * (NAME_MAX_CHARS + 1)];
	uint64_t units = bytes / 4, n = (bytes + FILLER_MAX - 1) / FILLER_MAX;
	if (n > FILLERS_MAX)
		die(EXIT_ABSENT, "%llu bytes need more than %u fillers", (unsigned long long)bytes, FILLERS_MAX);
	static uint8_t zeros[FILLER_MAX];
	for (unsigned i = 0; i < n; i++) {
		size_t name_size = filler_name(i, ucs2);
		uint64_t size = 4 * (units / n + (i < units % n));
		uint64_t data = size - vs_entry_size(s, name_size, 0);
		if (!vs_set(s, ucs2, name_size, guid, FILLER_ATTRIBUTES, zeros, data))
			die(EXIT_ABSENT, "filler %u of %llu bytes does not fit", i, (unsigned long long)size);
	}
}

static int cmd_fill(struct vs_store *s, const char *kib_arg)
{
	uint8_t guid[VS_GUID_BYTES], ucs2[2 * (NAME_MAX_CHARS + 1)];
	uint64_t target = 1024 * (uint64_t)parse_number(kib_arg, vs_space(s) / 1024, "KiB");
	parse_guid("ramsift", guid);
	delete_fillers(s, guid);
	uint64_t remaining = vs_remaining(s), least = vs_entry_size(s, filler_name(0, ucs2), 0);
	if (remaining < target)
		die(EXIT_ABSENT, "only %llu bytes remain without fillers, less than %s KiB",
		    (unsigned long long)remaining, kib_arg);
	uint64_t need = remaining - target;
	// Less than one filler's header and name: one of those, just below.
	if (need && need < least) {
		if (remaining < least)
			die(EXIT_ABSENT, "%llu bytes remain, too few for a filler", (unsigned long long)remaining);
		need = least;
	}
	if (need)
		add_fillers(s, guid, need);
	return EXIT_DONE;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		usage();
	const char *path = argv[1], *cmd = argv[2];
	int args = argc - 3;
	size_t len;
	uint8_t *file = read_file(path, &len);
	struct vs_store s;
	struct vs_error err;
	if (!vs_parse(&s, file, len, &err))
		die(EXIT_MALFORMED, "%s: at offset 0x%zx: %s", path, err.off, err.text);
	bool edits = strcmp(cmd, "set") == 0 || strcmp(cmd, "delete") == 0 || strcmp(cmd, "fill") == 0 ||
		     strcmp(cmd, "reclaim") == 0;
	if (edits && s.ftw == VS_FTW_PENDING)
		die(EXIT_MALFORMED, "%s: at offset 0x%zx: %s: not edited", path, s.ftw_off, ftw_pending_text(&s));
	int status;
	if (strcmp(cmd, "list") == 0 && args == 0)
		status = cmd_list(&s, path);
	else if (strcmp(cmd, "get") == 0 && args == 2)
		status = cmd_get(&s, argv[3], argv[4]);
	else if (strcmp(cmd, "free") == 0 && args == 0)
		printf("%llu\n", (unsigned long long)vs_remaining(&s)), status = EXIT_DONE;
	else if (strcmp(cmd, "set") == 0 && args == 3)
		status = cmd_set(&s, argv[3], argv[4], argv[5]);
	else if (strcmp(cmd, "delete") == 0 && args == 2)
		status = cmd_delete(&s, argv[3], argv[4]);
	else if (strcmp(cmd, "fill") == 0 && args == 1)
		status = cmd_fill(&s, argv[3]);
	else if (strcmp(cmd, "reclaim") == 0 && args == 0)
		vs_reclaim(&s), status = EXIT_DONE;
	else
		usage();
	if (edits)
		write_file(path, file, len);
	if (fflush(stdout) != 0)
		die(EXIT_USAGE, "standard output: %s", strerror(errno));
	vs_release(&s);
	free(file);
	return status;
}
