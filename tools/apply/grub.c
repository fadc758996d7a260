// SPDX-License-Identifier: GPL-2.0-or-later
// --install and --uninstall (apply.h): /etc/default/grub.d/ramsift.cfg,
// which grub-mkconfig sources after /etc/default/grub, holds the record's
// GRUB_BADRAM= line and appends its memmap= line to
// GRUB_CMDLINE_LINUX_DEFAULT; update-grub then writes them into grub.cfg.
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "apply.h"
#include "escape.h"

#define CFG_MAX (3 * BADRAM_LINE_MAX + 4096)
#define CFG_HEADER "# Written by ramsift-apply --install"

// line with each '$' as "\\\$", for a double-quoted value of
// /etc/default/grub: grub-mkconfig's /bin/sh reads it as "\$", 10_linux
// copies that into grub.cfg's linux lines, and GRUB reads it as "$"
// (docs/badram.md). A memmap= line holds nothing else that sh or GRUB
// would read (digits, letters, ',', '=' and '$').
static void escape_dollars(char *out, size_t cap, const char *line)
{
	size_t n = 0;

	for (; *line && n + 5 < cap; line++) {
		if (*line == '$')
			n += (size_t)snprintf(out + n, cap - n, "\\\\\\");
		out[n++] = *line;
	}
	out[n] = '\0';
}

// Why the lines have no memmap= line.
static const char *no_memmap(const struct lines *l)
{
	return l->whole ? "no failing page lies in usable RAM"
			: "the record lists not every failing page (GRUB_BADRAM covers them all)";
}

// The file for r: what it is, then the lines.
static size_t cfg_text(char *buf, size_t cap, const struct record *r, const struct lines *l)
{
	char date[64], version[RECORD_VERSION_MAX * ESCAPE_MAX_PER_BYTE + 1];
	char memmap[2 * BADRAM_LINE_MAX];
	int n;

	record_date_text(date, sizeof(date), &r->date);
	escape_text(version, sizeof(version), r->version, strlen(r->version));
	n = snprintf(buf, cap,
		     CFG_HEADER " (see ramsift-apply(8)): keeps GRUB and\n"
		     "# Linux off the failing pages of the RamsiftResult record:\n"
		     "# %llu pages, found by ramsift %s on %s.\n"
		     "# update-grub reads it after /etc/default/grub; ramsift-apply --uninstall\n"
		     "# removes it and runs update-grub.\n"
		     "%s\n", (unsigned long long)r->failing_pages, version, date, l->grub);
	if (l->memmap) {
		escape_dollars(memmap, sizeof(memmap), l->memmap_line);
		n += snprintf(buf + n, cap - (size_t)n,
			      "GRUB_CMDLINE_LINUX_DEFAULT=\"$GRUB_CMDLINE_LINUX_DEFAULT %s\"\n", memmap);
	} else {
		n += snprintf(buf + n, cap - (size_t)n, "# No memmap= line: %s.\n", no_memmap(l));
	}
	return (size_t)n;
}

bool grub_present(const struct apply *a)
{
	char path[APPLY_PATH_MAX];

	apply_path(a, PATH_GRUB_CFG, path);
	return access(path, F_OK) == 0;
}

bool grub_current(const struct apply *a, const struct record *r, const struct lines *l)
{
	static char want[CFG_MAX], have[CFG_MAX];
	char path[APPLY_PATH_MAX];
	size_t n = cfg_text(want, sizeof(want), r, l);

	apply_path(a, PATH_GRUB_CFG, path);
	return read_file(path, have, sizeof(have)) == (long)n && memcmp(want, have, n) == 0;
}

// Whether path is absent or one this program wrote: the name is a natural
// one for settings of ramsift's own (GRUB_RAMSIFT_CMDLINE), never to be
// overwritten or removed. Said when not.
static bool ours(const char *path)
{
	static char text[CFG_MAX];

	if (read_file(path, text, sizeof(text)) < 0 && errno == ENOENT)
		return true;
	if (strncmp(text, CFG_HEADER, strlen(CFG_HEADER)) == 0)
		return true;
	say(LEVEL_ERROR, "%s was not written by ramsift-apply (its first line is not \"" CFG_HEADER
	    "...\"): move its settings to another file of that folder, then run this again", path);
	return false;
}

