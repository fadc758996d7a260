// SPDX-License-Identifier: GPL-2.0-or-later
// --install-preloader (apply.h): ramsift-reserve.efi, which reserves the
// record's pages in the firmware's map before any loader runs
// (docs/badram.md, "Before GRUB"), copied to \EFI\ramsift on the ESP that
// holds the loader this boot started, with a badpages.txt naming that
// loader, and a boot entry for it right before the current one in
// BootOrder. Only ever on request: nothing else calls it.
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "apply.h"
#include "bootmgr.h"

#define LABEL "ramsift-reserve"
#define SECURE_BOOT PATH_EFIVARS "/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c"
#define EFI_FILE_MAX (16L << 20)

// Where a firmware path (\EFI\debian\grubx64.efi) lies below the ESP.
static void esp_file(char *out, size_t cap, const char *esp, const char *efi_path)
{
	size_t n = (size_t)snprintf(out, cap, "%s/", esp);

	for (const char *p = efi_path + (efi_path[0] == '\\'); *p && n + 1 < cap; p++)
		out[n++] = *p == '\\' ? '/' : *p;
	out[n] = '\0';
}

// The ESP's mount point: --esp, or ROOT/boot/efi.
static void esp_dir(const struct apply *a, char esp[APPLY_PATH_MAX])
{
	if (a->esp)
		snprintf(esp, APPLY_PATH_MAX, "%s", a->esp);
	else
		apply_path(a, PATH_ESP, esp);
}

// Secure Boot on: the firmware would refuse the unsigned pre-loader.
static bool secure_boot(const struct apply *a)
{
	char path[APPLY_PATH_MAX], var[16];

	apply_path(a, SECURE_BOOT, path);
	return read_file(path, var, sizeof(var)) == 5 && var[4] == 1;
}

// /dev/DISK of the partition /dev/disk/by-partuuid/ID names, from sysfs:
// the partition's parent device. False (said) when it cannot be found.
static bool disk_of(const struct apply *a, const char *id, unsigned part, char *disk, size_t cap)
{
	char rel[NAME_MAX + 32], link[APPLY_PATH_MAX], up[APPLY_PATH_MAX];
	char target[PATH_MAX], parent[PATH_MAX];
	const char *failed = link;
	ssize_t n;

	snprintf(rel, sizeof(rel), "/dev/disk/by-partuuid/%s", id);
	apply_path(a, rel, link);
	n = readlink(link, target, sizeof(target) - 1);
	if (n > 0) {
		target[n] = '\0';
		const char *name = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
		snprintf(rel, sizeof(rel), "/sys/class/block/%.*s/..", NAME_MAX, name);
		apply_path(a, rel, up);
		failed = up;
	}
	if (n <= 0 || realpath(up, parent) == NULL) {
		say(LEVEL_ERROR, "cannot find the disk of partition %u (%s: %s): add the entry by "
		    "hand: efibootmgr --create --disk /dev/DISK --part %u --label " LABEL " --loader '"
		    ESP_LOADER "'", part, failed, strerror(errno), part);
		return false;
	}
	snprintf(disk, cap, "/dev/%s", strrchr(parent, '/') + 1);
	return true;
}

// The pre-loader to copy: --efi, or where make install's default PREFIX
// or the package put it.
static void preloader_source(const struct apply *a, char src[APPLY_PATH_MAX])
{
	if (a->efi) {
		snprintf(src, APPLY_PATH_MAX, "%s", a->efi);
		return;
	}
	apply_path(a, PATH_PRELOADER_LOCAL, src);
	if (access(src, F_OK) != 0)
		apply_path(a, PATH_PRELOADER, src);
}

static bool copy_file(const char *from, const char *to)
{
	char *buf = malloc(EFI_FILE_MAX + 1);
	long n = buf ? read_file(from, buf, EFI_FILE_MAX + 1) : -1;
	bool ok = n >= 0 && write_file(to, buf, (size_t)n, 0644);

	free(buf);
	return ok;
}

