// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/screen/status_view.c and lib/screen/result_view.c: the
// status rows rendered into a grid and compared row by row as text (80 and
// 128 columns, before the first pass, during a test, with errors, until
// stopped), the estimate of the time left (a table), and the result panel:
// on a text screen the big word and the QR code drawn in block characters
// read back pixel by pixel and module by module, on a framebuffer the
// layout's rectangles (inside the grid, apart from each other and from the
// text, modules of at least 3 pixels), the lines wrapped whole, and the
// note when the QR code does not fit.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "screen/grid.h"
#include "screen/result_view.h"
#include "screen/status_view.h"
#include "memstr.h"
#include "contains.h"

static struct grid g;

// Row r of the grid as text, trailing blanks cut; CP437 0xdb as '#', 0xb0
// as '.', 0xc4 as '-', 0xdc as ',', 0xdf as '\''.
static const char *row_text(unsigned r)
{
	static char buf[SCREEN_MAX_COLS + 1];
	unsigned n = 0;

	for (unsigned c = 0; c < g.cols; c++) {
		uint8_t ch = grid_get(&g, c, r).ch;
		buf[n++] = ch == 0xdb ? '#' : ch == 0xb0 ? '.' : ch == 0xc4 ? '-' : ch == 0xdc ? ',' :
			   ch == 0xdf ? '\'' : (char)ch;
	}
	while (n && buf[n - 1] == ' ')
		n--;
	buf[n] = '\0';
	return buf;
}

static void ignore(void *ctx, unsigned col, unsigned row, struct grid_cell c)
{
	(void)ctx;
	(void)col;
	(void)row;
	(void)c;
}

static struct status_view running(void)
{
	return (struct status_view){
		.version = "0.2-gabc", .cpu = "QEMU Virtual CPU version 2.5+", .cpus = 1,
		.usable_bytes = 128ull << 20, .firmware = "BIOS", .loader = "GRUB 2.06, multiboot2",
		.pass = 1, .passes = 2, .test = "march-c", .test_index = 2, .ntests = 3,
		.test_done = 50, .test_total = 100, .pass_done = 25, .pass_total = 100,
		.elapsed_ms = 3723000, .left_known = true, .left_ms = 61000,
	};
}

static void test_status_rows_80(void **state)
{
	(void)state;
	struct status_view v = running();

	assert_true(grid_init(&g, 80, 25, GRID_ATTR_LOG));
	status_view_draw(&g, &v);
	static const char *const want[STATUS_VIEW_ROWS] = {
		" ramsift 0.2-gabc  memory tester             Esc stop  s skip  p pause  ? keys",
		" CPU      QEMU Virtual CPU version 2.5+                        testing 1 CPU",
		" RAM      128 MiB usable   firmware BIOS   loader GRUB 2.06, multiboot2",
		"",
		" Pass     1 of 2   test 2 of 3: march-c",
		" Test     [#################.................]  50%    elapsed   1:02:03",
		" Pass     [########..........................]  25%    time left ~0:01:01",
		" Errors   0   failing pages 0",
		"-- log -------------------------------------------------------------------------",
	};
	for (unsigned r = 0; r < STATUS_VIEW_ROWS; r++) {
		if (!str_eq(row_text(r), want[r]))
			fail_msg("row %u:\n got '%s'\nwant '%s'", r, row_text(r), want[r]);
	}
	// The title row is white on blue from edge to edge, the log's rows untouched.
	for (unsigned c = 0; c < 80; c++)
		assert_int_equal(grid_get(&g, c, 0).attr, GRID_ATTR(GRID_WHITE, GRID_BLUE));
	assert_int_equal(grid_get(&g, 0, STATUS_VIEW_ROWS).attr, GRID_ATTR_LOG);
	assert_string_equal(row_text(STATUS_VIEW_ROWS), "");
}

