// SPDX-License-Identifier: GPL-2.0-or-later
// Moving the image out of the way so the memory it occupied can be tested.
// All code runs from the kernel window, so a move is a copy of the image
// plus new page tables that point the window at the copy.
#ifndef RAMSIFT_SRC_X86_RELOCATE_H
#define RAMSIFT_SRC_X86_RELOCATE_H

#include <stdint.h>

// Write page tables at dest + image_bytes (paging_table_bytes(top) bytes:
// identity map up to top, the window onto dest), copy the image_bytes at
// image to dest, and switch to the new tables. dest must be page aligned,
// and the new image and tables free RAM disjoint from the old. Interrupts
// must be off and no other CPU may be running ramsift's code.
void relocate(uint64_t image, uint64_t image_bytes, uint64_t dest, uint64_t top);

#endif
