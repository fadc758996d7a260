// SPDX-License-Identifier: GPL-2.0-or-later
// The result panel's layout (see result_view.h). Two arrangements: the QR
// code on the right with the word and the text in a column at its left
// (when that column keeps RESULT_TEXT_MIN_COLS), or, on a screen too narrow
// for that (an 80x50 text screen with a 65-module symbol), the word, the
// QR code and the text stacked from the top.
#include "screen/result_view.h"
#include "memstr.h"

#define ATTR_TEXT	GRID_ATTR(GRID_LIGHT_GREY, GRID_BLACK)
#define ATTR_LINE	GRID_ATTR(GRID_WHITE, GRID_BLACK)
#define ATTR_NOTE	GRID_ATTR(GRID_YELLOW, GRID_BLACK)
#define ATTR_QR		GRID_ATTR(GRID_WHITE, GRID_BLACK)	// light modules white

#define CH_FULL		0xdb	// CP437 block elements
#define CH_LOWER	0xdc
#define CH_UPPER	0xdf

#define RESULT_TEXT_MIN_COLS 40
#define RESULT_TEXT_LEAST_COLS 24	// beside a symbol that needs the room
#define GAP 2		// columns between the text and the QR code

static const struct {
	char c;
	uint8_t rows[RESULT_GLYPH_H];
} glyphs[] = {
	{ 'A', { 0x0e, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11 } },
	{ 'B', { 0x1e, 0x11, 0x11, 0x1e, 0x11, 0x11, 0x1e } },
	{ 'D', { 0x1e, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1e } },
	{ 'E', { 0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x1f } },
	{ 'F', { 0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x10 } },
	{ 'I', { 0x0e, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e } },
	{ 'L', { 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1f } },
	{ 'O', { 0x0e, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e } },
	{ 'P', { 0x1e, 0x11, 0x11, 0x1e, 0x10, 0x10, 0x10 } },
	{ 'R', { 0x1e, 0x11, 0x11, 0x1e, 0x14, 0x12, 0x11 } },
	{ 'S', { 0x0f, 0x10, 0x10, 0x0e, 0x01, 0x01, 0x1e } },
	{ 'T', { 0x1f, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04 } },
};

size_t result_view_qr_text(char *buf, size_t len, size_t cap, const char *line0,
			   const char *const *lines, size_t n, size_t *left_out)
{
	size_t keep = n, total = str_len(line0), at;

	if (cap > len)
		cap = len;
	for (size_t i = 0; i < n; i++)
		total += 1 + str_len(lines[i]);
	while (keep && total > cap)
		total -= 1 + str_len(lines[--keep]);
	*left_out = n - keep;
	at = str_len(line0) < cap ? str_len(line0) : cap;
	mem_copy(buf, line0, at);
	for (size_t i = 0; i < keep; i++) {
		size_t k = str_len(lines[i]);
		buf[at++] = '\n';
		mem_copy(buf + at, lines[i], k);
		at += k;
	}
	return at;
}

uint8_t result_view_glyph(char c, unsigned y)
{
	if (y >= RESULT_GLYPH_H)
		return 0;
	for (size_t i = 0; i < sizeof(glyphs) / sizeof(glyphs[0]); i++)
		if (glyphs[i].c == c)
			return glyphs[i].rows[y];
	return 0;
}

static unsigned div_up(unsigned a, unsigned b)
{
	return (a + b - 1) / b;
}

// Pixels a module on a framebuffer: the symbol within avail rows and
// within half the width or what leaves text_cols for the text, if less.
static unsigned qr_px(const struct grid *g, const struct result_view *v, unsigned avail,
		      unsigned text_cols)
{
	unsigned max_cols = text_cols == RESULT_TEXT_MIN_COLS ? g->cols / 2 : g->cols;

	if (g->cols <= text_cols + GAP + 1)
		return 0;
	if (g->cols - (text_cols + GAP + 1) < max_cols)
		max_cols = g->cols - (text_cols + GAP + 1);
	unsigned a = max_cols * v->cell_w, b = avail * v->cell_h;
	return (a < b ? a : b) / v->qr_side;
}

