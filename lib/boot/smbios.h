// SPDX-License-Identifier: GPL-2.0-or-later
// The machine's identity from SMBIOS (DMTF DSP0134): the system's
// manufacturer, product, version, serial number and UUID (structure type
// 1) and each memory device (type 17: slot, bank, size, speed,
// manufacturer, serial and part number). The entry point comes from the
// loader's Multiboot 2 copy (tag 13), else from the EFI system table's
// configuration table (a UEFI boot), else from a scan of 0xF0000-0xFFFFF;
// SMBIOS 3.0 ("_SM3_") is preferred to 2.1 ("_SM_") wherever both are.
// Every byte is read through the caller's bounded reader, every length and
// count is bounded, checksums are checked, and a broken table is reported
// through the warn callback and read no further than it is sound.
#ifndef RAMSIFT_LIB_BOOT_SMBIOS_H
#define RAMSIFT_LIB_BOOT_SMBIOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capacity.h"	// SMBIOS_DIMMS_MAX
#include "boot/multiboot.h"

// The longest warning passed to the warn callback, its terminator included.
#define SMBIOS_WARNING_LEN 200

// Bytes kept of each string (longer ones are cut), and the longest
// structure table read.
#define SMBIOS_STRING_MAX	64
#define SMBIOS_TABLE_MAX	(1u << 20)

typedef char smbios_string[SMBIOS_STRING_MAX + 1];	// NUL-terminated; "" when absent

// One memory device (type 17), installed or an empty slot.
struct smbios_dimm {
	smbios_string locator;		// the slot, "DIMM 0", "ChannelA-DIMM0"
	smbios_string bank;		// "BANK 0", "P0 CHANNEL A"
	smbios_string manufacturer;
	smbios_string serial;
	smbios_string part_number;
	bool installed;			// size is not 0 ("No Module Installed")
	bool size_known;		// the size field is not 0xFFFF
	uint64_t size_mib;		// installed and known (KiB sizes rounded down); else 0
	uint32_t speed_mts;		// the module's maximum speed in MT/s; 0: unknown
};

enum smbios_status {
	SMBIOS_FOUND,		// an entry point and a table with at least its first structure
	SMBIOS_NO_ENTRY,	// no valid entry point in the tag, the EFI table or the scan
	SMBIOS_NO_TABLE,	// the entry point's table cannot be read
};

enum smbios_from {
	SMBIOS_FROM_NONE,
	SMBIOS_FROM_TAG,	// the loader's Multiboot 2 tag 13
	SMBIOS_FROM_EFI,	// the EFI system table's configuration table
	SMBIOS_FROM_SCAN,	// 0xF0000-0xFFFFF
};

struct smbios_info {
	enum smbios_status status;
	enum smbios_from from;
	uint64_t entry;			// the entry point's physical address; 0: the tag's copy
	bool v3;			// a 3.0 entry point ("_SM3_")
	uint8_t major, minor;		// the SMBIOS version the entry point gives
	uint64_t table;			// the structure table's physical address
	uint32_t table_len;		// its length (3.0: its maximum), as read
	size_t structures;		// structures walked
	bool system;			// a type 1 structure was read
	smbios_string manufacturer, product, version, serial;
	bool uuid_known;		// not all 0x00 (unknown) nor all 0xFF (not present)
	uint8_t uuid[16];		// as RFC 4122 orders it (SMBIOS 2.6 on stores the
					// first three fields little-endian; swapped back)
	size_t ndimms;			// type 17 structures kept in dimm[]
	size_t dimms_beyond;		// more than SMBIOS_DIMMS_MAX: counted, not kept
	struct smbios_dimm dimm[SMBIOS_DIMMS_MAX];
	size_t warnings;		// how many times warn was called
};

// Find and read the SMBIOS tables into *s. bi: the loader's information
// (tag 13's copy and the EFI system table's address; NULL: scan only).
// read serves physical memory; warn gets one sentence per problem; ctx is
// passed to both. Returns s->status.
enum smbios_status smbios_find(const struct bootinfo *bi, bootinfo_read_fn read,
			       bootinfo_warn_fn warn, void *ctx, struct smbios_info *s);

// Why there is no identity, for the log ("no SMBIOS entry point ...").
const char *smbios_status_text(enum smbios_status status);

// Where the entry point was found, as the log and the JSON name it: "tag",
// "efi", "scan" (or "none").
const char *smbios_from_name(enum smbios_from from);

// The UUID as 36 characters and a NUL ("8-4-4-4-12" lowercase hex).
#define SMBIOS_UUID_LEN 37
const char *smbios_uuid_text(char buf[SMBIOS_UUID_LEN], const uint8_t uuid[16]);

// The log's lines, written into buf (size bytes, always NUL-terminated when
// size > 0), each string in double quotes with '"' and '\' escaped by a
// '\' and any byte outside printable ASCII shown as '?':
//   manufacturer="QEMU" product="Standard PC (i440FX + PIIX, 1996)"
//   version="pc-i440fx-7.2" serial="" uuid=UUID|unknown smbios=2.8
//   entry=tag|efi|scan
// and for a memory device
//   locator="DIMM 0" bank="" installed=yes size_mib=1024|unknown (0: empty)
//   speed_mts=3200|unknown manufacturer="QEMU" serial="" part_number=""
// Return the length the whole line needs, as snprintf.
int smbios_describe_system(char *buf, size_t size, const struct smbios_info *s);
int smbios_describe_dimm(char *buf, size_t size, const struct smbios_dimm *d);

#endif