static void test_status_rows_states(void **state)
{
	(void)state;
	struct status_view v = running();

	assert_true(grid_init(&g, 128, 48, GRID_ATTR_LOG));
	v.errors = 24;
	v.failing_pages = 2;
	v.have_last = true;
	v.last_addr = 0x5a5a5a8;
	v.own_memory = true;
	v.state = "waiting 90 s for bits to fade";
	v.passes = 0;
	v.left_known = false;
	status_view_draw(&g, &v);
	assert_string_equal(row_text(4), " Pass     1 (until stopped)   test 2 of 3: march-c "
					 "(ramsift's own memory)   waiting 90 s for bits to fade");
	assert_true(contains(row_text(6), "pass left estimating"));
	assert_string_equal(row_text(7), " Errors   24   failing pages 2   last at 0x0000000005a5a5a8");
	assert_int_equal(grid_get(&g, 10, 7).attr, GRID_ATTR(GRID_LIGHT_RED, GRID_BLACK));
	// Errors the memory controller corrected show beside the tests' own.
	v.errors = 0;
	v.corrected = 3;
	status_view_draw(&g, &v);
	assert_string_equal(row_text(7), " Errors   0   corrected 3   failing pages 2   last at 0x0000000005a5a5a8");
	assert_int_equal(grid_get(&g, 24, 7).attr, GRID_ATTR(GRID_LIGHT_RED, GRID_BLACK));
	// Where the counts leave too little room, no address rather than a cut one.
	assert_true(grid_init(&g, 80, 25, GRID_ATTR_LOG));
	v.errors = 1234567;
	v.corrected = 12;
	v.failing_pages = 12345;
	status_view_draw(&g, &v);
	assert_string_equal(row_text(7), " Errors   1234567   corrected 12   failing pages 12345");
	assert_true(grid_init(&g, 128, 48, GRID_ATTR_LOG));
	v.failing_pages = 2;
	v.errors = 24;
	v.corrected = 0;
	status_view_draw(&g, &v);
	// The bars grow with the width: 128 - 46 cells.
	const char *bar = row_text(5);
	assert_int_equal(str_len(bar) > 82 + 10, true);

	// Before the first pass, and between tests: no test, empty bars.
	v = running();
	v.pass = 0;
	v.test = NULL;
	v.pass_done = 0;
	status_view_draw(&g, &v);
	assert_string_equal(row_text(4), " Pass     starting");
	assert_true(contains(row_text(5), "[....."));
	assert_true(contains(row_text(5), "   0%"));
	// A redraw with the same numbers draws no cell; a new percentage a few.
	grid_flush(&g, ignore, NULL);
	status_view_draw(&g, &v);
	assert_int_equal(grid_flush(&g, ignore, NULL), 0);
	v.pass_done = 1;	// 0 % -> 1 %, the bar still empty
	status_view_draw(&g, &v);
	assert_int_equal(grid_flush(&g, ignore, NULL), 1);
}

static void test_hms(void **state)
{
	(void)state;
	char t[16];
	assert_string_equal(status_view_hms(t, sizeof(t), 0), "0:00:00");
	assert_string_equal(status_view_hms(t, sizeof(t), 3723999), "1:02:03");
	assert_string_equal(status_view_hms(t, sizeof(t), 360000000), "100:00:00");
}

// ---- the result panel

// A QR-like test pattern of side modules: dark where (x * 7 + y * 3) % 5 < 2,
// light in a margin of 4.
static unsigned side;
static bool pattern(const void *ctx, unsigned x, unsigned y)
{
	(void)ctx;
	if (x < 4 || y < 4 || x >= side - 4 || y >= side - 4)
		return false;
	return (x * 7 + y * 3) % 5 < 2;
}

static const char *const fail_lines[] = {
	"GRUB_BADRAM=\"0x5a5a000,0x7ffffffffffff000,0x7000000,0x7ffffffffffff000\"",
	"memmap=4K$0x5a5a000,4K$0x7000000",
};

static struct result_view fail_view(void)
{
	return (struct result_view){
		.word = "FAIL", .colour = GRID_LIGHT_RED,
		.result_line = "ramsift: result=FAIL passes=1 errors=2 tested_bytes=133689344 "
			       "usable_bytes=133689344 elapsed_s=2.228 version=0.2-gabc",
		.lines = fail_lines, .nlines = 2, .keys = "Any key reboots.",
		.qr_side = side, .qr_module = pattern, .top = 3,
	};
}

// The grid's text rows joined, for finding a wrapped line.
static bool grid_has_wrapped(const char *s, unsigned col, unsigned width)
{
	size_t n = str_len(s);
	for (unsigned r = 0; r < g.rows; r++) {
		size_t at = 0;
		unsigned rr = r;
		while (at < n && rr < g.rows) {
			size_t k = n - at < width ? n - at : width;
			bool ok = true;
			for (size_t i = 0; i < k; i++)
				if (grid_get(&g, col + (unsigned)i, rr).ch != (uint8_t)s[at + i])
					ok = false;
			if (!ok)
				break;
			at += k;
			rr++;
		}
		if (at == n)
			return true;
	}
	return false;
}

