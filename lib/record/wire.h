// SPDX-License-Identifier: GPL-2.0-or-later
// What of the record's byte format record_set_pages needs to size the
// ranges it keeps (record.c holds the format; docs/output-contract.md, "The
// NVRAM record", describes it). Internal to lib/record.
#ifndef RAMSIFT_LIB_RECORD_WIRE_H
#define RAMSIFT_LIB_RECORD_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "range.h"

#define WIRE_PAIR_BYTES 16

// The bytes a range list's entry for r takes after an entry ending at
// prev_end (bytes; 0 for the first entry): two LEB128 numbers, the gap in
// pages and the length in pages minus 1.
size_t wire_range_bytes(uint64_t prev_end, struct range r);

#endif
