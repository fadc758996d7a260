// SPDX-License-Identifier: GPL-2.0-or-later
// Linear framebuffer: rectangles and glyphs drawn in pixels already packed
// for the framebuffer's format (lib/screen/colour.h packs them). Direct
// colour, 2, 3 or 4 bytes a pixel, any pitch. src/screen.c draws text on it.
#ifndef RAMSIFT_SRC_X86_FB_H
#define RAMSIFT_SRC_X86_FB_H

#include <stdbool.h>
#include <stdint.h>

// The largest framebuffer drawn on: more is nonsense from a loader.
#define FB_MAX_BYTES	(512ull << 20)

// Draw on the framebuffer at physical phys: width x height pixels of bytepp
// bytes (2, 3 or 4), rows pitch bytes apart. Checks the geometry (width and
// height at least 1, pitch >= width * bytepp, pitch * height at most
// FB_MAX_BYTES) and returns false, drawing nothing from then on, if it is
// wrong. Touches no pixel: drawing needs the framebuffer mapped (the boot
// page tables reach only the first 4 GiB; paging_build() maps it).
bool fb_init(uint64_t phys, uint32_t pitch, uint32_t width, uint32_t height, unsigned bytepp);

// Fill the w x h pixels from (x, y) with pixel, cut at the edges.
void fb_fill(uint32_t x, uint32_t y, uint32_t w, uint32_t h, uint32_t pixel);

// Draw a glyph of 8 pixels a row (bit 7 leftmost) and nrows rows with its
// top left at (x, y), each pixel scale x scale, set bits in fg and clear
// ones in bg; cut at the edges.
void fb_glyph(uint32_t x, uint32_t y, const uint8_t *rows, unsigned nrows, unsigned scale,
	      uint32_t fg, uint32_t bg);

// As fb_glyph over a glyph old drawn there before in the same colours:
// only the pixels whose bit differs are stored. A log that scrolls changes
// every cell of its rows, but few pixels of each.
void fb_glyph_over(uint32_t x, uint32_t y, const uint8_t *rows, const uint8_t *old, unsigned nrows,
		   unsigned scale, uint32_t fg, uint32_t bg);

// None of them takes a lock nor waits: the panic path draws through them.

#endif
