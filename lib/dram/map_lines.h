// SPDX-License-Identifier: GPL-2.0-or-later
// The words of a learned map that the image's dram: lines and
// ramsift-dram print alike (docs/output-contract.md), written once here.
#ifndef RAMSIFT_LIB_DRAM_MAP_LINES_H
#define RAMSIFT_LIB_DRAM_MAP_LINES_H

#include <stdbool.h>
#include <stddef.h>

#include "dram/dram.h"

// Line i (from 0) of a learned map, without the "dram: " prefix, into
// buf[0..size) (fmt_snprintf's rules): "bank function 0x..." for each
// function, "row bits A-B", then "validation " and
// dram_format_validation()'s words. False, buf untouched, past the last.
bool dram_map_line(const struct dram_map *map, const struct dram_validation *v, unsigned i,
		   char *buf, size_t size);

// "pairs=N measured_conflicts=M predicted_conflicts=P both=B" into
// buf[0..size); returns fmt_snprintf's length.
int dram_format_validation(char *buf, size_t size, const struct dram_validation *v);

#endif
