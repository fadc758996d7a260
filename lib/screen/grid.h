// SPDX-License-Identifier: GPL-2.0-or-later
// A display-independent character grid: cols x rows cells, each a character
// of code page 437 (lib/screen/font.h) and a colour attribute, with dirty
// tracking so that a backend (the VGA text screen, a framebuffer) redraws
// only the cells that changed since it last drew. And a line log on a
// region of the grid: text written in, wrapped at the right edge, scrolled
// at the bottom. Pure: no hardware, no allocation; the caller owns the
// struct grid (about 130 KiB, so static or working memory, not the stack).
// Not locked: the caller serialises writers.
#ifndef RAMSIFT_LIB_SCREEN_GRID_H
#define RAMSIFT_LIB_SCREEN_GRID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capacity.h"	// SCREEN_MAX_COLS, SCREEN_MAX_ROWS

// The 16 colours of the VGA text attribute, by index (colour.h has their RGB).
enum grid_colour {
	GRID_BLACK, GRID_BLUE, GRID_GREEN, GRID_CYAN, GRID_RED, GRID_MAGENTA, GRID_BROWN,
	GRID_LIGHT_GREY, GRID_DARK_GREY, GRID_LIGHT_BLUE, GRID_LIGHT_GREEN, GRID_LIGHT_CYAN,
	GRID_LIGHT_RED, GRID_LIGHT_MAGENTA, GRID_YELLOW, GRID_WHITE,
};

// An attribute as the VGA text screen stores it: foreground colour in bits
// 0-3, background in bits 4-7. A background of 8 or more blinks on a VGA
// text screen (the BIOS default), so use backgrounds 0-7 for the same look
// everywhere.
#define GRID_ATTR(fg, bg)	((uint8_t)(((bg) & 0xf) << 4 | ((fg) & 0xf)))
#define GRID_ATTR_FG(attr)	((attr) & 0xf)
#define GRID_ATTR_BG(attr)	((attr) >> 4)
#define GRID_ATTR_LOG		GRID_ATTR(GRID_LIGHT_GREY, GRID_BLACK)	// the line log's

struct grid_cell {
	uint8_t ch;	// CP437
	uint8_t attr;	// GRID_ATTR()
};

struct grid {
	unsigned cols, rows;
	// What the screen should show.
	struct grid_cell cell[SCREEN_MAX_ROWS][SCREEN_MAX_COLS];
	// What the backend shows as far as grid_flush() drew it.
	struct grid_cell shown[SCREEN_MAX_ROWS][SCREEN_MAX_COLS];
	// A row whose cells may differ from shown.
	bool dirty[SCREEN_MAX_ROWS];
};

// Make g a cols x rows grid of blanks in attr, all to be drawn by the next
// flush (the backend's screen is unknown). False, changing nothing, when
// cols or rows is 0 or beyond SCREEN_MAX_COLS / SCREEN_MAX_ROWS.
bool grid_init(struct grid *g, unsigned cols, unsigned rows, uint8_t attr);

// Blank every cell in attr.
void grid_clear(struct grid *g, uint8_t attr);

// The cell at (col, row); a blank cell of attribute 0 outside the grid.
struct grid_cell grid_get(const struct grid *g, unsigned col, unsigned row);

// Set the cell at (col, row); nothing outside the grid.
void grid_set(struct grid *g, unsigned col, unsigned row, uint8_t ch, uint8_t attr);

// Write the n bytes of s (CP437, no control characters interpreted) from
// (col, row) to the right, in attr, cut at the end of the row. Returns the
// cells written.
size_t grid_put(struct grid *g, unsigned col, unsigned row, const char *s, size_t n, uint8_t attr);

// Fill the w x h cells from (col, row) with ch in attr, cut at the grid's
// edges.
void grid_fill(struct grid *g, unsigned col, unsigned row, unsigned w, unsigned h, uint8_t ch,
	       uint8_t attr);

// Move rows [top, bottom) up by n rows: the top n are lost, the bottom n
// become blanks in attr. bottom is cut to the grid; n >= bottom - top
// blanks the region.
void grid_scroll(struct grid *g, unsigned top, unsigned bottom, unsigned n, uint8_t attr);

// The backend no longer shows the w x h cells from (col, row) (it drew over
// them, or it is new): the next flush draws them whatever they hold.
void grid_invalidate(struct grid *g, unsigned col, unsigned row, unsigned w, unsigned h);

// Draws one cell at (col, row) on the backend.
typedef void (*grid_draw_fn)(void *ctx, unsigned col, unsigned row, struct grid_cell c);

// Draw every cell that differs from what the backend shows, row by row from
// the top, left to right, and record it as shown. Returns the cells drawn.
// May be called from an interrupt of a write or a flush (the panic path):
// each cell is compared, drawn and recorded on its own, so at worst a cell
// is drawn twice, and one changed during its draw is drawn again next time.
size_t grid_flush(struct grid *g, grid_draw_fn draw, void *ctx);

// A line log on rows [top, bottom) of a grid: bytes written at the cursor,
// '\n' starts a new line, a line longer than the grid is wide wraps, and a
// new line at the bottom scrolls the region up by one (so the bottom row is
// kept empty for what comes next, as a terminal does).
struct grid_log {
	struct grid *g;
	unsigned top, bottom;
	unsigned col, row;	// the cursor: col <= cols, top <= row < bottom
	uint8_t attr;
};

// Start a log on rows [top, bottom) of g (bottom cut to the grid; an empty
// region becomes row top alone), with the cursor at the region's top left.
// The region's cells are left as they are.
void grid_log_init(struct grid_log *l, struct grid *g, unsigned top, unsigned bottom, uint8_t attr);

// Write n bytes at the cursor. Every byte but '\n' is a character.
// Interruptible by another write to the same log (the panic path): the
// cursor stays within the region at every step.
void grid_log_write(struct grid_log *l, const char *s, size_t n);

#endif