static void test_result_text_80x50(void **state)
{
	(void)state;
	struct result_layout lay;

	side = 65;	// version 10 and its quiet zone
	assert_true(grid_init(&g, 80, 50, GRID_ATTR_LOG));
	struct result_view v = fail_view();
	v.square_cells = true;
	result_view_draw(&g, &v, &lay);
	assert_int_equal(lay.log_row, 48);
	assert_int_equal(lay.qr.cols, 65);
	assert_int_equal(lay.qr.rows, 33);
	assert_true(lay.qr.row >= lay.word.row + lay.word.rows);
	assert_true(lay.qr.row + lay.qr.rows <= lay.log_row);
	// The QR code read back from the half blocks: every module.
	for (unsigned y = 0; y < side; y++)
		for (unsigned x = 0; x < side; x++) {
			struct grid_cell c = grid_get(&g, lay.qr.col + x, lay.qr.row + y / 2);
			bool light = c.ch == 0xdb || (y % 2 == 0 ? c.ch == 0xdf : c.ch == 0xdc);
			assert_int_equal(c.attr, GRID_ATTR(GRID_WHITE, GRID_BLACK));
			if (light == pattern(NULL, x, y))
				fail_msg("module (%u,%u): cell '%c' does not show it", x, y, c.ch);
		}
	// The word: F's top row is five full blocks, in red, one a cell.
	assert_int_equal(lay.word.rows, 7);
	for (unsigned x = 0; x < 5; x++)
		assert_int_equal(grid_get(&g, lay.word.col + x, lay.word.row).ch, 0xdb);
	assert_int_equal(grid_get(&g, lay.word.col, lay.word.row).attr, GRID_ATTR(GRID_LIGHT_RED, GRID_BLACK));
	assert_int_equal(grid_get(&g, lay.word.col + 5, lay.word.row).ch, ' ');
	// Every line whole, wrapped at 78 columns, under the QR code.
	assert_true(grid_has_wrapped(v.result_line, 1, 78));
	assert_true(grid_has_wrapped(fail_lines[0], 1, 78));
	assert_true(grid_has_wrapped(fail_lines[1], 1, 78));
	assert_true(grid_has_wrapped("Any key reboots.", 1, 78));
	// The header rows are the caller's.
	assert_int_equal(grid_get(&g, 0, 0).attr, GRID_ATTR_LOG);
}

static void test_result_text_too_small(void **state)
{
	(void)state;
	struct result_layout lay;

	side = 185;	// version 40: no text screen holds it
	assert_true(grid_init(&g, 80, 50, GRID_ATTR_LOG));
	struct result_view v = fail_view();
	v.square_cells = true;
	result_view_draw(&g, &v, &lay);
	assert_int_equal(lay.qr.cols, 0);
	assert_true(grid_has_wrapped("The QR code does not fit this text screen; it needs a framebuffer.", 1, 78));
	// On 80x25 with cells twice as high, the word in half blocks: 4 rows.
	side = 49;
	assert_true(grid_init(&g, 80, 25, GRID_ATTR_LOG));
	v = fail_view();
	v.qr_side = 0;
	result_view_draw(&g, &v, &lay);
	assert_int_equal(lay.word.rows, 4);
	assert_string_equal(row_text(lay.word.row + 3), " '     '   '  '''  '''''");
}

