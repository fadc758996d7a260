// SPDX-License-Identifier: GPL-2.0-or-later
// The module grid (matrix.h). Whether a module is a function module is
// computed from its coordinates; the masks, which ask for every module 16
// times, read it from a map made once (qr_function_map).
#include "qr/matrix.h"
#include "qr/format_info.h"
#include "memstr.h"

void qr_grid_init(struct qr_grid *g, uint8_t *bits, int version)
{
	g->bits = bits;
	g->version = version;
	g->size = QR_SIZE(version);
	g->align_count = qr_alignment_centres(version, g->align);
	for (int c = 0; c < g->size; c++) {
		g->align_at[c] = -1;
		for (int i = 0; i < g->align_count; i++) {
			if (g->align_at[c] < 0 && c >= g->align[i] - 2 && c <= g->align[i] + 2)
				g->align_at[c] = (int8_t)i;
		}
	}
	mem_set(bits, 0, (size_t)(g->size * g->size + 7) / 8);
}

void qr_grid_set(struct qr_grid *g, int x, int y, bool dark)
{
	int i = y * g->size + x;
	uint8_t bit = (uint8_t)(1u << (i & 7));

	if (dark)
		g->bits[i >> 3] |= bit;
	else
		g->bits[i >> 3] &= (uint8_t)~bit;
}

void qr_grid_flip(struct qr_grid *g, int x, int y)
{
	int i = y * g->size + x;

	g->bits[i >> 3] ^= (uint8_t)(1u << (i & 7));
}

// True for the alignment centre pairs that would overlap a finder (Annex E:
// they carry no pattern).
static bool under_finder(const struct qr_grid *g, int i, int j)
{
	int last = g->align_count - 1;

	return (i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0);
}

bool qr_is_function(const struct qr_grid *g, int x, int y)
{
	int far = g->size - 8;  // first row/column of a far finder's separator

	// Finders with separators and the format information beside them;
	// the lower-left corner holds the dark module at (8, size - 8) too.
	if ((x <= 8 && y <= 8) || (x >= far && y <= 8) || (x <= 8 && y >= far))
		return true;
	if (x == 6 || y == 6)
		return true;
	if (g->version >= 7) {
		int v = g->size - 11;   // the 3-wide version blocks start here

		if ((x >= v && x < v + 3 && y < 6) || (y >= v && y < v + 3 && x < 6))
			return true;
	}
	int ax = g->align_at[x], ay = g->align_at[y];

	return ax >= 0 && ay >= 0 && !under_finder(g, ax, ay);
}

void qr_function_map(const struct qr_grid *g, uint8_t *map)
{
	struct qr_grid m;

	qr_grid_init(&m, map, g->version);
	for (int y = 0; y < g->size; y++) {
		for (int x = 0; x < g->size; x++) {
			if (qr_is_function(g, x, y))
				qr_grid_set(&m, x, y, true);
		}
	}
}

// Chebyshev distance from (x, y) to (cx, cy): which square ring it is on.
static int ring(int x, int y, int cx, int cy)
{
	int dx = x < cx ? cx - x : x - cx;
	int dy = y < cy ? cy - y : y - cy;

	return dx > dy ? dx : dy;
}

// 7.3.2: a dark 7x7 ring, a light 5x5 ring, a dark 3x3 core.
static void draw_finder(struct qr_grid *g, int left, int top)
{
	for (int y = top; y < top + 7; y++) {
		for (int x = left; x < left + 7; x++)
			qr_grid_set(g, x, y, ring(x, y, left + 3, top + 3) != 2);
	}
}

// 7.3.5: a dark 5x5 ring, a light 3x3 ring, one dark centre module.
static void draw_alignment(struct qr_grid *g, int cx, int cy)
{
	for (int y = cy - 2; y <= cy + 2; y++) {
		for (int x = cx - 2; x <= cx + 2; x++)
			qr_grid_set(g, x, y, ring(x, y, cx, cy) != 1);
	}
}

void qr_draw_function_patterns(struct qr_grid *g)
{
	int size = g->size;

	draw_finder(g, 0, 0);
	draw_finder(g, size - 7, 0);
	draw_finder(g, 0, size - 7);
	for (int i = 8; i < size - 8; i += 2) {
		qr_grid_set(g, i, 6, true);
		qr_grid_set(g, 6, i, true);
	}
	int n = g->align_count;
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < n; j++) {
			if (!under_finder(g, i, j))
				draw_alignment(g, g->align[i], g->align[j]);
		}
	}
	qr_grid_set(g, 8, size - 8, true);      // 7.9.1: the dark module
	if (g->version < 7)
		return;
	uint32_t bits = qr_version_bits(g->version);
	// 7.10: bit i at (size - 11 + i % 3, i / 3) and mirrored across the
	// diagonal.
	for (int i = 0; i < 18; i++) {
		bool dark = bits >> i & 1;
		int a = size - 11 + i % 3, b = i / 3;

		qr_grid_set(g, a, b, dark);
		qr_grid_set(g, b, a, dark);
	}
}

void qr_draw_format(struct qr_grid *g, enum qr_level level, int mask)
{
	uint16_t bits = qr_format_bits(level, mask);
	int size = g->size;

	// Figure 25: bit 0 is the least significant. Around the upper-left
	// finder, up column 8 and then left along row 8, skipping the timing
	// module at 6; the second copy runs along row 8 under the upper-right
	// finder (bits 0-7) and down column 8 beside the lower-left (8-14).
	for (int i = 0; i < 15; i++) {
		bool dark = bits >> i & 1;

		if (i < 6)
			qr_grid_set(g, 8, i, dark);
		else if (i < 8)
			qr_grid_set(g, 8, i + 1, dark);
		else if (i == 8)
			qr_grid_set(g, 7, 8, dark);
		else
			qr_grid_set(g, 14 - i, 8, dark);
		if (i < 8)
			qr_grid_set(g, size - 1 - i, 8, dark);
		else
			qr_grid_set(g, 8, size - 15 + i, dark);
	}
}

void qr_place_codewords(struct qr_grid *g, const uint8_t *cw, int count)
{
	int size = g->size;
	int bit = 0, bits = count * 8;
	bool upward = true;

	// Column pairs from the right edge; column 6 (vertical timing) is
	// skipped, so pairs left of it start one column further left.
	for (int right = size - 1; right > 0; right -= 2) {
		if (right == 6)
			right = 5;
		for (int step = 0; step < size; step++) {
			int y = upward ? size - 1 - step : step;

			for (int x = right; x >= right - 1; x--) {
				if (qr_is_function(g, x, y))
					continue;
				if (bit < bits && (cw[bit >> 3] >> (7 - (bit & 7)) & 1))
					qr_grid_set(g, x, y, true);
				bit++;
			}
		}
		upward = !upward;
	}
}
