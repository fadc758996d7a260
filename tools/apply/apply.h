// SPDX-License-Identifier: GPL-2.0-or-later
// ramsift-apply: what its parts share. The paths it works on (each under
// --root, so that the tests run it on a fake system), its exit statuses,
// and each action's entry point, one file each: the record read
// (variable.c), this machine (dmi.c), the fold's lines (lines.c),
// --show and --json (show.c, showjson.c), GRUB's file (grub.c), --offline
// (offline.c), --clear (clear.c), the pre-loader (preloader.c, bootmgr.c),
// the unit's --boot (boot.c); messages (say.c), files and commands (system.c).
#ifndef RAMSIFT_TOOLS_APPLY_APPLY_H
#define RAMSIFT_TOOLS_APPLY_APPLY_H

#include <stdbool.h>
#include <stddef.h>

#include "badram/badram.h"
#include "record/record.h"

// The exit statuses (ramsift-apply(8) lists them).
enum status {
	STATUS_OK = 0,
	STATUS_FAILED = 1,	// an action failed: a command, a write
	STATUS_USAGE = 2,	// a wrong option, or a file that cannot be read
	STATUS_NO_RECORD = 3,	// no RamsiftResult variable
	STATUS_BAD_RECORD = 4,	// the record is not a valid one
	STATUS_FOREIGN = 5,	// another machine's record (or this one cannot tell)
};

// The system ramsift-apply works on.
struct apply {
	const char *root;	// --root: every path below is under it ("" for /)
	const char *from;	// --from FILE, or NULL: the variable in efivarfs
	const char *esp;	// --esp DIR, or NULL: ROOT/boot/efi
	const char *efi;	// --efi FILE, or NULL: PATH_PRELOADER_LOCAL or PATH_PRELOADER
};

// The paths, as on a real system (apply_path puts --root before them).
#define PATH_EFIVARS "/sys/firmware/efi/efivars"
#define PATH_RECORD PATH_EFIVARS "/" RECORD_VAR_NAME "-" RECORD_GUID_TEXT
#define PATH_DMI "/sys/class/dmi/id"
#define PATH_GRUB_DEFAULT "/etc/default/grub"
#define PATH_GRUB_CFG "/etc/default/grub.d/ramsift.cfg"
#define PATH_SETTINGS "/etc/default/ramsift"
#define PATH_CMDLINE "/proc/cmdline"
#define PATH_ESP "/boot/efi"
#define PATH_PRELOADER "/usr/lib/ramsift/ramsift-reserve.efi"
#define PATH_PRELOADER_LOCAL "/usr/local/lib/ramsift/ramsift-reserve.efi"	// make install's
// The pre-loader's folder on the ESP, as the firmware names it and as
// Linux does (below the ESP's mount point).
#define ESP_DIR_EFI "\\EFI\\ramsift"
#define ESP_DIR "/EFI/ramsift"
#define ESP_LOADER ESP_DIR_EFI "\\ramsift-reserve.efi"

#define APPLY_PATH_MAX 4096

// a's root followed by abs into out. A path too long for APPLY_PATH_MAX
// ends the program with STATUS_USAGE (only a --root that long makes one).
void apply_path(const struct apply *a, const char *abs, char out[APPLY_PATH_MAX]);

// ---- messages (say.c)
// Each is one line on standard error, "ramsift-apply: " and the text
// (warnings "ramsift-apply: warning: "). When standard error is the
// journal (systemd's JOURNAL_STREAM names it), the line starts with its
// priority, <3> to <6>, so the journal files it at that level.
enum level { LEVEL_ERROR = 3, LEVEL_WARNING = 4, LEVEL_NOTICE = 5, LEVEL_INFO = 6 };
__attribute__((format(printf, 2, 3))) void say(enum level level, const char *fmt, ...);

