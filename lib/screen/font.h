// SPDX-License-Identifier: GPL-2.0-or-later
// The built-in 8x16 bitmap font: the glyphs of code page 437, the character
// set of the VGA text screen, so that a grid cell's character byte draws the
// same glyph on a VGA text screen and on a framebuffer (0xdb full block,
// 0xdc lower half, 0xdf upper half, 0xb3-0xda box drawing). The table is
// generated at build time (build/gen/font8x16.c, by tools/psf2c from a
// console font of Debian's console-setup-linux; its licence is in that file
// and in dev/font-licence.txt).
#ifndef RAMSIFT_LIB_SCREEN_FONT_H
#define RAMSIFT_LIB_SCREEN_FONT_H

#include <stdint.h>

#define FONT_WIDTH	8	// pixels; bit 7 of a row is its leftmost pixel
#define FONT_HEIGHT	16	// rows of one byte each

extern const uint8_t font_cp437[256][FONT_HEIGHT];

// The same face 8x8 (build/gen/font8x8.c, from the console-setup font of the
// same name and licence), for the VGA text screen's 80x50 mode.
#define FONT8_HEIGHT	8

extern const uint8_t font8_cp437[256][FONT8_HEIGHT];

#endif
