// SPDX-License-Identifier: GPL-2.0-or-later
// VGA text console. The buffer is reached through the identity map, so the
// physical address the loader reported is used as is.
#include "vga.h"

#define VGA_ATTR	0x0700	// light grey on black

static volatile uint16_t *cells;
static uint32_t ncols, nrows, col, row;

void vga_init(uint64_t phys, uint32_t cols, uint32_t rows)
{
	cells = (volatile uint16_t *)(uintptr_t)phys;
	ncols = cols;
	nrows = rows;
	col = row = 0;
	for (uint32_t i = 0; i < cols * rows; i++)
		cells[i] = VGA_ATTR | ' ';
}

static void vga_newline(void)
{
	col = 0;
	if (row + 1 < nrows) {
		row++;
		return;
	}
	for (uint32_t i = 0; i < (nrows - 1) * ncols; i++)
		cells[i] = cells[i + ncols];
	for (uint32_t i = 0; i < ncols; i++)
		cells[(nrows - 1) * ncols + i] = VGA_ATTR | ' ';
}

void vga_write(const char *s, size_t n)
{
	if (!cells)
		return;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n') {
			vga_newline();
			continue;
		}
		if (col == ncols)
			vga_newline();
		cells[row * ncols + col++] = VGA_ATTR | (uint8_t)s[i];
	}
}
