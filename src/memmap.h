// SPDX-License-Identifier: GPL-2.0-or-later
// The loader's memory map: usable RAM for the run (lib/run/ram.h keeps what
// is free of it), and the log lines that show it.
#ifndef RAMSIFT_SRC_MEMMAP_H
#define RAMSIFT_SRC_MEMMAP_H

#include <stdbool.h>

#include "boot/multiboot.h"
#include "run/ram.h"

// Log the loader's entries, then fill mm's usable RAM from them (warning
// about every entry that is dropped or clipped), all of it free. Returns
// false if no usable RAM remains.
bool memmap_init(struct ram *mm, const struct bootinfo *bi);

// Print the usable ranges, their total, and what ramsift occupies.
void memmap_print(const struct ram *mm);

#endif
