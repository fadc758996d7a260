// SPDX-License-Identifier: GPL-2.0-or-later
// The character grid and its line log (see grid.h). The grid keeps two
// copies of every cell, what should be shown and what the backend shows, so
// a flush draws exactly the cells that differ; a per-row flag keeps a flush
// from comparing rows nothing touched.
#include "screen/grid.h"

static bool cell_eq(struct grid_cell a, struct grid_cell b)
{
	return a.ch == b.ch && a.attr == b.attr;
}

static void set(struct grid *g, unsigned col, unsigned row, struct grid_cell c)
{
	if (!cell_eq(g->cell[row][col], c)) {
		g->cell[row][col] = c;
		g->dirty[row] = true;
	}
}

bool grid_init(struct grid *g, unsigned cols, unsigned rows, uint8_t attr)
{
	if (cols == 0 || rows == 0 || cols > SCREEN_MAX_COLS || rows > SCREEN_MAX_ROWS)
		return false;
	g->cols = cols;
	g->rows = rows;
	grid_clear(g, attr);
	grid_invalidate(g, 0, 0, cols, rows);
	return true;
}

void grid_clear(struct grid *g, uint8_t attr)
{
	grid_fill(g, 0, 0, g->cols, g->rows, ' ', attr);
}

struct grid_cell grid_get(const struct grid *g, unsigned col, unsigned row)
{
	if (col >= g->cols || row >= g->rows)
		return (struct grid_cell){ ' ', 0 };
	return g->cell[row][col];
}

void grid_set(struct grid *g, unsigned col, unsigned row, uint8_t ch, uint8_t attr)
{
	if (col < g->cols && row < g->rows)
		set(g, col, row, (struct grid_cell){ ch, attr });
}

size_t grid_put(struct grid *g, unsigned col, unsigned row, const char *s, size_t n, uint8_t attr)
{
	size_t i;

	if (row >= g->rows || col >= g->cols)
		return 0;
	for (i = 0; i < n && col + i < g->cols; i++)
		set(g, col + (unsigned)i, row, (struct grid_cell){ (uint8_t)s[i], attr });
	return i;
}

// Clip [at, at + len) to [0, limit): the end, or at when at >= limit.
static unsigned clip_end(unsigned at, unsigned len, unsigned limit)
{
	if (at >= limit)
		return at;
	return len > limit - at ? limit : at + len;
}

void grid_fill(struct grid *g, unsigned col, unsigned row, unsigned w, unsigned h, uint8_t ch,
	       uint8_t attr)
{
	unsigned col_end = clip_end(col, w, g->cols), row_end = clip_end(row, h, g->rows);

	for (unsigned r = row; r < row_end; r++)
		for (unsigned c = col; c < col_end; c++)
			set(g, c, r, (struct grid_cell){ ch, attr });
}

void grid_scroll(struct grid *g, unsigned top, unsigned bottom, unsigned n, uint8_t attr)
{
	if (bottom > g->rows)
		bottom = g->rows;
	if (top >= bottom)
		return;
	if (n > bottom - top)
		n = bottom - top;
	for (unsigned r = top; r + n < bottom; r++)
		for (unsigned c = 0; c < g->cols; c++)
			set(g, c, r, g->cell[r + n][c]);
	grid_fill(g, 0, bottom - n, g->cols, n, ' ', attr);
}

void grid_invalidate(struct grid *g, unsigned col, unsigned row, unsigned w, unsigned h)
{
	unsigned col_end = clip_end(col, w, g->cols), row_end = clip_end(row, h, g->rows);

	// A shown cell that differs from the cell in both bytes, whatever it
	// holds: the flush cannot take it for drawn.
	for (unsigned r = row; r < row_end; r++) {
		for (unsigned c = col; c < col_end; c++) {
			struct grid_cell x = g->cell[r][c];
			g->shown[r][c] = (struct grid_cell){ (uint8_t)~x.ch, (uint8_t)~x.attr };
		}
		g->dirty[r] = true;
	}
}

size_t grid_flush(struct grid *g, grid_draw_fn draw, void *ctx)
{
	size_t drawn = 0;

	for (unsigned r = 0; r < g->rows; r++) {
		if (!g->dirty[r])
			continue;
		// Cleared first: a cell set while this row is being drawn marks
		// it again, and is drawn by the next flush.
		g->dirty[r] = false;
		for (unsigned c = 0; c < g->cols; c++) {
			struct grid_cell x = g->cell[r][c];
			if (cell_eq(x, g->shown[r][c]))
				continue;
			draw(ctx, c, r, x);
			// What was drawn last is x, even if a flush from an
			// interrupt drew this cell meanwhile; if the cell changed,
			// the next flush draws it again.
			g->shown[r][c] = x;
			if (!cell_eq(g->cell[r][c], x))
				g->dirty[r] = true;
			drawn++;
		}
	}
	return drawn;
}

void grid_log_init(struct grid_log *l, struct grid *g, unsigned top, unsigned bottom, uint8_t attr)
{
	if (bottom > g->rows)
		bottom = g->rows;
	if (top >= g->rows)
		top = g->rows - 1;
	if (bottom <= top)
		bottom = top + 1;
	*l = (struct grid_log){ g, top, bottom, 0, top, attr };
}

static void log_newline(struct grid_log *l)
{
	l->col = 0;
	if (l->row + 1 < l->bottom)
		l->row++;
	else
		grid_scroll(l->g, l->top, l->bottom, 1, l->attr);
}

void grid_log_write(struct grid_log *l, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n') {
			log_newline(l);
			continue;
		}
		if (l->col >= l->g->cols)
			log_newline(l);
		grid_set(l->g, l->col, l->row, (uint8_t)s[i], l->attr);
		l->col++;
	}
}
