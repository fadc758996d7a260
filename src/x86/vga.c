// SPDX-License-Identifier: GPL-2.0-or-later
// VGA text screen. Each cell of the text buffer is a 16-bit word: the
// character in the low byte, the attribute in the high byte. The buffer is
// reached through the identity map, so the physical address the loader
// reported is used as is.
#include "io.h"
#include "vga.h"

// VGA registers (IBM VGA Technical Reference; FreeVGA): index, then data.
#define VGA_SEQ		0x3c4	// sequencer
#define VGA_GC		0x3ce	// graphics controller
#define VGA_CRTC	0x3d4	// CRT controller, colour I/O addresses
#define SEQ_RESET	0x00
#define SEQ_MAP_MASK	0x02
#define SEQ_MEM_MODE	0x04
#define GC_READ_MAP	0x04
#define GC_MODE		0x05
#define GC_MISC		0x06
#define CRTC_MAX_SCAN	0x09	// bits 0-4: scan lines a character row, less 1
#define CRTC_CURSOR_START 0x0a	// bit 5: cursor off
#define VGA_FONT_PHYS	0xa0000	// plane 2 with the map set below: 32 bytes a glyph
#define VGA_FONT_STRIDE	32

static volatile uint16_t *cells;
static uint32_t ncols, nrows;

void vga_init(uint64_t phys, uint32_t cols, uint32_t rows)
{
	ncols = cols;
	nrows = rows;
	cells = (volatile uint16_t *)(uintptr_t)phys;
}

void vga_draw(uint32_t col, uint32_t row, uint8_t ch, uint8_t attr)
{
	if (cells && col < ncols && row < nrows)
		cells[row * ncols + col] = (uint16_t)(attr << 8 | ch);
}

static void reg(uint16_t port, uint8_t index, uint8_t value)
{
	outb(port, index);
	outb((uint16_t)(port + 1), value);
}

static uint8_t reg_read(uint16_t port, uint8_t index)
{
	outb(port, index);
	return inb((uint16_t)(port + 1));
}

// Plane 2 at 0xa0000 for the CPU, as Linux's vgacon loads fonts; then the
// text mode's settings again (mode 3: planes 0 and 1, odd/even, 0xb8000).
void vga_rows50(const uint8_t font[256][8])
{
	volatile uint8_t *mem = (volatile uint8_t *)(uintptr_t)VGA_FONT_PHYS;

	reg(VGA_SEQ, SEQ_RESET, 0x01);
	reg(VGA_SEQ, SEQ_MAP_MASK, 0x04);
	reg(VGA_SEQ, SEQ_MEM_MODE, 0x07);
	reg(VGA_SEQ, SEQ_RESET, 0x03);
	reg(VGA_GC, GC_READ_MAP, 0x02);
	reg(VGA_GC, GC_MODE, 0x00);
	reg(VGA_GC, GC_MISC, 0x04);
	for (unsigned c = 0; c < 256; c++)
		for (unsigned r = 0; r < VGA_FONT_STRIDE; r++)
			mem[c * VGA_FONT_STRIDE + r] = r < 8 ? font[c][r] : 0;
	reg(VGA_SEQ, SEQ_RESET, 0x01);
	reg(VGA_SEQ, SEQ_MAP_MASK, 0x03);
	reg(VGA_SEQ, SEQ_MEM_MODE, 0x03);
	reg(VGA_SEQ, SEQ_RESET, 0x03);
	reg(VGA_GC, GC_READ_MAP, 0x00);
	reg(VGA_GC, GC_MODE, 0x10);
	reg(VGA_GC, GC_MISC, 0x0e);
	reg(VGA_CRTC, CRTC_MAX_SCAN, (uint8_t)((reg_read(VGA_CRTC, CRTC_MAX_SCAN) & 0xe0) | 7));
	reg(VGA_CRTC, CRTC_CURSOR_START, (uint8_t)(reg_read(VGA_CRTC, CRTC_CURSOR_START) | 0x20));
}
