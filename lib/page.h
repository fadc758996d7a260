// SPDX-License-Identifier: GPL-2.0-or-later
// The page: 4 KiB, the smallest x86-64 page (SDM vol. 3, 4.5) and the
// tester's unit of work. This is the one definition of its size: the memory
// map, the BadRAM fold (whose page numbers are addresses >> PAGE_SHIFT), the
// page tables, boot/entry.S and the linker script all take it from here.
// Safe to include from assembly (see const.h).
#ifndef RAMSIFT_LIB_PAGE_H
#define RAMSIFT_LIB_PAGE_H

#include "const.h"

#define PAGE_SHIFT 12
#define PAGE_SIZE (UL(1) << PAGE_SHIFT)

#endif
