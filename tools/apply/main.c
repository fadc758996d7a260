// SPDX-License-Identifier: GPL-2.0-or-later
// ramsift-apply: the Linux side of ramsift's result record. ramsift writes
// what a run found into the UEFI variable RamsiftResult (lib/record); this
// program shows it (--show, --json), and keeps the machine off the failing
// pages it names: GRUB's and Linux's lines for the next boots (--install),
// the running system now (--offline), the UEFI pre-loader before any
// loader (--install-preloader). ramsift-apply.service runs --boot at each
// boot. Options, the order the actions run in and the exit statuses here;
// each action is a file of tools/apply/ (apply.h).
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "apply.h"

#define USAGE \
"Usage: ramsift-apply [OPTION]... [ACTION]...\n" \
"Read the result record that ramsift leaves in the UEFI variable RamsiftResult\n" \
"when a run booted through UEFI ends, and keep this machine off the failing\n" \
"memory it names.\n" \
"\n" \
"Actions (none: --show); several run in this order, up to the first that fails:\n" \
"  --show               the record: the result line, the date, the seed, the\n" \
"                       machine, the failing pages, and the run's badram=,\n" \
"                       GRUB_BADRAM=, memmap= and fold: lines, folded again\n" \
"  --json               the record as one JSON object (ramsift-apply(8) lists\n" \
"                       its keys)\n" \
"  --install            write /etc/default/grub.d/ramsift.cfg (GRUB_BADRAM=,\n" \
"                       and memmap= appended to GRUB_CMDLINE_LINUX_DEFAULT) and\n" \
"                       run update-grub: GRUB and Linux keep off the pages from\n" \
"                       the next boot\n" \
"  --uninstall          remove that file and run update-grub\n" \
"  --offline            take the pages out of the running system now, until the\n" \
"                       next boot (" BADRAM_OFFLINE_FILE ")\n" \
"  --install-preloader  copy ramsift-reserve.efi to the ESP and add a boot entry\n" \
"                       for it before the current one (efibootmgr): it reserves\n" \
"                       the pages before any loader runs; Secure Boot must be\n" \
"                       off. Never done but on request\n" \
"  --clear              delete the RamsiftResult variable\n" \
"  --boot               what ramsift-apply.service runs at boot: when the record\n" \
"                       names failing pages and no protection is installed, a\n" \
"                       warning, or with RAMSIFT_APPLY=yes in\n" \
"                       /etc/default/ramsift --install and --offline\n" \
"--install, --offline and --install-preloader refuse a record of another\n" \
"machine (its SMBIOS identity against /sys/class/dmi/id's).\n" \
"\n" \
"Options:\n" \
"  --from FILE          read the record from FILE, a copy of the variable in\n" \
"                       efivarfs form (4 bytes of attributes, then the data),\n" \
"                       instead of " PATH_EFIVARS "\n" \
"  --esp DIR            the EFI system partition's mount point (default\n" \
"                       " PATH_ESP ")\n" \
"  --efi FILE           the pre-loader to copy (default:\n" \
"                       " PATH_PRELOADER_LOCAL " when make\n" \
"                       install put one there, else\n" \
"                       " PATH_PRELOADER ")\n" \
"  --root DIR           for testing: every path ramsift-apply uses but those\n" \
"                       given by --from, --esp and --efi is under DIR (efivarfs,\n" \
"                       /sys/class/dmi/id, /etc/default, /proc/cmdline,\n" \
"                       hard_offline_page, /dev/disk/by-partuuid,\n" \
"                       /sys/class/block, the ESP, the pre-loader); update-grub\n" \
"                       and efibootmgr are found on PATH, so a test puts fakes\n" \
"                       first there\n" \
"  --help               show this text\n" \
"\n" \
"Exit status: 0 done; 1 an action failed; 2 a usage error, or a --from that\n" \
"cannot be read; 3 no record; 4 the record is not valid (what is wrong and at\n" \
"which byte is said); 5 the record names another machine, or this one cannot\n" \
"tell (--install, --offline, --install-preloader).\n"