// The pre-loader and its badpages.txt on the ESP; false when not (said).
static bool put_files(const struct apply *a, const char *esp, const char *loader)
{
	char src[APPLY_PATH_MAX], dir[APPLY_PATH_MAX + 16], to[APPLY_PATH_MAX + 64], text[2048];
	int n;

	preloader_source(a, src);
	snprintf(dir, sizeof(dir), "%s" ESP_DIR, esp);
	snprintf(to, sizeof(to), "%s/ramsift-reserve.efi", dir);
	if ((mkdir(dir, 0755) != 0 && errno != EEXIST) || !copy_file(src, to)) {
		say(LEVEL_ERROR, "cannot copy %s to %s: %s%s", src, to, strerror(errno),
		    errno == ENOENT ? " (give --efi FILE: make efi builds build/ramsift-reserve.efi)" : "");
		return false;
	}
	n = snprintf(text, sizeof(text),
		     "# Written by ramsift-apply --install-preloader (see ramsift-apply(8)):\n"
		     "# ramsift-reserve.efi reserves the pages of the RamsiftResult record,\n"
		     "# then starts this loader, the one the machine booted before.\n"
		     "loader=%s\n", loader);
	snprintf(to, sizeof(to), "%s/badpages.txt", dir);
	if (!write_file(to, text, (size_t)n, 0644)) {
		say(LEVEL_ERROR, "cannot write %s: %s", to, strerror(errno));
		return false;
	}
	return true;
}

// The ESP holding loader, which this boot started; false when not (said).
static bool find_esp(const struct apply *a, const char *loader, char esp[APPLY_PATH_MAX])
{
	char file[APPLY_PATH_MAX + 1024];

	esp_dir(a, esp);
	esp_file(file, sizeof(file), esp, loader);
	if (access(file, F_OK) == 0)
		return true;
	say(LEVEL_ERROR, "this boot started %s, but there is no %s: the ESP that holds it is "
	    "mounted elsewhere, or not at all: give --esp DIR", loader, file);
	return false;
}

// BootOrder with num right before before (first when before is not in it).
static size_t order_before(const struct boot_table *t, unsigned num, unsigned before,
			   unsigned *out)
{
	size_t n = 0;
	bool placed = false;

	for (size_t i = 0; i < t->norder; i++) {
		if (t->order[i] == num)
			continue;
		if (t->order[i] == before && !placed) {
			out[n++] = num;
			placed = true;
		}
		out[n++] = t->order[i];
	}
	if (!placed) {
		memmove(out + 1, out, n * sizeof(*out));
		out[0] = num;
		n++;
	}
	return n;
}

// Make the entry and put it before the current one; false when not (said).
static bool add_entry(const char *disk, unsigned part, const struct boot_entry *cur,
		      unsigned *num)
{
	static struct boot_table after;
	static char out[256 * 1024];
	char partno[16], order[BOOT_ENTRIES_MAX * 5 + 1];
	unsigned want[BOOT_ENTRIES_MAX + 1];
	char *create[] = { "efibootmgr", "--create", "--disk", (char *)disk, "--part", partno,
			   "--label", LABEL, "--loader", ESP_LOADER, NULL };
	char *reorder[] = { "efibootmgr", "--bootorder", order, NULL };

	snprintf(partno, sizeof(partno), "%u", part);
	if (run(create, out, sizeof(out)) != 0) {
		say(LEVEL_ERROR, "efibootmgr --create failed (what it said is above): no boot entry "
		    "was added");
		return false;
	}
	if (!bootmgr_read(&after))
		return false;
	const struct boot_entry *e = bootmgr_find(&after, ESP_LOADER);
	if (e == NULL) {
		say(LEVEL_ERROR, "efibootmgr --create succeeded, but no entry starts " ESP_LOADER
		    " (the firmware dropped it?): add it by hand as ramsift-apply(8) shows");
		return false;
	}
	*num = e->num;
	size_t n = order_before(&after, e->num, cur->num, want);
	if (n == after.norder && memcmp(want, after.order, n * sizeof(*want)) == 0)
		return true;
	bootmgr_order_text(order, sizeof(order), want, n);
	if (run(reorder, out, sizeof(out)) == 0)
		return true;
	say(LEVEL_ERROR, "efibootmgr --bootorder %s failed: Boot%04X starts the pre-loader but is "
	    "not before Boot%04X; set the order by hand", order, e->num, cur->num);
	return false;
}

