// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/screen/grid.c: sizes, writing and clipping, scrolling a
// region, the flush drawing exactly the cells that changed (counted against a
// fake screen the draw callback paints), invalidation, the line log (a
// table: wrapping, scrolling, regions), and writes nested in a flush as the
// panic path makes them. And lib/screen/colour.c's pixel packing.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "screen/colour.h"
#include "screen/font.h"
#include "screen/grid.h"
#include "memstr.h"

#define A GRID_ATTR_LOG

// The backend: what the draw callback painted, and how many cells.
static struct grid_cell screen[SCREEN_MAX_ROWS][SCREEN_MAX_COLS];
static size_t draws;

static void draw(void *ctx, unsigned col, unsigned row, struct grid_cell c)
{
	(void)ctx;
	assert_true(col < SCREEN_MAX_COLS && row < SCREEN_MAX_ROWS);
	screen[row][col] = c;
	draws++;
}

static size_t flush(struct grid *g)
{
	draws = 0;
	size_t n = grid_flush(g, draw, NULL);
	assert_int_equal(n, draws);
	return n;
}

// Row r of the grid as text, trailing blanks cut.
static const char *row_text(const struct grid *g, unsigned r)
{
	static char buf[SCREEN_MAX_COLS + 1];
	unsigned n = 0;

	for (unsigned c = 0; c < g->cols; c++)
		buf[n++] = (char)grid_get(g, c, r).ch;
	while (n && buf[n - 1] == ' ')
		n--;
	buf[n] = '\0';
	return buf;
}

// The fake screen shows exactly the grid.
static void assert_screen_is_grid(const struct grid *g)
{
	for (unsigned r = 0; r < g->rows; r++)
		for (unsigned c = 0; c < g->cols; c++) {
			struct grid_cell want = grid_get(g, c, r);
			if (screen[r][c].ch != want.ch || screen[r][c].attr != want.attr)
				fail_msg("cell (%u,%u): screen 0x%02x/0x%02x, grid 0x%02x/0x%02x", c, r,
					 screen[r][c].ch, screen[r][c].attr, want.ch, want.attr);
		}
}

static struct grid *new_grid(unsigned cols, unsigned rows)
{
	struct grid *g = malloc(sizeof(*g));
	assert_non_null(g);
	assert_true(grid_init(g, cols, rows, A));
	return g;
}

static void test_init(void **state)
{
	static const struct {
		unsigned cols, rows;
		bool ok;
	} cases[] = {
		{ 80, 25, true }, { 1, 1, true }, { SCREEN_MAX_COLS, SCREEN_MAX_ROWS, true },
		{ 0, 25, false }, { 80, 0, false }, { SCREEN_MAX_COLS + 1, 25, false },
		{ 80, SCREEN_MAX_ROWS + 1, false },
	};
	struct grid *g = malloc(sizeof(*g));
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		g->cols = g->rows = 7;
		bool ok = grid_init(g, cases[i].cols, cases[i].rows, A);
		if (ok != cases[i].ok)
			fail_msg("case %zu (%ux%u): grid_init %d, want %d", i, cases[i].cols,
				 cases[i].rows, ok, cases[i].ok);
		if (!ok) {
			assert_int_equal(g->cols, 7);	// unchanged
			continue;
		}
		// A new grid is all drawn by the first flush, blanks in attr.
		mem_set(screen, 0, sizeof(screen));
		assert_int_equal(flush(g), cases[i].cols * cases[i].rows);
		assert_int_equal(screen[cases[i].rows - 1][cases[i].cols - 1].ch, ' ');
		assert_int_equal(screen[0][0].attr, A);
		assert_int_equal(flush(g), 0);
	}
	free(g);
}