enum action {
	DO_SHOW = 1 << 0,
	DO_JSON = 1 << 1,
	DO_INSTALL = 1 << 2,
	DO_UNINSTALL = 1 << 3,
	DO_OFFLINE = 1 << 4,
	DO_PRELOADER = 1 << 5,
	DO_CLEAR = 1 << 6,
	DO_BOOT = 1 << 7,
};
#define NEEDS_RECORD (DO_SHOW | DO_JSON | DO_INSTALL | DO_OFFLINE | DO_PRELOADER)

static int usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "ramsift-apply: %s%s%s\nTry 'ramsift-apply --help'.\n", what, arg ? ": " : "",
		arg ? arg : "");
	return STATUS_USAGE;
}

// The actions and options of argv into *a; 0 on a usage error (said).
static unsigned parse(int argc, char **argv, struct apply *a)
{
	static const struct option opts[] = {
		{ "show", no_argument, NULL, DO_SHOW },
		{ "json", no_argument, NULL, DO_JSON },
		{ "install", no_argument, NULL, DO_INSTALL },
		{ "uninstall", no_argument, NULL, DO_UNINSTALL },
		{ "offline", no_argument, NULL, DO_OFFLINE },
		{ "install-preloader", no_argument, NULL, DO_PRELOADER },
		{ "clear", no_argument, NULL, DO_CLEAR },
		{ "boot", no_argument, NULL, DO_BOOT },
		{ "from", required_argument, NULL, 'f' },
		{ "esp", required_argument, NULL, 'e' },
		{ "efi", required_argument, NULL, 'p' },
		{ "root", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned actions = 0;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'f': a->from = optarg; break;
		case 'e': a->esp = optarg; break;
		case 'p': a->efi = optarg; break;
		case 'r': a->root = optarg; break;
		case 'h':
			fputs(USAGE, stdout);
			exit(STATUS_OK);
		case '?':
			usage_error(optopt ? "the option wants a value" : "unknown option",
				    argv[optind - 1]);
			return 0;
		default: actions |= (unsigned)c; break;
		}
	}
	if (optind < argc) {
		usage_error("ramsift-apply takes options only", argv[optind]);
		return 0;
	}
	return actions ? actions : DO_SHOW;
}

// The pairs of actions that cannot go together: none, or what is wrong.
static const char *conflict(unsigned actions, const struct apply *a)
{
	if ((actions & DO_BOOT) && actions != DO_BOOT)
		return "--boot goes alone";
	if ((actions & DO_SHOW) && (actions & DO_JSON))
		return "--show and --json both print the record: give one";
	if ((actions & DO_INSTALL) && (actions & DO_UNINSTALL))
		return "--install and --uninstall undo each other: give one";
	if ((actions & DO_CLEAR) && a->from)
		return "--clear deletes the variable, not a --from copy: give one";
	return NULL;
}

static enum status act(unsigned actions, const struct apply *a)
{
	static struct record r;
	static struct lines l;
	enum status st = STATUS_OK;

	if (actions & NEEDS_RECORD) {
		if ((st = record_load(a, &r)) != STATUS_OK)
			return st;
		lines_make(&r, &l);
	}
	if (actions & DO_SHOW)
		st = show_text(a, &r, &l);
	if (st == STATUS_OK && (actions & DO_JSON))
		st = show_json(a, &r, &l);
	if (st == STATUS_OK && (actions & DO_INSTALL))
		st = grub_install(a, &r, &l);
	if (st == STATUS_OK && (actions & DO_UNINSTALL))
		st = grub_uninstall(a);
	if (st == STATUS_OK && (actions & DO_OFFLINE))
		st = offline_pages(a, &r, &l);
	if (st == STATUS_OK && (actions & DO_PRELOADER))
		st = preloader_install(a, &r);
	if (st == STATUS_OK && (actions & DO_CLEAR))
		st = clear_record(a);
	return st;
}

int main(int argc, char **argv)
{
	struct apply a = { .root = "" };
	unsigned actions = parse(argc, argv, &a);
	const char *wrong;

	if (actions == 0)
		return STATUS_USAGE;
	if ((wrong = conflict(actions, &a)) != NULL)
		return usage_error(wrong, NULL);
	if (actions == DO_BOOT)
		return boot_check(&a);
	return act(actions, &a);
}