static enum status update_grub(const char *what)
{
	char *argv[] = { "update-grub", NULL };
	int st = run(argv, NULL, 0);

	if (st == 0)
		return STATUS_OK;
	say(LEVEL_ERROR, "%s, but update-grub failed (exit status %d), so grub.cfg does not have it "
	    "yet: fix what update-grub said and run it again", what, st);
	return STATUS_FAILED;
}

// Whether a line of text sets key ("NAME=").
static bool sets(const char *text, const char *key)
{
	for (const char *p = text; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		p += strspn(p, " \t");
		if (strncmp(p, key, strlen(key)) == 0)
			return true;
	}
	return false;
}

// A GRUB_BADRAM of /etc/default/grub's own, which ramsift.cfg replaces.
static void note_own_badram(const struct apply *a)
{
	static char text[64 * 1024];
	char path[APPLY_PATH_MAX];

	apply_path(a, PATH_GRUB_DEFAULT, path);
	if (read_file(path, text, sizeof(text)) >= 0 && sets(text, "GRUB_BADRAM="))
		say(LEVEL_NOTICE, "%s sets GRUB_BADRAM too: ramsift.cfg's, read after it, "
		    "replaces it; add its pairs to ramsift.cfg's if they are still wanted", path);
}

static bool make_dir(const char *path)
{
	return mkdir(path, 0755) == 0 || errno == EEXIST;
}

enum status grub_install(const struct apply *a, const struct record *r, const struct lines *l)
{
	static char text[CFG_MAX];
	char path[APPLY_PATH_MAX], dir[APPLY_PATH_MAX], what[APPLY_PATH_MAX + 64];
	enum status st;

	if (!l->failed) {
		say(LEVEL_NOTICE, "the record says %s: no failing page to exclude, nothing installed%s",
		    status_result_name(r->result), grub_present(a) ? " (the ramsift.cfg of an "
		    "earlier run stays: ramsift-apply --uninstall removes it)" : "");
		return STATUS_OK;
	}
	if ((st = machine_guard(a, r, "--install")) != STATUS_OK)
		return st;
	apply_path(a, PATH_GRUB_CFG, path);
	if (!ours(path))
		return STATUS_FAILED;
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	size_t n = cfg_text(text, sizeof(text), r, l);
	if (!make_dir(dir) || !write_file(path, text, n, 0644)) {
		say(LEVEL_ERROR, "cannot write %s: %s%s", path, strerror(errno),
		    errno == EACCES ? ": run as root" : "");
		return STATUS_FAILED;
	}
	note_own_badram(a);
	snprintf(what, sizeof(what), "wrote %s", path);
	if ((st = update_grub(what)) != STATUS_OK)
		return st;
	say(LEVEL_NOTICE, "wrote %s (%u GRUB_BADRAM pairs%s) and ran update-grub: from the next "
	    "boot GRUB and Linux keep off the %llu failing pages; if GRUB then no longer starts, "
	    "ramsift-apply(8) says what to do", path, l->fold.npairs,
	    l->memmap ? ", memmap= for Linux" : "", (unsigned long long)r->failing_pages);
	if (!l->memmap)
		say(LEVEL_NOTICE, "no memmap= line: %s", no_memmap(l));
	return STATUS_OK;
}

enum status grub_uninstall(const struct apply *a)
{
	char path[APPLY_PATH_MAX], what[APPLY_PATH_MAX + 64];
	enum status st;

	apply_path(a, PATH_GRUB_CFG, path);
	if (!ours(path))
		return STATUS_FAILED;
	if (unlink(path) != 0) {
		if (errno == ENOENT) {
			say(LEVEL_NOTICE, "no %s: nothing to remove", path);
			return STATUS_OK;
		}
		say(LEVEL_ERROR, "cannot remove %s: %s%s", path, strerror(errno),
		    errno == EACCES ? ": run as root" : "");
		return STATUS_FAILED;
	}
	snprintf(what, sizeof(what), "removed %s", path);
	if ((st = update_grub(what)) != STATUS_OK)
		return st;
	say(LEVEL_NOTICE, "removed %s and ran update-grub: from the next boot GRUB and Linux use "
	    "every page again", path);
	return STATUS_OK;
}
