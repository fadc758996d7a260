// SPDX-License-Identifier: GPL-2.0-or-later
// VGA text-mode screen: the cells of the text buffer, drawn one at a time
// (src/screen.c keeps the character grid and draws what changed).
#ifndef RAMSIFT_SRC_X86_VGA_H
#define RAMSIFT_SRC_X86_VGA_H

#include <stdint.h>

// Draw into the text buffer at physical phys (normally 0xb8000, reached
// through the identity map), cols x rows cells. Touches nothing yet.
void vga_init(uint64_t phys, uint32_t cols, uint32_t rows);

// Switch the VGA text screen (a standard 80x25 of 16-line characters, 400
// scan lines) to 80x50: load font (256 glyphs of 8 rows, bit 7 leftmost)
// into the font memory and make characters 8 lines high; the hardware
// cursor goes off. Then vga_init() the buffer as 80x50. Port writes only,
// no wait (the result panel switches on the panic path too).
void vga_rows50(const uint8_t font[256][8]);

// Draw one cell: a character of code page 437 (the VGA BIOS font) and its
// attribute (foreground colour in bits 0-3, background in bits 4-7).
// Nothing outside the screen, or before vga_init(). Takes no lock and never
// waits: the panic path calls it.
void vga_draw(uint32_t col, uint32_t row, uint8_t ch, uint8_t attr);

#endif
