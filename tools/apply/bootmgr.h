// SPDX-License-Identifier: GPL-2.0-or-later
// The firmware's boot entries as `efibootmgr -v` prints them, for
// --install-preloader: BootCurrent, BootOrder, and each BootXXXX with its
// label and device path (HD(...) names the partition, File(...) the
// loader).
#ifndef RAMSIFT_TOOLS_APPLY_BOOTMGR_H
#define RAMSIFT_TOOLS_APPLY_BOOTMGR_H

#include <stdbool.h>
#include <stddef.h>

#define BOOT_ENTRIES_MAX 256

struct boot_entry {
	unsigned num;
	char label[256];
	char path[1024];	// the device path as efibootmgr prints it
};

struct boot_table {
	bool has_current;
	unsigned current;	// BootCurrent
	size_t norder;
	unsigned order[BOOT_ENTRIES_MAX];
	size_t n;
	struct boot_entry entry[BOOT_ENTRIES_MAX];
};

// Run `efibootmgr -v` and read its table into *t (lines it does not know
// are skipped; entries past BOOT_ENTRIES_MAX are left out). False when it
// failed (said).
bool bootmgr_read(struct boot_table *t);

// The entry BootNUM, or NULL.
const struct boot_entry *bootmgr_entry(const struct boot_table *t, unsigned num);

// The first entry whose loader is loader (as File() names it, case
// ignored, as FAT ignores it), or NULL.
const struct boot_entry *bootmgr_find(const struct boot_table *t, const char *loader);

// The loader of device path: what File(...) holds, e.g.
// \EFI\debian\shimx64.efi. False when it names none.
bool bootmgr_file(const char *path, char *out, size_t cap);

// The partition of device path HD(N,GPT,UUID,...) or HD(N,MBR,0xSIG,...):
// its number, and its name in /dev/disk/by-partuuid (the GPT UUID, or
// SIG-NN for MBR, lowercase). False when it names none.
bool bootmgr_partition(const char *path, unsigned *part, char *partuuid, size_t cap);

// BootOrder as efibootmgr --bootorder takes it: "0001,0002".
void bootmgr_order_text(char *buf, size_t cap, const unsigned *order, size_t n);

#endif
