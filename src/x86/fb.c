// SPDX-License-Identifier: GPL-2.0-or-later
// Linear framebuffer drawing. Stores only, in address order along each row:
// the framebuffer is mapped write-combining where the CPU has a PAT
// (paging.c), and reading it back would be slow (uncached) or wrong.
#include "fb.h"

static volatile uint8_t *base;
static uint32_t fb_pitch, fb_width, fb_height;
static unsigned bpp_bytes;

bool fb_init(uint64_t phys, uint32_t pitch, uint32_t width, uint32_t height, unsigned bytepp)
{
	base = 0;
	if ((bytepp < 2 || bytepp > 4) || width == 0 || height == 0 ||
	    pitch < (uint64_t)width * bytepp || (uint64_t)pitch * height > FB_MAX_BYTES)
		return false;
	fb_pitch = pitch;
	fb_width = width;
	fb_height = height;
	bpp_bytes = bytepp;
	base = (volatile uint8_t *)(uintptr_t)phys;
	return true;
}

// n pixels of value v from p: one store a pixel (three for 3-byte pixels,
// whose addresses are not aligned).
static void span(volatile uint8_t *p, uint32_t n, uint32_t v)
{
	switch (bpp_bytes) {
	case 4:
		for (uint32_t i = 0; i < n; i++)
			((volatile uint32_t *)p)[i] = v;
		break;
	case 3:
		for (uint32_t i = 0; i < n; i++, p += 3) {
			p[0] = (uint8_t)v;
			p[1] = (uint8_t)(v >> 8);
			p[2] = (uint8_t)(v >> 16);
		}
		break;
	default:
		for (uint32_t i = 0; i < n; i++)
			((volatile uint16_t *)p)[i] = (uint16_t)v;
		break;
	}
}

// Cut [at, at + len) to [0, limit): the count left (0 when at >= limit).
static uint32_t cut(uint32_t at, uint32_t len, uint32_t limit)
{
	if (at >= limit)
		return 0;
	return len < limit - at ? len : limit - at;
}

void fb_fill(uint32_t x, uint32_t y, uint32_t w, uint32_t h, uint32_t pixel)
{
	if (!base)
		return;
	w = cut(x, w, fb_width);
	h = cut(y, h, fb_height);
	for (uint32_t r = 0; r < h; r++)
		span(base + (uint64_t)(y + r) * fb_pitch + (uint64_t)x * bpp_bytes, w, pixel);
}

void fb_glyph(uint32_t x, uint32_t y, const uint8_t *rows, unsigned nrows, unsigned scale,
	      uint32_t fg, uint32_t bg)
{
	if (!base || scale == 0)
		return;
	uint32_t w = cut(x, 8 * scale, fb_width), h = cut(y, nrows * scale, fb_height);

	for (uint32_t py = 0; py < h; py++) {
		uint8_t bits = rows[py / scale];
		volatile uint8_t *p = base + (uint64_t)(y + py) * fb_pitch + (uint64_t)x * bpp_bytes;
		// Runs of equal pixels, so a scaled glyph is a few spans.
		for (uint32_t px = 0; px < w;) {
			bool on = bits & (0x80 >> (px / scale));
			uint32_t run = 1;
			while (px + run < w && (bool)(bits & (0x80 >> ((px + run) / scale))) == on)
				run++;
			span(p + (uint64_t)px * bpp_bytes, run, on ? fg : bg);
			px += run;
		}
	}
}

void fb_glyph_over(uint32_t x, uint32_t y, const uint8_t *rows, const uint8_t *old, unsigned nrows,
		   unsigned scale, uint32_t fg, uint32_t bg)
{
	if (!base || scale == 0)
		return;
	uint32_t w = cut(x, 8 * scale, fb_width), h = cut(y, nrows * scale, fb_height);

	// Glyph row by glyph row: most rows of two glyphs are alike.
	for (uint32_t gy = 0; gy * scale < h; gy++) {
		uint8_t bits = rows[gy], diff = bits ^ old[gy];
		if (!diff)
			continue;
		for (uint32_t py = gy * scale; py < (gy + 1) * scale && py < h; py++) {
			volatile uint8_t *p = base + (uint64_t)(y + py) * fb_pitch + (uint64_t)x * bpp_bytes;
			for (uint32_t b = 0; b < 8 && b * scale < w; b++)
				if (diff & (0x80 >> b))
					span(p + (uint64_t)b * scale * bpp_bytes, cut(b * scale, scale, w),
					     bits & (0x80 >> b) ? fg : bg);
		}
	}
}