// ---- the record (variable.c)
// Read the record into *r: the variable in efivarfs form (4 bytes of
// attributes, then the data) at a->from or PATH_RECORD. Says what is wrong
// when it cannot: STATUS_NO_RECORD, STATUS_BAD_RECORD (record_decode's
// error and its offset), STATUS_USAGE (a --from that cannot be read).
enum status record_load(const struct apply *a, struct record *r);

// Whether the variable (or --from's file) exists; false too when efivarfs
// is not there.
bool record_exists(const struct apply *a);

// Whether the record names failing pages to keep out of use.
bool record_failed(const struct record *r);

// ---- this machine (dmi.c)
enum machine_match { MACHINE_SAME, MACHINE_OTHER, MACHINE_UNKNOWN };

// Whether r was written on this machine, from PATH_DMI. why gets, for
// MACHINE_OTHER, what this machine is (machine_describe's text, or that it
// has no SMBIOS identity, which matches no record), for MACHINE_UNKNOWN
// the reason it cannot be read.
enum machine_match machine_compare(const struct apply *a, const struct record *r, char *why,
				   size_t len);

// STATUS_OK when r is this machine's; else says that action refuses it and
// why, and returns STATUS_FOREIGN.
enum status machine_guard(const struct apply *a, const struct record *r, const char *action);

// r's identity as the machine: line shows one:
// manufacturer="M" product="P" serial="S" uuid=U|unknown, each string
// quoted with '"' and '\' escaped and other bytes outside printable ASCII
// as \xHH.
void machine_describe(char *buf, size_t len, const char *manufacturer, const char *product,
		      const char *serial, bool uuid_known, const uint8_t uuid[16]);

// ---- the lines (lines.c)
struct lines {
	struct badram_result fold;
	bool whole;		// the fold is the run's own: every page listed
	bool failed;		// there is something to exclude (fold.npairs > 0)
	bool memmap;		// a memmap= line (whole, and a failing page in RAM)
	char badram[BADRAM_LINE_MAX], grub[BADRAM_LINE_MAX];
	char memmap_line[BADRAM_LINE_MAX], summary[BADRAM_LINE_MAX];
};

// Fold r as the image folded the run (record_fold) and write its lines.
void lines_make(const struct record *r, struct lines *l);

// ---- the actions: each says what it did or what went wrong
enum status show_text(const struct apply *a, const struct record *r, const struct lines *l);
enum status show_json(const struct apply *a, const struct record *r, const struct lines *l);
enum status grub_install(const struct apply *a, const struct record *r, const struct lines *l);
enum status grub_uninstall(const struct apply *a);
enum status offline_pages(const struct apply *a, const struct record *r, const struct lines *l);
enum status clear_record(const struct apply *a);
enum status preloader_install(const struct apply *a, const struct record *r);
enum status boot_check(const struct apply *a);

// ---- what --boot asks of the others
// Whether GRUB's file holds what grub_install would write for r now.
bool grub_current(const struct apply *a, const struct record *r, const struct lines *l);
// Whether GRUB's file exists (from any record).
bool grub_present(const struct apply *a);
// Whether the pre-loader is on the ESP.
bool preloader_present(const struct apply *a);

// ---- commands and files (system.c)
// Run argv[0], found on PATH, with argv[] (NULL-terminated) and wait for
// it. With out, its standard output goes into out[0..cap) (NUL-terminated,
// cut to fit); else it shares ramsift-apply's. Returns its exit status,
// 128 + N when signal N ended it, 127 when it could not be started (said).
int run(char *const argv[], char *out, size_t cap);

// The bytes of path into buf[0..cap), NUL-terminated; returns their count,
// -1 with errno set when the file cannot be read or holds cap bytes or
// more (EFBIG).
long read_file(const char *path, char *buf, size_t cap);

// Write n bytes at data to path through path.tmp, synced and renamed, so
// the file is either the old one or the whole new one. mode: the new
// file's, less the umask (no chmod: the ESP's FAT refuses one). False with
// errno set.
bool write_file(const char *path, const void *data, size_t n, unsigned mode);

#endif
