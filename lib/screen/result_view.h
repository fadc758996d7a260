// SPDX-License-Identifier: GPL-2.0-or-later
// The result panel at the end of a run, as a pure function: the result word
// (PASS, FAIL, STOPPED, ABORTED) in big block letters of its colour, the
// result line, the lines to paste (GRUB_BADRAM=, memmap=) wrapped to the
// screen, a note, what the keys do now, and a QR code, laid out on a grid
// below rows the caller keeps (the status screen's header). On a text screen
// the big letters and the QR code are drawn in the grid with block
// characters (the QR code two modules a cell, in half blocks); on a
// framebuffer the grid keeps their cells blank and the layout says where,
// in pixels, the caller draws them (result_view_glyph gives the letters).
#ifndef RAMSIFT_LIB_SCREEN_RESULT_VIEW_H
#define RAMSIFT_LIB_SCREEN_RESULT_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "screen/grid.h"

#define RESULT_GLYPH_W 5	// the big letters' font: 5x7 pixels,
#define RESULT_GLYPH_H 7	// one column of space between letters
#define RESULT_QR_MIN_PX 3	// pixels a module at least on a framebuffer

// Whether the QR module at (x, y) is dark; x, y count from the symbol's top
// left corner, quiet zone included (it must say light there).
typedef bool (*result_qr_fn)(const void *ctx, unsigned x, unsigned y);

struct result_view {
	const char *word;	// "PASS", ...: letters the big font has (A-Z)
	uint8_t colour;		// enum grid_colour of the word
	const char *result_line;
	const char *const *lines;	// to paste, each wrapped; may be thousands of bytes
	size_t nlines;
	const char *note;	// a sentence under the result line, or NULL
	const char *keys;	// what the keys do now, or NULL
	unsigned qr_side;	// modules a side, quiet zone included; 0: no QR code
	result_qr_fn qr_module;
	const void *qr_ctx;
	// The screen: a framebuffer's cell in pixels, or 0 x 0 for a text
	// screen, whose cells are square_cells (80x50: 9x8 pixels) or twice as
	// high as wide (80x25: 9x16).
	unsigned cell_w, cell_h;
	bool square_cells;
	unsigned top;		// the first row the panel may use
};

struct result_rect {
	unsigned col, row, cols, rows;	// cells; cols 0: none
};

struct result_layout {
	struct result_rect word;	// the big word's cells
	struct result_rect qr;		// the QR code's cells, quiet zone included
	unsigned word_px;	// framebuffer: pixels a font pixel of the word
	unsigned qr_px;		// framebuffer: pixels a module; 0: no QR code drawn
	unsigned log_row;	// rows [log_row, end) are left for the log (its last line)
};

// Blank rows [v->top, g->rows) and draw the panel there; fill *out. On a
// text screen the word and the QR code are drawn in the grid; on a
// framebuffer their cells stay blank (black) for the caller's pixels: the
// word at (word.col * cell_w, word.row * cell_h), word_px pixels a font
// pixel, and the QR code likewise at qr's corner, qr_px a module. When the
// QR code does not fit (a framebuffer under RESULT_QR_MIN_PX a module, a
// text screen too small), qr_px and qr.cols are 0 and the panel says so.
void result_view_draw(struct grid *g, const struct result_view *v, struct result_layout *out);

// The QR code's text: line0 (the result line), then each of lines[0..n)
// after a newline, into buf[0..len) with no NUL; a line that would make the
// text longer than cap bytes (what QR version 40-L holds) is left out, the
// last first. Returns the text's length; *left_out gets how many lines were
// left out. line0 alone is cut to cap (and len).
size_t result_view_qr_text(char *buf, size_t len, size_t cap, const char *line0,
			   const char *const *lines, size_t n, size_t *left_out);

// Row y (0 at the top, < RESULT_GLYPH_H) of the big letter c: bit 4 is its
// leftmost pixel. 0 for a letter the font lacks.
uint8_t result_view_glyph(char c, unsigned y);

#endif
