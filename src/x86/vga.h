// SPDX-License-Identifier: GPL-2.0-or-later
// VGA text-mode console: a scrolling line log on the 80x25 text screen.
#ifndef RAMSIFT_SRC_X86_VGA_H
#define RAMSIFT_SRC_X86_VGA_H

#include <stddef.h>
#include <stdint.h>

// Start writing to the text buffer at phys (normally 0xb8000), cols x rows
// cells, clearing the screen.
void vga_init(uint64_t phys, uint32_t cols, uint32_t rows);

// Write n bytes; '\n' starts a new line, the screen scrolls at the bottom.
void vga_write(const char *s, size_t n);

#endif