static void test_put_and_flush(void **state)
{
	struct grid *g = new_grid(80, 25);
	(void)state;

	flush(g);
	assert_int_equal(grid_put(g, 10, 3, "abc", 3, A), 3);
	assert_int_equal(flush(g), 3);
	assert_int_equal(screen[3][10].ch, 'a');
	assert_int_equal(screen[3][12].ch, 'c');
	// The same text again draws nothing; one changed character draws one.
	grid_put(g, 10, 3, "abc", 3, A);
	assert_int_equal(flush(g), 0);
	grid_put(g, 10, 3, "abd", 3, A);
	assert_int_equal(flush(g), 1);
	assert_int_equal(screen[3][12].ch, 'd');
	// A changed attribute alone is a change.
	grid_put(g, 10, 3, "a", 1, GRID_ATTR(GRID_RED, GRID_BLACK));
	assert_int_equal(flush(g), 1);
	assert_int_equal(screen[3][10].attr, GRID_ATTR(GRID_RED, GRID_BLACK));
	// Changed and changed back before a flush: nothing to draw.
	grid_set(g, 0, 0, 'x', A);
	grid_set(g, 0, 0, ' ', A);
	assert_int_equal(flush(g), 0);

	// Clipping: at the end of the row, below the grid, right of it.
	assert_int_equal(grid_put(g, 78, 5, "hello", 5, A), 2);
	assert_string_equal(row_text(g, 5) + 78, "he");
	assert_int_equal(grid_put(g, 0, 25, "x", 1, A), 0);
	assert_int_equal(grid_put(g, 80, 0, "x", 1, A), 0);
	grid_set(g, 80, 0, 'x', A);
	grid_set(g, 0, 25, 'x', A);
	assert_int_equal(grid_get(g, 80, 0).ch, ' ');
	assert_int_equal(grid_get(g, 79, 24).ch, ' ');
	assert_int_equal(flush(g), 2);
	assert_screen_is_grid(g);

	// A rectangle cut at the corner; clear.
	grid_fill(g, 75, 20, 10, 10, 0xdb, A);
	assert_int_equal(flush(g), 5 * 5);
	assert_int_equal(screen[24][79].ch, 0xdb);
	grid_fill(g, 0, 0, 0, 5, 'x', A);
	grid_fill(g, 90, 0, 5, 5, 'x', A);
	assert_int_equal(flush(g), 0);
	grid_clear(g, A);
	flush(g);
	assert_screen_is_grid(g);
	for (unsigned r = 0; r < 25; r++)
		assert_string_equal(row_text(g, r), "");
	free(g);
}

static void test_scroll(void **state)
{
	struct grid *g = new_grid(20, 8);
	char line[8];
	(void)state;

	for (unsigned r = 0; r < 8; r++) {
		snprintf(line, sizeof(line), "row%u", r);
		grid_put(g, 0, r, line, str_len(line), A);
	}
	flush(g);
	// Rows 2-5 up by one: row 2 gets row 3's text, row 5 is blank, the
	// others are untouched. Only the digit differs in rows 2-4, and row 5
	// loses its four characters: 3 + 4 cells drawn.
	grid_scroll(g, 2, 6, 1, A);
	assert_string_equal(row_text(g, 1), "row1");
	assert_string_equal(row_text(g, 2), "row3");
	assert_string_equal(row_text(g, 4), "row5");
	assert_string_equal(row_text(g, 5), "");
	assert_string_equal(row_text(g, 6), "row6");
	assert_int_equal(flush(g), 3 + 4);
	assert_screen_is_grid(g);

	// By more than the region: blank; bottom beyond the grid is cut.
	grid_scroll(g, 6, 100, 5, A);
	assert_string_equal(row_text(g, 6), "");
	assert_string_equal(row_text(g, 7), "");
	// Empty regions change nothing.
	grid_scroll(g, 3, 3, 1, A);
	grid_scroll(g, 9, 12, 1, A);
	grid_scroll(g, 0, 8, 0, A);
	assert_string_equal(row_text(g, 3), "row4");
	flush(g);
	assert_screen_is_grid(g);
	free(g);
}

static void test_invalidate(void **state)
{
	struct grid *g = new_grid(80, 25);
	(void)state;

	grid_put(g, 0, 0, "\xff\xff", 2, 0xff);	// a cell with every bit set
	flush(g);
	grid_invalidate(g, 0, 0, 3, 2);
	assert_int_equal(flush(g), 6);
	grid_invalidate(g, 78, 24, 5, 5);	// cut at the corner
	assert_int_equal(flush(g), 2);
	grid_invalidate(g, 0, 0, 80, 25);
	assert_int_equal(flush(g), 2000);
	assert_screen_is_grid(g);
	free(g);
}

