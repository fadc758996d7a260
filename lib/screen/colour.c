// SPDX-License-Identifier: GPL-2.0-or-later
// The attribute colours and pixel packing (see colour.h).
#include "screen/colour.h"

const struct rgb colour_rgb[16] = {
	{ 0x00, 0x00, 0x00 }, { 0x00, 0x00, 0xaa }, { 0x00, 0xaa, 0x00 }, { 0x00, 0xaa, 0xaa },
	{ 0xaa, 0x00, 0x00 }, { 0xaa, 0x00, 0xaa }, { 0xaa, 0x55, 0x00 }, { 0xaa, 0xaa, 0xaa },
	{ 0x55, 0x55, 0x55 }, { 0x55, 0x55, 0xff }, { 0x55, 0xff, 0x55 }, { 0x55, 0xff, 0xff },
	{ 0xff, 0x55, 0x55 }, { 0xff, 0x55, 0xff }, { 0xff, 0xff, 0x55 }, { 0xff, 0xff, 0xff },
};

unsigned pixel_bytes(const struct pixel_format *f)
{
	return (f->bpp + 7u) / 8u;
}

// The bits of a field, or 0 when it is empty, too wide or outside bpp bits.
static uint32_t field(unsigned pos, unsigned size, unsigned bpp)
{
	if (size == 0 || size > 8 || pos >= bpp || size > bpp - pos)
		return 0;
	return ((1u << size) - 1) << pos;
}

bool pixel_format_ok(const struct pixel_format *f)
{
	if (f->bpp != 15 && f->bpp != 16 && f->bpp != 24 && f->bpp != 32)
		return false;
	uint32_t r = field(f->red_pos, f->red_size, f->bpp);
	uint32_t g = field(f->green_pos, f->green_size, f->bpp);
	uint32_t b = field(f->blue_pos, f->blue_size, f->bpp);
	return r && g && b && !(r & g) && !(r & b) && !(g & b);
}

static uint32_t channel(uint8_t v, unsigned pos, unsigned size)
{
	return (uint32_t)(v >> (8 - size)) << pos;
}

uint32_t pixel_pack(const struct pixel_format *f, struct rgb c)
{
	return channel(c.r, f->red_pos, f->red_size) | channel(c.g, f->green_pos, f->green_size) |
	       channel(c.b, f->blue_pos, f->blue_size);
}
