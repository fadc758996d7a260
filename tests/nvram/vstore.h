// SPDX-License-Identifier: GPL-2.0-or-later
// The UEFI variable store of an OVMF VARS file, in memory: parse it, find a
// variable, add, replace and delete one, and compact the store as the
// firmware's reclaim does. The format is EDK II's (MdeModulePkg's
// VariableFormat.h, PiFirmwareVolume.h): a firmware volume header of the
// system NV data GUID, a variable store header right after it, then the
// variables, each a header (StartId 0x55AA, State, Attributes, NameSize,
// DataSize, vendor GUID; the authenticated format adds a monotonic count, a
// time stamp and a key index), the UCS-2 name with its NUL, the data, and
// padding to 4 bytes; erased flash (0xFF) after the last. The firmware's
// fault-tolerant-write areas follow the store, inside the same volume.
//
// Edits are what the firmware's own writes would leave: a new copy appended
// in the erased space, the old one's State bits cleared. Only the store's
// bytes change; the volume header and the FTW areas never do.
#ifndef RAMSIFT_TESTS_NVRAM_VSTORE_H
#define RAMSIFT_TESTS_NVRAM_VSTORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VS_GUID_BYTES 16

// A variable's State: the firmware clears bits as a write proceeds.
#define VS_HEADER_VALID_ONLY 0x7f	// header written, name and data not yet
#define VS_ADDED 0x3f
#define VS_IN_DELETED_TRANSITION 0xfe	// ANDed into VS_ADDED: being replaced
#define VS_DELETED 0xfd			// ANDed: obsolete

struct vs_var {
	size_t off;		// the header's offset in the file
	size_t size;		// bytes to the next header: header, name, data, padding
	uint8_t state;
	uint32_t attributes;
	uint32_t name_size;	// bytes, the NUL included
	uint32_t data_size;	// bytes
	size_t name_off, data_off;	// offsets in the file
	uint8_t guid[VS_GUID_BYTES];	// as the bytes lie (Data1-3 little-endian)
	// A header still erased in part (a write cut short): the firmware takes
	// it for a bare header, never a variable.
	bool partial;
	// Counted by QueryVariableInfo and found by GetVariable: VS_ADDED, or
	// being replaced with no added copy of the same name and GUID.
	bool live;
};

// The firmware's fault-tolerant write (FTW) working block, after the store:
// the last write it logs, if any.
enum vs_ftw {
	VS_FTW_ABSENT,		// no working block in the volume
	VS_FTW_IDLE,		// every logged write done, or one the firmware aborts
	VS_FTW_PENDING,		// a write whose spare copy is done and target is not:
				// at the next boot the firmware copies the spare over it
};

struct vs_store {
	uint8_t *file;		// the whole VARS file; edits change it in place
	size_t file_len;
	size_t fv_len;		// the firmware volume's length
	size_t store_off;	// the variable store header
	size_t store_size;	// its Size: the header and the variables
	size_t first;		// the first variable header
	size_t end;		// store_off + store_size
	bool auth;		// authenticated variable headers
	size_t header_size;	// a variable header's bytes: 60 or 32
	size_t tail;		// the first erased byte after the last variable
	size_t nvars;
	struct vs_var *var;	// nvars of them, in the store's order
	enum vs_ftw ftw;
	size_t ftw_off;		// the working block's offset (not VS_FTW_ABSENT)
	uint64_t ftw_lba, ftw_offset, ftw_length;	// the pending write's target
};

struct vs_error {
	size_t off;		// where in the file
	char text[200];
};

// Parse file[0..len) into *s; s->file is file (not copied). False, with
// *err saying what is wrong where, when any length, offset or field is not
// what the firmware writes: a truncated file, a volume or store header that
// is not OVMF's, a variable that does not fit the store, a StartId that is
// neither 0x55AA nor erased, bytes after the last variable that are not
// erased, an FTW write queue that runs past its block. Frees nothing on
// failure but s->var (none is kept).
bool vs_parse(struct vs_store *s, uint8_t *file, size_t len, struct vs_error *err);

// Free what vs_parse allocated (not the file).
void vs_release(struct vs_store *s);

// The variable GetVariable would return for the UCS-2 name name[0..name_size)
// (its NUL included) and guid: the first added copy, else the last live one
// being replaced; NULL when there is none.
const struct vs_var *vs_find(const struct vs_store *s, const uint8_t *name, size_t name_size,
			     const uint8_t *guid);

// QueryVariableInfo's MaximumVariableStorageSize for non-volatile variables
// (OVMF keeps no space for hardware error records).
uint64_t vs_space(const struct vs_store *s);

// Bytes of the live variables, headers and padding included.
uint64_t vs_live_bytes(const struct vs_store *s);

// QueryVariableInfo's RemainingVariableStorageSize while boot services run
// (only live variables count; the rest is reclaimed when needed), and after
// a reclaim.
uint64_t vs_remaining(const struct vs_store *s);

// Bytes a variable of these sizes takes in the store, padding included.
uint64_t vs_entry_size(const struct vs_store *s, uint64_t name_size, uint64_t data_size);

// Set the variable: append a copy with these attributes and data, then mark
// every live copy of it deleted; compact the store first when the erased
// space is short. False, the store unchanged, when the live variables and the
// new one would not fit the store.
bool vs_set(struct vs_store *s, const uint8_t *name, size_t name_size, const uint8_t *guid,
	    uint32_t attributes, const uint8_t *data, size_t data_size);

// Mark every live copy of the variable deleted; false when there is none.
bool vs_delete(struct vs_store *s, const uint8_t *name, size_t name_size, const uint8_t *guid);

// Rewrite the store with its live variables alone, in the order the
// firmware's reclaim keeps (the added ones, then those being replaced), the
// rest erased.
void vs_reclaim(struct vs_store *s);

#endif
