// SPDX-License-Identifier: GPL-2.0-or-later
// The record as Linux holds it (apply.h): the UEFI variable RamsiftResult
// in efivarfs, whose file is the variable's 4 bytes of attributes (a
// little-endian uint32) and then its data; or a copy of that file
// (--from). The data is untrusted: record_decode checks every byte.
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "apply.h"

#define ATTR_BYTES 4

bool record_exists(const struct apply *a)
{
	char path[APPLY_PATH_MAX];

	if (a->from)
		return access(a->from, F_OK) == 0;
	apply_path(a, PATH_RECORD, path);
	return access(path, F_OK) == 0;
}

bool record_failed(const struct record *r)
{
	return r->failing_pages > 0;
}

// Why the variable is absent, said.
static enum status say_absent(const struct apply *a)
{
	char dir[APPLY_PATH_MAX];
	struct stat st;

	apply_path(a, PATH_EFIVARS, dir);
	if (stat(dir, &st) != 0)
		say(LEVEL_ERROR, "no %s: this system did not boot through UEFI (or efivarfs is not "
		    "mounted), so it holds no record; use the lines of ramsift's log instead "
		    "(ramsift-fold refolds a log)", dir);
	else
		say(LEVEL_ERROR, "no %s variable in %s: ramsift has written no record on this "
		    "machine (it writes one when a run booted through UEFI ends)", RECORD_VAR_NAME, dir);
	return STATUS_NO_RECORD;
}

// What to do about a bad record: a copy is the reader's to replace.
static const char *advice(const struct apply *a)
{
	return a->from ? "give --from a copy of a RamsiftResult variable"
		       : "run ramsift again for a new record, or ramsift-apply --clear to delete "
			 "this one";
}

static enum status decode(const struct apply *a, const char *path, const uint8_t *file, size_t n,
			  struct record *r)
{
	uint32_t attr;
	size_t at = 0;

	if (n < ATTR_BYTES) {
		say(LEVEL_ERROR, "%s: %zu bytes, not a variable in efivarfs form (4 bytes of "
		    "attributes, then the data); nothing was applied: %s", path, n, advice(a));
		return STATUS_BAD_RECORD;
	}
	memcpy(&attr, file, sizeof(attr));	// little-endian, as this x86 host
	if (attr != RECORD_ATTRIBUTES)
		say(LEVEL_WARNING, "%s: attributes 0x%x, not 0x%x (non-volatile, boot-service and "
		    "runtime access) as ramsift writes them; reading it anyway", path, attr,
		    RECORD_ATTRIBUTES);
	enum record_error e = record_decode(r, file + ATTR_BYTES, n - ATTR_BYTES, &at);
	if (e == RECORD_OK)
		return STATUS_OK;
	say(LEVEL_ERROR, "%s: not a valid ramsift record: %s (byte %zu of the record, offset %zu "
	    "of the file); nothing was applied: %s", path, record_error_text(e), at,
	    at + ATTR_BYTES, advice(a));
	return STATUS_BAD_RECORD;
}

enum status record_load(const struct apply *a, struct record *r)
{
	// One byte more than a record may hold, so that record_decode sees a
	// longer one and says so.
	static char file[ATTR_BYTES + RECORD_MAX_BYTES + 2];
	char path[APPLY_PATH_MAX];
	long n;

	if (a->from)
		snprintf(path, sizeof(path), "%s", a->from);
	else
		apply_path(a, PATH_RECORD, path);
	n = read_file(path, file, sizeof(file));
	if (n < 0 && errno == EFBIG)
		n = sizeof(file) - 1;
	else if (n < 0 && errno == ENOENT && !a->from)
		return say_absent(a);
	if (n < 0) {
		say(LEVEL_ERROR, "cannot read %s: %s%s", path, strerror(errno),
		    errno == EACCES || errno == EPERM ? ": run as root" : "");
		return a->from ? STATUS_USAGE : STATUS_NO_RECORD;
	}
	return decode(a, path, (const uint8_t *)file, (size_t)n, r);
}