// The current boot's entry; NULL when efibootmgr names none (said).
static const struct boot_entry *current_entry(const struct boot_table *t)
{
	const struct boot_entry *cur = t->has_current ? bootmgr_entry(t, t->current) : NULL;

	if (cur == NULL)
		say(LEVEL_ERROR, "efibootmgr names no current boot entry (BootCurrent): cannot tell "
		    "which loader the pre-loader should start; install it by hand as "
		    "docs/badram.md shows");
	return cur;
}

static enum status install(const struct apply *a, const struct boot_table *t,
			   const struct boot_entry *cur, const char *loader)
{
	const struct boot_entry *have = bootmgr_find(t, ESP_LOADER);
	char esp[APPLY_PATH_MAX], id[64], disk[NAME_MAX + 8];
	unsigned part, num;

	if (!bootmgr_partition(cur->path, &part, id, sizeof(id))) {
		say(LEVEL_ERROR, "Boot%04X (%s) names no hard-disk partition (HD(...)): the pre-loader "
		    "must sit on the partition of the loader it starts", cur->num, cur->label);
		return STATUS_FAILED;
	}
	if (!find_esp(a, loader, esp) || !put_files(a, esp, loader))
		return STATUS_FAILED;
	if (have) {
		say(LEVEL_NOTICE, "Boot%04X (%s) starts the pre-loader already: its files on %s are "
		    "new, the entry is kept", have->num, have->label, esp);
		return STATUS_OK;
	}
	if (!disk_of(a, id, part, disk, sizeof(disk)) || !add_entry(disk, part, cur, &num))
		return STATUS_FAILED;
	say(LEVEL_NOTICE, "added Boot%04X " LABEL " (" ESP_LOADER " on %s partition %u) before "
	    "Boot%04X (%s): from the next boot it reserves the record's pages, then starts %s; "
	    "efibootmgr -b %04X -B removes it", num, disk, part, cur->num, cur->label, loader, num);
	return STATUS_OK;
}

enum status preloader_install(const struct apply *a, const struct record *r)
{
	static struct boot_table before;
	char loader[1024];
	enum status st;

	if (!record_failed(r)) {
		say(LEVEL_NOTICE, "the record says %s: no failing page to reserve, nothing installed",
		    status_result_name(r->result));
		return STATUS_OK;
	}
	if ((st = machine_guard(a, r, "--install-preloader")) != STATUS_OK)
		return st;
	if (secure_boot(a)) {
		say(LEVEL_ERROR, "Secure Boot is on: the firmware would refuse the unsigned pre-loader "
		    "and boot on without it; sign it with your own key (MOK) or turn Secure Boot off");
		return STATUS_FAILED;
	}
	if (!bootmgr_read(&before))
		return STATUS_FAILED;
	const struct boot_entry *cur = current_entry(&before);
	if (cur == NULL)
		return STATUS_FAILED;
	if (!bootmgr_file(cur->path, loader, sizeof(loader))) {
		say(LEVEL_ERROR, "Boot%04X (%s) names no loader file (File(...)): the pre-loader can "
		    "only start a file on the ESP", cur->num, cur->label);
		return STATUS_FAILED;
	}
	if (strcasecmp(loader, ESP_LOADER) == 0) {
		say(LEVEL_NOTICE, "this boot started through the pre-loader (Boot%04X): it is installed",
		    cur->num);
		return STATUS_OK;
	}
	return install(a, &before, cur, loader);
}

bool preloader_present(const struct apply *a)
{
	char esp[APPLY_PATH_MAX], file[APPLY_PATH_MAX + 64];

	esp_dir(a, esp);
	esp_file(file, sizeof(file), esp, ESP_LOADER);
	return access(file, F_OK) == 0;
}
