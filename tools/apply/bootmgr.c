// SPDX-License-Identifier: GPL-2.0-or-later
// efibootmgr -v's table read (bootmgr.h). Its lines, as efibootmgr 17
// (Debian 12) prints them: "BootCurrent: 0001", "BootOrder: 0001,0000",
// and per entry "Boot0001* debian<TAB>HD(1,GPT,...)/File(\EFI\...)", the
// '*' a space for an inactive entry.
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "apply.h"
#include "bootmgr.h"

// s's first four characters as a hex boot number; false when they are not.
static bool boot_number(const char *s, unsigned *num)
{
	unsigned v = 0;

	for (int i = 0; i < 4; i++) {
		int c = tolower((unsigned char)s[i]);
		if (!isxdigit(c))
			return false;
		v = v * 16 + (unsigned)(isdigit(c) ? c - '0' : c - 'a' + 10);
	}
	*num = v;
	return true;
}

static void parse_order(const char *s, struct boot_table *t)
{
	unsigned num;

	t->norder = 0;
	while (t->norder < BOOT_ENTRIES_MAX && boot_number(s, &num)) {
		t->order[t->norder++] = num;
		s += 4;
		if (*s != ',')
			break;
		s++;
	}
}

// "Boot0001* label\tpath" into a new entry.
static void parse_entry(const char *line, size_t len, struct boot_table *t)
{
	struct boot_entry *e = &t->entry[t->n];
	const char *label = line + 10, *tab = memchr(line, '\t', len);

	if (t->n == BOOT_ENTRIES_MAX || len < 10 || !boot_number(line + 4, &e->num) ||
	    (line[8] != '*' && line[8] != ' ') || line[9] != ' ')
		return;
	size_t label_len = (size_t)((tab ? tab : line + len) - label);
	snprintf(e->label, sizeof(e->label), "%.*s", (int)label_len, label);
	snprintf(e->path, sizeof(e->path), "%.*s", tab ? (int)(line + len - tab - 1) : 0,
		 tab ? tab + 1 : "");
	t->n++;
}

static void parse(const char *text, struct boot_table *t)
{
	memset(t, 0, sizeof(*t));
	for (const char *line = text; *line;) {
		size_t len = strcspn(line, "\n");
		if (strncmp(line, "BootCurrent: ", 13) == 0)
			t->has_current = boot_number(line + 13, &t->current);
		else if (strncmp(line, "BootOrder: ", 11) == 0)
			parse_order(line + 11, t);
		else if (strncmp(line, "Boot", 4) == 0)
			parse_entry(line, len, t);
		line += len + (line[len] == '\n');
	}
}

bool bootmgr_read(struct boot_table *t)
{
	static char out[256 * 1024];
	char *argv[] = { "efibootmgr", "-v", NULL };
	int st = run(argv, out, sizeof(out));

	if (st != 0) {
		say(LEVEL_ERROR, "efibootmgr -v failed (exit status %d): it reads the firmware's boot "
		    "entries; install efibootmgr, and run as root on a system booted through UEFI", st);
		return false;
	}
	parse(out, t);
	return true;
}

const struct boot_entry *bootmgr_entry(const struct boot_table *t, unsigned num)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->entry[i].num == num)
			return &t->entry[i];
	return NULL;
}

bool bootmgr_file(const char *path, char *out, size_t cap)
{
	const char *f = strstr(path, "File(");
	const char *end = f ? strchr(f, ')') : NULL;

	if (end == NULL)
		return false;
	snprintf(out, cap, "%.*s", (int)(end - f - 5), f + 5);
	return out[0] != '\0';
}

const struct boot_entry *bootmgr_find(const struct boot_table *t, const char *loader)
{
	char file[1024];

	for (size_t i = 0; i < t->n; i++)
		if (bootmgr_file(t->entry[i].path, file, sizeof(file)) && strcasecmp(file, loader) == 0)
			return &t->entry[i];
	return NULL;
}

bool bootmgr_partition(const char *path, unsigned *part, char *partuuid, size_t cap)
{
	const char *hd = strstr(path, "HD(");
	char kind[4], id[64];
	unsigned long sig;
	int n = 0;

	if (hd == NULL || sscanf(hd, "HD(%u,%3[A-Z],%63[0-9a-fA-Fx-]%n", part, kind, id, &n) != 3 ||
	    n == 0)
		return false;
	if (strcmp(kind, "GPT") == 0) {
		for (char *c = id; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		snprintf(partuuid, cap, "%s", id);
		return strlen(id) == 36;
	}
	if (strcmp(kind, "MBR") != 0 || sscanf(id, "0x%lx", &sig) != 1)
		return false;
	snprintf(partuuid, cap, "%08lx-%02x", sig, *part);
	return true;
}

void bootmgr_order_text(char *buf, size_t cap, const unsigned *order, size_t n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && used + 6 < cap; i++)
		used += (size_t)snprintf(buf + used, cap - used, "%s%04X", i ? "," : "", order[i]);
}