// The line log on a 10x4 grid (or rows [top, bottom) of it, with '#' in
// the rows outside), after writing in: the rows, and the cursor.
static const struct {
	const char *name;
	unsigned top, bottom;
	const char *in;
	const char *want[4];
	unsigned col, row;
} log_cases[] = {
	{ "one line", 0, 4, "abc\n", { "abc", "", "", "" }, 0, 1 },
	{ "no newline yet", 0, 4, "abc", { "abc", "", "", "" }, 3, 0 },
	{ "empty lines", 0, 4, "\n\nx", { "", "", "x", "" }, 1, 2 },
	{ "wraps", 0, 4, "0123456789AB\n", { "0123456789", "AB", "", "" }, 0, 2 },
	{ "exactly the width: no blank line", 0, 4, "0123456789\nx",
	  { "0123456789", "x", "", "" }, 1, 1 },
	{ "scrolls, keeping the bottom row for the next line", 0, 4, "1\n2\n3\n4\n",
	  { "2", "3", "4", "" }, 0, 3 },
	{ "scrolls a wrapped line", 0, 4, "1\n2\n3\n0123456789AB",
	  { "2", "3", "0123456789", "AB" }, 2, 3 },
	{ "many lines", 0, 4, "1\n2\n3\n4\n5\n6\n7\n8\n9\n", { "7", "8", "9", "" }, 0, 3 },
	{ "bytes are characters", 0, 4, "\r\t\xdb\xdc\xdf", { "\r\t\xdb\xdc\xdf", "", "", "" }, 5, 0 },
	{ "a region", 1, 3, "1\n2\n3\n", { "##########", "3", "", "##########" }, 0, 2 },
	{ "a one-row region", 2, 3, "1\n22", { "##########", "##########", "22", "##########" },
	  2, 2 },
	{ "an empty region is its top row", 2, 1, "x\ny", { "##########", "##########", "y",
	  "##########" }, 1, 2 },
	{ "a region past the grid is cut", 3, 9, "a\nb", { "##########", "##########",
	  "##########", "b" }, 1, 3 },
};

static void test_log(void **state)
{
	struct grid *g = new_grid(10, 4);
	struct grid_log l;
	(void)state;

	for (size_t i = 0; i < sizeof(log_cases) / sizeof(log_cases[0]); i++) {
		grid_clear(g, A);
		grid_fill(g, 0, 0, 10, 4, '#', A);
		grid_fill(g, 0, log_cases[i].top, 10,
			  log_cases[i].bottom > log_cases[i].top ? log_cases[i].bottom - log_cases[i].top : 1,
			  ' ', A);
		grid_log_init(&l, g, log_cases[i].top, log_cases[i].bottom, A);
		grid_log_write(&l, log_cases[i].in, str_len(log_cases[i].in));
		for (unsigned r = 0; r < 4; r++)
			if (!str_eq(row_text(g, r), log_cases[i].want[r]))
				fail_msg("%s: row %u is '%s', want '%s'", log_cases[i].name, r,
					 row_text(g, r), log_cases[i].want[r]);
		if (l.col != log_cases[i].col || l.row != log_cases[i].row)
			fail_msg("%s: cursor (%u,%u), want (%u,%u)", log_cases[i].name, l.col, l.row,
				 log_cases[i].col, log_cases[i].row);
		// Written byte by byte, the same.
		struct grid_log l2;
		grid_fill(g, 0, log_cases[i].top, 10, 4, ' ', A);
		grid_log_init(&l2, g, log_cases[i].top, log_cases[i].bottom, A);
		for (const char *p = log_cases[i].in; *p; p++)
			grid_log_write(&l2, p, 1);
		assert_int_equal(l2.col, l.col);
		assert_int_equal(l2.row, l.row);
	}
	free(g);
}

// The panic path: a write and a flush from inside a flush's draw (an NMI
// while the console draws), the interrupted flush going on afterwards. The
// screen must end up showing the grid after one more flush, and the nested
// write must land whole.
static struct grid *nested_grid;
static struct grid_log *nested_log;
static int nested_at;

static void draw_nesting(void *ctx, unsigned col, unsigned row, struct grid_cell c)
{
	draw(ctx, col, row, c);
	if (--nested_at == 0) {
		grid_log_write(nested_log, "error: panic\n", 13);
		grid_flush(nested_grid, draw, NULL);
	}
}

static void test_nested(void **state)
{
	struct grid *g = new_grid(20, 5);
	struct grid_log l;
	(void)state;

	for (int at = 1; at < 60; at += 7) {
		grid_init(g, 20, 5, A);
		grid_log_init(&l, g, 0, 5, A);
		mem_set(screen, 0, sizeof(screen));
		nested_grid = g;
		nested_log = &l;
		nested_at = at;
		grid_log_write(&l, "line one\nline two is longer\n", 28);
		grid_flush(g, draw_nesting, NULL);
		flush(g);
		assert_screen_is_grid(g);
		assert_string_equal(row_text(g, l.row - 1), "error: panic");
	}
	free(g);
}

