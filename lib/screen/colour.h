// SPDX-License-Identifier: GPL-2.0-or-later
// Colours on a framebuffer: the RGB of the 16 attribute colours (grid.h's
// enum grid_colour), and packing an RGB colour into a pixel of a direct-RGB
// format as the loader describes it (bits per pixel, and each colour's field
// position and size, lib/boot/multiboot.h).
#ifndef RAMSIFT_LIB_SCREEN_COLOUR_H
#define RAMSIFT_LIB_SCREEN_COLOUR_H

#include <stdbool.h>
#include <stdint.h>

struct rgb {
	uint8_t r, g, b;
};

// The colours of the VGA text attribute, by enum grid_colour: the IBM
// CGA/EGA palette the VGA BIOS loads (light grey is 0xaaaaaa).
extern const struct rgb colour_rgb[16];

struct pixel_format {
	uint8_t bpp;		// 15, 16, 24 or 32
	uint8_t red_pos, red_size, green_pos, green_size, blue_pos, blue_size;
};

// Bytes a pixel takes in memory: 2, 2, 3 or 4.
unsigned pixel_bytes(const struct pixel_format *f);

// Whether the framebuffer console can draw in f: bpp 15, 16, 24 or 32, each
// colour 1 to 8 bits wide, inside the pixel's bits, the three not
// overlapping.
bool pixel_format_ok(const struct pixel_format *f);

// The pixel value of c in f (f must be pixel_format_ok()): each channel's top
// bits at its position, the other bits 0.
uint32_t pixel_pack(const struct pixel_format *f, struct rgb c);

#endif
