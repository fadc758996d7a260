// SPDX-License-Identifier: GPL-2.0-or-later
// The record ramsift left in the UEFI variable RamsiftResult
// (lib/record/record.h), read and checked before any of it is applied:
// its format and CRC, that it was written on this machine, that every
// range lies in RAM of the firmware's map and that with the pages of
// badpages.txt it stays under half the RAM. Every finding is printed; a
// record that fails a check reserves nothing and the boot goes on.
#ifndef RAMSIFT_EFI_RECORD_READ_H
#define RAMSIFT_EFI_RECORD_READ_H

#include <efi.h>

#include "map.h"
#include "record/record.h"
#include "reserve/reserve.h"

// Read and check RamsiftResult against the snapshot m, file_bytes being
// what badpages.txt's and the load options' pairs match. Returns this
// machine's record (for last-result.txt), or NULL when there is none, it
// cannot be read or decoded, or it is another machine's. *reserve: its
// pages are to be reserved (it lists failing pages and passed every check).
const struct record *nvram_load(const struct map *m, UINT64 file_bytes, BOOLEAN *reserve);

// The record's pairs (set when not all its pages fit in it) at page
// granularity into out[0..r->npairs); returns how many.
size_t nvram_pairs(const struct record *r, struct reserve_pair *out);

#endif
