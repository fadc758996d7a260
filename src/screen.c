// SPDX-License-Identifier: GPL-2.0-or-later
// The screen (see screen.h): the grid, the log in it, and the two backends,
// the VGA text screen (src/x86/vga.c), which draws a cell as it is, and a
// framebuffer (src/x86/fb.c), on which a cell is a glyph of the built-in
// font in the attribute's colours.
#include "screen.h"
#include "screen/font.h"
#include "x86/fb.h"
#include "x86/layout.h"
#include "x86/vga.h"

#define FB_SCALE_FROM_WIDTH 1600	// pixels: from here on the font is drawn 2x

enum backend { NONE, VGA, FB };

static struct grid grid;
static struct grid_log text_log;
static enum backend backend;
static bool shown;
static uint64_t vga_phys;

// The framebuffer's geometry and the 16 colours packed for it.
static unsigned fb_w, fb_h, scale;
static uint32_t palette[16];
static struct pixel_format format;

bool screen_init_vga(uint64_t phys, unsigned cols, unsigned rows)
{
	if (!grid_init(&grid, cols, rows, GRID_ATTR_LOG))
		return false;
	grid_log_init(&text_log, &grid, 0, rows, GRID_ATTR_LOG);
	vga_init(phys, cols, rows);
	vga_phys = phys;
	backend = VGA;
	screen_show();
	return true;
}

bool screen_init_fb(const struct framebuffer *fb, const char **why)
{
	format = (struct pixel_format){ fb->bpp, fb->red_pos, fb->red_size, fb->green_pos,
					fb->green_size, fb->blue_pos, fb->blue_size };
	if (fb->kind != FB_RGB) {
		*why = "not direct RGB";
		return false;
	}
	if (!pixel_format_ok(&format)) {
		*why = "its pixel format is not one ramsift draws (15, 16, 24 or 32 bits RGB)";
		return false;
	}
	scale = fb->width >= FB_SCALE_FROM_WIDTH ? 2 : 1;
	unsigned cols = fb->width / (FONT_WIDTH * scale), rows = fb->height / (FONT_HEIGHT * scale);
	cols = cols < SCREEN_MAX_COLS ? cols : SCREEN_MAX_COLS;
	rows = rows < SCREEN_MAX_ROWS ? rows : SCREEN_MAX_ROWS;
	if (!fb_init(fb->addr, fb->pitch, fb->width, fb->height, pixel_bytes(&format)) ||
	    !grid_init(&grid, cols, rows, GRID_ATTR_LOG)) {
		*why = "its size or pitch is implausible";
		return false;
	}
	for (unsigned i = 0; i < 16; i++)
		palette[i] = pixel_pack(&format, colour_rgb[i]);
	fb_w = fb->width;
	fb_h = fb->height;
	grid_log_init(&text_log, &grid, 0, rows, GRID_ATTR_LOG);
	backend = FB;
	return true;
}

static void draw_vga(void *ctx, unsigned col, unsigned row, struct grid_cell c)
{
	(void)ctx;
	vga_draw(col, row, c.ch, c.attr);
}

static void draw_fb(void *ctx, unsigned col, unsigned row, struct grid_cell c)
{
	(void)ctx;
	// What the screen shows there (grid_flush records c after this draw;
	// an invalidated cell's attribute never equals its own).
	struct grid_cell was = grid.shown[row][col];
	if (was.attr == c.attr) {
		fb_glyph_over(col * FONT_WIDTH * scale, row * FONT_HEIGHT * scale, font_cp437[c.ch],
			      font_cp437[was.ch], FONT_HEIGHT, scale, palette[GRID_ATTR_FG(c.attr)],
			      palette[GRID_ATTR_BG(c.attr)]);
		return;
	}
	fb_glyph(col * FONT_WIDTH * scale, row * FONT_HEIGHT * scale, font_cp437[c.ch], FONT_HEIGHT,
		 scale, palette[GRID_ATTR_FG(c.attr)], palette[GRID_ATTR_BG(c.attr)]);
}

void screen_flush(void)
{
	if (!shown)
		return;
	if (backend == VGA)
		grid_flush(&grid, draw_vga, 0);
	else if (backend == FB)
		grid_flush(&grid, draw_fb, 0);
}

void screen_show(void)
{
	if (backend == NONE || shown)
		return;
	if (backend == FB) {
		// The pixels right of and below the last cell: black, once.
		unsigned cw = FONT_WIDTH * scale * grid.cols, ch = FONT_HEIGHT * scale * grid.rows;
		fb_fill(cw, 0, fb_w - cw, fb_h, palette[GRID_BLACK]);
		fb_fill(0, ch, cw, fb_h - ch, palette[GRID_BLACK]);
	}
	grid_invalidate(&grid, 0, 0, grid.cols, grid.rows);
	shown = true;
	screen_flush();
}

void screen_write(const char *s, size_t n)
{
	if (backend == NONE)
		return;
	grid_log_write(&text_log, s, n);
	screen_flush();
}

struct grid *screen_grid(void)
{
	return backend == NONE ? 0 : &grid;
}

void screen_log_rows(unsigned top, unsigned bottom)
{
	if (backend != NONE)
		grid_log_init(&text_log, &grid, top, bottom, GRID_ATTR_LOG);
}

bool screen_pixels(unsigned *width, unsigned *height, unsigned *cell_width, unsigned *cell_height)
{
	if (backend != FB)
		return false;
	*width = fb_w;
	*height = fb_h;
	*cell_width = FONT_WIDTH * scale;
	*cell_height = FONT_HEIGHT * scale;
	return true;
}

void screen_fill(unsigned x, unsigned y, unsigned w, unsigned h, struct rgb c)
{
	if (backend == FB && shown)
		fb_fill(x, y, w, h, pixel_pack(&format, c));
}

void screen_log_keep(unsigned top, unsigned bottom)
{
	if (backend == NONE)
		return;
	struct grid_log old = text_log;
	grid_log_init(&text_log, &grid, top, bottom, GRID_ATTR_LOG);
	// The old region's rows up to the cursor's, the last of them as many
	// as the new region has, go to the new region's top: the new log then
	// shows what a log of its height would have shown all along.
	unsigned h = text_log.bottom - text_log.top, used = old.row - old.top + 1;
	unsigned n = used < h ? used : h, from = old.row + 1 - n;
	static struct grid_cell rows[SCREEN_MAX_ROWS][SCREEN_MAX_COLS];
	for (unsigned r = 0; r < n; r++)
		for (unsigned c = 0; c < grid.cols; c++)
			rows[r][c] = grid_get(&grid, c, from + r);
	grid_fill(&grid, 0, text_log.top, grid.cols, h, ' ', GRID_ATTR_LOG);
	for (unsigned r = 0; r < n; r++)
		for (unsigned c = 0; c < grid.cols; c++)
			grid_set(&grid, c, text_log.top + r, rows[r][c].ch, rows[r][c].attr);
	text_log.row = text_log.top + n - 1;
	text_log.col = old.col;
}

bool screen_vga_rows50(void)
{
	if (backend != VGA || grid.cols != VGA_TEXT_COLS || grid.rows != VGA_TEXT_ROWS)
		return false;
	vga_rows50(font8_cp437);
	vga_init(vga_phys, 80, 50);
	grid_init(&grid, 80, 50, GRID_ATTR_LOG);
	grid_log_init(&text_log, &grid, 0, 50, GRID_ATTR_LOG);
	screen_flush();
	return true;
}