static void test_font(void **state)
{
	(void)state;
	// Blank, full block, half blocks, as the QR code in text mode needs.
	for (int r = 0; r < FONT_HEIGHT; r++) {
		assert_int_equal(font_cp437[' '][r], 0);
		assert_int_equal(font_cp437[0xdb][r], 0xff);
		assert_int_equal(font_cp437[0xdf][r], r < FONT_HEIGHT / 2 ? 0xff : 0);
		assert_int_equal(font_cp437[0xdc][r], r < FONT_HEIGHT / 2 ? 0 : 0xff);
	}
	// Every printable ASCII character but the space has ink, and no two
	// are alike (the e2e screen check reads text back by glyph).
	for (int a = 0x21; a < 0x7f; a++) {
		int ink = 0;
		for (int r = 0; r < FONT_HEIGHT; r++)
			ink |= font_cp437[a][r];
		if (!ink)
			fail_msg("'%c' has no ink", a);
		for (int b = 0x20; b < a; b++)
			if (mem_cmp(font_cp437[a], font_cp437[b], FONT_HEIGHT) == 0)
				fail_msg("'%c' and '%c' have the same glyph", a, b);
	}
}

static void test_pixel(void **state)
{
	static const struct {
		const char *name;
		struct pixel_format f;
		bool ok;
		unsigned bytes;
		struct rgb c;
		uint32_t want;
	} cases[] = {
		{ "xRGB 32", { 32, 16, 8, 8, 8, 0, 8 }, true, 4, { 0x12, 0x34, 0x56 }, 0x123456 },
		{ "xBGR 32", { 32, 0, 8, 8, 8, 16, 8 }, true, 4, { 0x12, 0x34, 0x56 }, 0x563412 },
		{ "RGB 24", { 24, 16, 8, 8, 8, 0, 8 }, true, 3, { 0xaa, 0xaa, 0xaa }, 0xaaaaaa },
		{ "RGB 565", { 16, 11, 5, 5, 6, 0, 5 }, true, 2, { 0xaa, 0xaa, 0xaa }, 0xad55 },
		{ "RGB 565 white", { 16, 11, 5, 5, 6, 0, 5 }, true, 2, { 0xff, 0xff, 0xff }, 0xffff },
		{ "RGB 565 red", { 16, 11, 5, 5, 6, 0, 5 }, true, 2, { 0xff, 0x00, 0x00 }, 0xf800 },
		{ "RGB 555", { 15, 10, 5, 5, 5, 0, 5 }, true, 2, { 0xaa, 0xaa, 0xaa }, 0x56b5 },
		{ "RGB 555 blue", { 15, 10, 5, 5, 5, 0, 5 }, true, 2, { 0, 0, 0xff }, 0x001f },
		{ "8 bpp", { 8, 5, 3, 2, 3, 0, 2 }, false, 1, { 0, 0, 0 }, 0 },
		{ "field past the pixel", { 16, 12, 5, 5, 6, 0, 5 }, false, 2, { 0, 0, 0 }, 0 },
		{ "overlapping fields", { 32, 8, 8, 8, 8, 0, 8 }, false, 4, { 0, 0, 0 }, 0 },
		{ "an empty field", { 32, 16, 8, 8, 0, 0, 8 }, false, 4, { 0, 0, 0 }, 0 },
		{ "a field wider than 8", { 32, 20, 10, 10, 10, 0, 10 }, false, 4, { 0, 0, 0 }, 0 },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (pixel_format_ok(&cases[i].f) != cases[i].ok)
			fail_msg("%s: pixel_format_ok %d, want %d", cases[i].name, !cases[i].ok, cases[i].ok);
		if (pixel_bytes(&cases[i].f) != cases[i].bytes)
			fail_msg("%s: %u bytes, want %u", cases[i].name, pixel_bytes(&cases[i].f),
				 cases[i].bytes);
		if (cases[i].ok && pixel_pack(&cases[i].f, cases[i].c) != cases[i].want)
			fail_msg("%s: packed 0x%x, want 0x%x", cases[i].name,
				 pixel_pack(&cases[i].f, cases[i].c), cases[i].want);
	}
	assert_int_equal(colour_rgb[GRID_LIGHT_GREY].r, 0xaa);
	assert_int_equal(colour_rgb[GRID_BROWN].g, 0x55);
	assert_int_equal(colour_rgb[GRID_WHITE].b, 0xff);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init),
		cmocka_unit_test(test_put_and_flush),
		cmocka_unit_test(test_scroll),
		cmocka_unit_test(test_invalidate),
		cmocka_unit_test(test_log),
		cmocka_unit_test(test_nested),
		cmocka_unit_test(test_font),
		cmocka_unit_test(test_pixel),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