static void test_result_fb(void **state)
{
	(void)state;
	static const struct {
		unsigned w, h, cw, ch, side;
	} screens[] = {
		{ 640, 480, 8, 16, 65 }, { 1024, 768, 8, 16, 65 }, { 1920, 1080, 16, 32, 65 },
		{ 3840, 2160, 16, 32, 185 }, { 1024, 768, 8, 16, 185 }, { 640, 480, 8, 16, 121 },
	};
	struct result_layout lay;

	for (size_t i = 0; i < sizeof(screens) / sizeof(screens[0]); i++) {
		unsigned cols = screens[i].w / screens[i].cw, rows = screens[i].h / screens[i].ch;
		if (cols > SCREEN_MAX_COLS)
			cols = SCREEN_MAX_COLS;
		if (rows > SCREEN_MAX_ROWS)
			rows = SCREEN_MAX_ROWS;
		assert_true(grid_init(&g, cols, rows, GRID_ATTR_LOG));
		side = screens[i].side;
		struct result_view v = fail_view();
		v.cell_w = screens[i].cw;
		v.cell_h = screens[i].ch;
		result_view_draw(&g, &v, &lay);
		// The symbol within the screen, with modules of 3 pixels or more,
		// and nothing written in its cells or the word's.
		assert_true(lay.qr_px >= RESULT_QR_MIN_PX);
		assert_true(lay.qr.cols * v.cell_w >= side * lay.qr_px);
		assert_true(lay.qr.rows * v.cell_h >= side * lay.qr_px);
		assert_true((lay.qr.col * v.cell_w + side * lay.qr_px) <= screens[i].w);
		assert_true(lay.qr.row + lay.qr.rows <= lay.log_row);
		assert_true(lay.qr.row >= 3 && lay.word.row >= 3);
		assert_true(lay.word_px >= 1);
		for (unsigned r = 0; r < lay.qr.rows; r++)
			for (unsigned c = 0; c < lay.qr.cols; c++)
				assert_int_equal(grid_get(&g, lay.qr.col + c, lay.qr.row + r).ch, ' ');
		for (unsigned r = 0; r < lay.word.rows; r++)
			for (unsigned c = 0; c < lay.word.cols; c++)
				assert_int_equal(grid_get(&g, lay.word.col + c, lay.word.row + r).ch, ' ');
		// The text column beside the symbol holds the lines whole.
		unsigned width = lay.qr.col > lay.word.col ? lay.qr.col - 2 : cols - 2;
		if (!grid_has_wrapped(fail_lines[0], 1, width) || !grid_has_wrapped(fail_lines[1], 1, width))
			fail_msg("screen %zu: the lines are not wrapped whole at %u columns", i, width);
	}
}

static void test_qr_text(void **state)
{
	(void)state;
	static char big[3000], mid[1600];
	static const struct {
		size_t grub, memmap;	// line lengths
		size_t cap;
		size_t left_out;
	} cases[] = {
		{ 70, 33, 2953, 0 },		// the usual FAIL: all three lines
		{ 1500, 1300, 2953, 0 },	// 20 + 1500 + 1300 + 2 fits
		{ 1500, 1500, 2953, 1 },	// memmap= goes first
		{ 2940, 10, 2953, 2 },		// GRUB_BADRAM= alone is too long: both go
		{ 0, 0, 2953, 0 },		// PASS: no lines
	};
	char buf[4096];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *lines[2] = { big, mid };
		size_t n = cases[i].grub ? 2 : 0, left = 99;
		mem_set(big, 'g', sizeof(big));
		mem_set(mid, 'm', sizeof(mid));
		big[cases[i].grub] = '\0';
		mid[cases[i].memmap] = '\0';
		size_t len = result_view_qr_text(buf, sizeof(buf), cases[i].cap,
						 "ramsift: result=FAIL", lines, n, &left);
		size_t want = 20;
		for (size_t k = 0; k < n - cases[i].left_out && n; k++)
			want += 1 + (k ? cases[i].memmap : cases[i].grub);
		if (left != cases[i].left_out || len != want || len > cases[i].cap)
			fail_msg("case %zu: left out %zu (want %zu), length %zu (want %zu)", i, left,
				 cases[i].left_out, len, want);
		assert_memory_equal(buf, "ramsift: result=FAIL", 20);
		if (n > cases[i].left_out)
			assert_int_equal(buf[20], '\n');
	}
}

static void test_glyphs(void **state)
{
	(void)state;
	const char *words[] = { "PASS", "FAIL", "STOPPED", "ABORTED" };
	for (size_t w = 0; w < 4; w++)
		for (const char *c = words[w]; *c; c++) {
			uint8_t any = 0;
			for (unsigned y = 0; y < RESULT_GLYPH_H; y++) {
				assert_true(result_view_glyph(*c, y) < 1u << RESULT_GLYPH_W);
				any |= result_view_glyph(*c, y);
			}
			if (!any)
				fail_msg("the big font lacks '%c'", *c);
		}
	assert_int_equal(result_view_glyph('x', 0), 0);
	assert_int_equal(result_view_glyph('A', RESULT_GLYPH_H), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_status_rows_80),
		cmocka_unit_test(test_status_rows_states),
		cmocka_unit_test(test_hms),
		cmocka_unit_test(test_result_text_80x50),
		cmocka_unit_test(test_result_text_too_small),
		cmocka_unit_test(test_result_fb),
		cmocka_unit_test(test_qr_text),
		cmocka_unit_test(test_glyphs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
