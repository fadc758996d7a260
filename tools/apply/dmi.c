// SPDX-License-Identifier: GPL-2.0-or-later
// This machine against the record's (apply.h): the SMBIOS identity Linux
// shows in /sys/class/dmi/id (sys_vendor, product_name, product_serial,
// product_uuid), compared by record_same_machine as the pre-loader
// compares the firmware's. What Linux shows differs from the raw table in
// two ways, undone here: it keeps every byte of a string (ramsift keeps
// SMBIOS_STRING_MAX), and it shows a string of spaces alone as none.
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "apply.h"
#include "escape.h"

// The attribute name's value into out, cut as ramsift cuts it: "" when
// Linux has no such attribute (the string is absent). False with errno
// set when it cannot be read.
static bool read_attr(const char *dir, const char *name, smbios_string out)
{
	char path[APPLY_PATH_MAX + 32], buf[4096];
	long n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	n = read_file(path, buf, sizeof(buf));
	if (n < 0 && errno == ENOENT)
		n = 0, buf[0] = '\0';
	if (n < 0)
		return false;
	if (n > 0 && buf[n - 1] == '\n')	// the attribute's own line end
		buf[--n] = '\0';
	snprintf(out, SMBIOS_STRING_MAX + 1, "%s", buf);
	return true;
}

static bool all_spaces(const char *s)
{
	return s[strspn(s, " ")] == '\0';
}

// Linux shows a string of spaces alone as none: take the record's then.
static void unhide_spaces(smbios_string self, const char *rec)
{
	if (self[0] == '\0' && rec[0] != '\0' && all_spaces(rec))
		snprintf(self, SMBIOS_STRING_MAX + 1, "%s", rec);
}

static int hex(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

// "8-4-4-4-12" hex into uuid (as Linux prints it, RFC 4122's byte order).
static bool parse_uuid(const char *s, uint8_t uuid[16])
{
	size_t k = 0;

	for (size_t i = 0; s[i] && k < 32; i++) {
		if (s[i] == '-' && (i == 8 || i == 13 || i == 18 || i == 23))
			continue;
		if (hex(s[i]) < 0)
			return false;
		uuid[k / 2] = (uint8_t)(k % 2 ? uuid[k / 2] | hex(s[i]) : hex(s[i]) << 4);
		k++;
	}
	return k == 32 && strlen(s) == 36;
}

// Unknown, as ramsift's SMBIOS reader has it: all 0x00 or all 0xff.
static bool uuid_known(const uint8_t u[16])
{
	bool zero = true, ones = true;

	for (int i = 0; i < 16; i++) {
		zero &= u[i] == 0x00;
		ones &= u[i] == 0xff;
	}
	return !zero && !ones;
}

static bool read_machine(const char *dir, struct smbios_info *s, const char **failed)
{
	smbios_string uuid;
	static const char *const names[] = { "sys_vendor", "product_name", "product_serial",
					     "product_uuid" };
	char *out[] = { s->manufacturer, s->product, s->serial, uuid };

	for (size_t i = 0; i < 4; i++)
		if (!read_attr(dir, names[i], out[i])) {
			*failed = names[i];
			return false;
		}
	s->uuid_known = parse_uuid(uuid, s->uuid) && uuid_known(s->uuid);
	return true;
}

enum machine_match machine_compare(const struct apply *a, const struct record *r, char *why,
				   size_t len)
{
	static struct smbios_info self;
	char dir[APPLY_PATH_MAX];
	const char *failed = NULL;
	struct stat st;

	apply_path(a, PATH_DMI, dir);
	memset(&self, 0, sizeof(self));
	if (stat(dir, &st) != 0) {
		snprintf(why, len, "a machine without SMBIOS identity (no %s)", dir);
		return MACHINE_OTHER;
	}
	if (!read_machine(dir, &self, &failed)) {
		snprintf(why, len, "cannot read %s/%s (%s)%s", dir, failed, strerror(errno),
			 errno == EACCES ? ": run as root" : "");
		return MACHINE_UNKNOWN;
	}
	self.status = SMBIOS_FOUND;
	self.system = true;
	unhide_spaces(self.manufacturer, r->manufacturer);
	unhide_spaces(self.product, r->product);
	unhide_spaces(self.serial, r->serial);
	if (record_same_machine(r, &self))
		return MACHINE_SAME;
	machine_describe(why, len, self.manufacturer, self.product, self.serial, self.uuid_known,
			 self.uuid);
	return MACHINE_OTHER;
}

enum status machine_guard(const struct apply *a, const struct record *r, const char *action)
{
	char why[1024], rec[1024];

	switch (machine_compare(a, r, why, sizeof(why))) {
	case MACHINE_SAME:
		return STATUS_OK;
	case MACHINE_UNKNOWN:
		say(LEVEL_ERROR, "%s refused: %s, so ramsift-apply cannot tell whether the record is "
		    "this machine's", action, why);
		return STATUS_FOREIGN;
	case MACHINE_OTHER:
		break;
	}
	machine_describe(rec, sizeof(rec), r->manufacturer, r->product, r->serial, r->uuid_known,
			 r->uuid);
	say(LEVEL_ERROR, "%s refused: the record was written on another machine (%s), and this "
	    "one is %s; its pages are no use here: run ramsift on this machine", action, rec, why);
	return STATUS_FOREIGN;
}

// s quoted into buf: '"' and '\' after a '\', other bytes as escape_text
// shows them. len holds at least strlen(s) * ESCAPE_MAX_PER_BYTE + 3.
static void quote(char *buf, size_t len, const char *s)
{
	size_t n = 0;

	buf[n++] = '"';
	for (; *s && n + ESCAPE_MAX_PER_BYTE + 2 <= len; s++) {
		if (*s == '"')
			buf[n++] = '\\';
		escape_text(buf + n, len - n, s, 1);
		n += strlen(buf + n);
	}
	buf[n++] = '"';
	buf[n] = '\0';
}

void machine_describe(char *buf, size_t len, const char *manufacturer, const char *product,
		      const char *serial, bool known, const uint8_t uuid[16])
{
	char m[SMBIOS_STRING_MAX * ESCAPE_MAX_PER_BYTE + 3], p[sizeof(m)], s[sizeof(m)];
	char u[SMBIOS_UUID_LEN];

	quote(m, sizeof(m), manufacturer);
	quote(p, sizeof(p), product);
	quote(s, sizeof(s), serial);
	snprintf(buf, len, "manufacturer=%s product=%s serial=%s uuid=%s", m, p, s,
		 known ? smbios_uuid_text(u, uuid) : "unknown");
}