// Font pixel (x, y) of the word: x across all its letters, a blank column
// after each.
static bool word_pixel(const char *word, unsigned x, unsigned y)
{
	unsigned i = x / (RESULT_GLYPH_W + 1), b = x % (RESULT_GLYPH_W + 1);

	if (i >= str_len(word) || b == RESULT_GLYPH_W)
		return false;
	return result_view_glyph(word[i], y) >> (RESULT_GLYPH_W - 1 - b) & 1;
}

// Text, hard-wrapped at width columns from (col, row), rows before end.
// Returns the row after it (also when it was cut).
static unsigned wrap(struct grid *g, unsigned col, unsigned row, unsigned width, unsigned end,
		     const char *s, uint8_t attr)
{
	size_t n = str_len(s);

	if (width == 0)
		return row;
	for (size_t at = 0; at < n || at == 0; at += width, row++) {
		if (row >= end)
			return row;
		grid_put(g, col, row, s + at, n - at < width ? n - at : width, attr);
		if (n == 0)
			return row + 1;
	}
	return row;
}

static unsigned wrapped_rows(const char *s, unsigned width)
{
	size_t n = s ? str_len(s) : 0;
	return width == 0 ? 0 : n == 0 ? 1 : (unsigned)((n + width - 1) / width);
}

// The text under the word: the result line, the note, the lines, the keys.
static unsigned text_rows(const struct result_view *v, unsigned width, bool gaps)
{
	unsigned n = wrapped_rows(v->result_line, width);
	for (size_t i = 0; i < v->nlines; i++)
		n += wrapped_rows(v->lines[i], width);
	if (v->note)
		n += wrapped_rows(v->note, width);
	if (v->keys)
		n += wrapped_rows(v->keys, width);
	return n + (gaps ? 2 : 0);
}

static unsigned draw_text(struct grid *g, const struct result_view *v, unsigned col, unsigned row,
			  unsigned width, unsigned end, bool gaps)
{
	row = wrap(g, col, row, width, end, v->result_line ? v->result_line : "", ATTR_LINE);
	// The note before the lines, which may be long enough to be cut.
	if (v->note)
		row = wrap(g, col, row, width, end, v->note, ATTR_NOTE);
	row += gaps;
	for (size_t i = 0; i < v->nlines; i++)
		row = wrap(g, col, row, width, end, v->lines[i], ATTR_LINE);
	row += gaps;
	if (v->keys)
		row = wrap(g, col, row, width, end, v->keys, ATTR_TEXT);
	return row;
}

// The word in block characters: a font pixel a cell on square cells, half
// a cell (upper, lower half blocks) on cells twice as high as wide.
static void draw_word_text(struct grid *g, const struct result_view *v, struct result_rect r)
{
	uint8_t attr = GRID_ATTR(v->colour, GRID_BLACK);
	unsigned w = r.cols;

	for (unsigned row = 0; row < r.rows; row++)
		for (unsigned x = 0; x < w; x++) {
			if (v->square_cells) {
				if (word_pixel(v->word, x, row))
					grid_set(g, r.col + x, r.row + row, CH_FULL, attr);
				continue;
			}
			bool up = word_pixel(v->word, x, 2 * row), down = word_pixel(v->word, x, 2 * row + 1);
			if (up || down)
				grid_set(g, r.col + x, r.row + row, up && down ? CH_FULL : up ? CH_UPPER : CH_LOWER,
					 attr);
		}
}

// The QR code in half blocks, two modules a cell, light modules white.
static void draw_qr_text(struct grid *g, const struct result_view *v, struct result_rect r)
{
	for (unsigned row = 0; row < r.rows; row++)
		for (unsigned x = 0; x < r.cols; x++) {
			unsigned y = 2 * row;
			bool up = !v->qr_module(v->qr_ctx, x, y);
			bool down = y + 1 < v->qr_side ? !v->qr_module(v->qr_ctx, x, y + 1) : true;
			uint8_t ch = up && down ? CH_FULL : up ? CH_UPPER : down ? CH_LOWER : ' ';
			grid_set(g, r.col + x, r.row + row, ch, ATTR_QR);
		}
}

