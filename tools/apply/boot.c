// SPDX-License-Identifier: GPL-2.0-or-later
// --boot (apply.h), what ramsift-apply.service runs at each boot: when the
// record names failing pages and no protection is installed, a warning in
// the journal, or, when /etc/default/ramsift says RAMSIFT_APPLY=yes, the
// protection installed (--install) and the pages taken out of use now
// (--offline). It never installs the pre-loader.
#include <stdio.h>
#include <string.h>

#include "apply.h"

// The value after "KEY=" at s, to the line's end, without blanks after it
// and without the quotes around it, into out.
static void unquote(const char *s, char *out, size_t cap)
{
	size_t n = strcspn(s, "\r\n");

	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n >= 2 && (s[0] == '"' || s[0] == '\'') && s[n - 1] == s[0]) {
		s++;
		n -= 2;
	}
	snprintf(out, cap, "%.*s", (int)n, s);
}

// Whether /etc/default/ramsift says RAMSIFT_APPLY=yes (its last such
// line, as sh reads it). A missing file says no.
static bool apply_wanted(const struct apply *a)
{
	static char text[16 * 1024];
	char path[APPLY_PATH_MAX], value[64] = "no";

	apply_path(a, PATH_SETTINGS, path);
	if (read_file(path, text, sizeof(text)) < 0)
		return false;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		line += strspn(line, " \t");
		if (strncmp(line, "RAMSIFT_APPLY=", 14) == 0)
			unquote(line + 14, value, sizeof(value));
	}
	if (strcmp(value, "yes") != 0 && strcmp(value, "no") != 0)
		say(LEVEL_WARNING, "%s: RAMSIFT_APPLY=%s is neither yes nor no: taken as no", path,
		    value);
	return strcmp(value, "yes") == 0;
}

// What keeps the machine off the record's pages, or NULL.
static const char *protection(const struct apply *a, const struct record *r,
			      const struct lines *l)
{
	if (grub_current(a, r, l))
		return PATH_GRUB_CFG " (GRUB_BADRAM and memmap=)";
	if (preloader_present(a))
		return "the pre-loader ramsift-reserve.efi";
	return NULL;
}

static enum status protect(const struct apply *a, const struct record *r,
			   const struct lines *l, const char *date)
{
	const char *by = protection(a, r, l);
	enum status st;

	if (by) {
		say(LEVEL_INFO, "ramsift's run of %s found %llu failing pages: %s keeps the machine "
		    "off them", date, (unsigned long long)r->failing_pages, by);
		return STATUS_OK;
	}
	if (!apply_wanted(a)) {
		say(LEVEL_WARNING, "ramsift's run of %s found %llu failing pages, and no protection "
		    "is installed%s: run ramsift-apply --install (ramsift-apply(8)), or set "
		    "RAMSIFT_APPLY=yes in " PATH_SETTINGS " to have it done at boot", date,
		    (unsigned long long)r->failing_pages,
		    grub_present(a) ? " (" PATH_GRUB_CFG " holds another run's lines)" : "");
		return STATUS_OK;
	}
	say(LEVEL_NOTICE, "ramsift's run of %s found %llu failing pages: installing the protection, "
	    "as " PATH_SETTINGS " says RAMSIFT_APPLY=yes", date, (unsigned long long)r->failing_pages);
	if ((st = grub_install(a, r, l)) != STATUS_OK)
		return st;
	return offline_pages(a, r, l);
}

enum status boot_check(const struct apply *a)
{
	static struct record r;
	static struct lines l;
	char date[64], why[1024];
	enum status st;

	if (!record_exists(a)) {
		say(LEVEL_INFO, "no record of ramsift: nothing to do");
		return STATUS_OK;
	}
	if ((st = record_load(a, &r)) != STATUS_OK)
		return st;
	lines_make(&r, &l);
	record_date_text(date, sizeof(date), &r.date);
	if (!record_failed(&r)) {
		if (grub_present(a))
			say(LEVEL_NOTICE, "ramsift's run of %s found no failing page, and the protection "
			    "of an earlier run is installed (" PATH_GRUB_CFG "): once the memory it "
			    "excludes is replaced, ramsift-apply --uninstall removes it", date);
		return STATUS_OK;
	}
	switch (machine_compare(a, &r, why, sizeof(why))) {
	case MACHINE_SAME:
		return protect(a, &r, &l, date);
	case MACHINE_OTHER:
		say(LEVEL_WARNING, "the record of ramsift's run of %s names another machine (this one "
		    "is %s): nothing applied; run ramsift on this machine", date, why);
		return STATUS_OK;
	case MACHINE_UNKNOWN:
		break;
	}
	say(LEVEL_WARNING, "%s: cannot tell whether the record of ramsift's run of %s is this "
	    "machine's; nothing applied", why, date);
	return STATUS_OK;
}
