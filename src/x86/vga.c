// SPDX-License-Identifier: GPL-2.0-or-later
// VGA text screen. Each cell of the text buffer is a 16-bit word: the
// character in the low byte, the attribute in the high byte. The buffer is
// reached through the identity map, so the physical address the loader
// reported is used as is.
#include "vga.h"

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