void result_view_draw(struct grid *g, const struct result_view *v, struct result_layout *out)
{
	bool fb = v->cell_w && v->cell_h;
	unsigned top = v->top < g->rows ? v->top : g->rows - 1;
	unsigned log_row = g->rows > 2 ? g->rows - 2 : 0;	// two rows: a line and the cursor's
	unsigned avail = log_row > top ? log_row - top : 0;	// rows [top, log_row)
	unsigned nletters = (unsigned)str_len(v->word);
	unsigned word_units = nletters ? nletters * (RESULT_GLYPH_W + 1) - 1 : 0;

	*out = (struct result_layout){ .log_row = log_row };
	grid_fill(g, 0, top, g->cols, g->rows - top, ' ', ATTR_TEXT);

	// The QR code's cells, and on a framebuffer its module size: at most
	// half the width and whatever leaves the text column its minimum.
	unsigned qpx = 0, qcols = 0, qrows = 0;
	if (v->qr_side && fb) {
		// Half the width, leaving the text its columns; a big symbol
		// may narrow the text down to RESULT_TEXT_LEAST_COLS.
		qpx = qr_px(g, v, avail, RESULT_TEXT_MIN_COLS);
		if (qpx < RESULT_QR_MIN_PX)
			qpx = qr_px(g, v, avail, RESULT_TEXT_LEAST_COLS);
		if (qpx >= RESULT_QR_MIN_PX) {
			qcols = div_up(qpx * v->qr_side, v->cell_w);
			qrows = div_up(qpx * v->qr_side, v->cell_h);
		} else {
			qpx = 0;
		}
	} else if (v->qr_side) {
		qcols = v->qr_side;
		qrows = div_up(v->qr_side, 2);
	}
	// A framebuffer's symbol always goes at the right.
	bool side = qcols && (fb || g->cols >= qcols + GAP + RESULT_TEXT_MIN_COLS + 1);
	unsigned tcol = 1, twidth = side ? g->cols - qcols - GAP - 1 : g->cols - 2;

	// The word: as big as a quarter of the height and the text column allow.
	struct result_rect word = { tcol, top, 0, 0 };
	if (word_units && fb) {
		unsigned u1 = twidth * v->cell_w / word_units, u2 = avail * v->cell_h / 4 / RESULT_GLYPH_H;
		unsigned u = u1 < u2 ? u1 : u2;
		if (u == 0)
			u = 1;
		out->word_px = u;
		word.cols = div_up(u * word_units, v->cell_w);
		word.rows = div_up(u * RESULT_GLYPH_H, v->cell_h);
	} else if (word_units) {
		word.cols = word_units;
		word.rows = v->square_cells ? RESULT_GLYPH_H : div_up(RESULT_GLYPH_H, 2);
	}
	if (word.cols > twidth)
		word.cols = twidth;

	// Stacked, the QR code goes only if the text still fits under it.
	if (qcols && !side && word.rows + qrows + text_rows(v, twidth, false) > avail) {
		qcols = qrows = qpx = 0;
		side = false;
	}
	unsigned need = word.rows + (side ? 0 : qrows) + text_rows(v, twidth, false);
	unsigned spare = avail > need ? avail - need : 0;
	bool gaps = spare >= 4;		// rows between the parts, when there is room

	word.row = top + (gaps ? 1 : 0);
	out->word = word;
	unsigned row = word.row + word.rows + (gaps || spare >= 1);
	if (qcols) {
		struct result_rect q;
		if (side)
			q = (struct result_rect){ g->cols - qcols - 1, top + (gaps ? 1 : 0), qcols, qrows };
		else
			q = (struct result_rect){ tcol, row, qcols, qrows };
		if (q.row + q.rows > log_row)
			q.row = log_row > q.rows ? log_row - q.rows : 0;
		out->qr = q;
		out->qr_px = qpx;
		if (!side)
			row = q.row + q.rows + (spare >= 2);
	}
	if (!fb) {
		draw_word_text(g, v, word);
		if (qcols)
			draw_qr_text(g, v, out->qr);
	}
	unsigned end = draw_text(g, v, tcol, row, twidth, log_row, gaps);
	if (v->qr_side && !qcols && end < log_row)
		wrap(g, tcol, end, twidth, log_row,
		     fb ? "The QR code does not fit this screen." :
			  "The QR code does not fit this text screen; it needs a framebuffer.",
		     ATTR_NOTE);
}
