// SPDX-License-Identifier: GPL-2.0-or-later
// The MAP file of ramsift-dram --simulate: a simulated controller's model,
// one item a line, `#` starts a comment:
//   function 0xMASK   one XOR bank function (at most DRAM_MAX_FUNCS)
//   row A-B           the row bits, A <= B
//   size N[KMG]       the memory, [0, N): a power of two, 1M..2^62
//   noise PERCENT     optional, 0..100: rounds delayed (default 0)
//   hammer N          optional: activations that disturb a neighbour row
//   victims N         optional: rows each side a hammered row disturbs
// function, row and size are required; functions must be independent and
// use only address bits below size, and the rows must lie below it too.
#ifndef RAMSIFT_TOOLS_DRAM_MAPFILE_H
#define RAMSIFT_TOOLS_DRAM_MAPFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "sim.h"

// Parse the NUL-terminated text into *cfg. On bad input returns false with
// a message naming the line and the item in err[0..errlen), e.g.
// "line 3: function 0xZZ: not a hexadecimal mask".
bool mapfile_parse(const char *text, struct sim_config *cfg, char *err, size_t errlen);

#endif
