// SPDX-License-Identifier: GPL-2.0-or-later
// Masks and their penalty score (mask.h). Each row and column is read once as
// a sequence of runs; N3 looks at the last seven runs each time a light run
// ends, which finds every finder-like pattern in one pass.
#include "qr/mask.h"

#define N1 3
#define N2 3
#define N3 40
#define N4 10

bool qr_mask_flips(int mask, int x, int y)
{
	// Table 10 names the row i (y) and the column j (x).
	switch (mask) {
	case 0: return (y + x) % 2 == 0;
	case 1: return y % 2 == 0;
	case 2: return x % 3 == 0;
	case 3: return (y + x) % 3 == 0;
	case 4: return (y / 2 + x / 3) % 2 == 0;
	case 5: return (y * x) % 2 + (y * x) % 3 == 0;
	case 6: return ((y * x) % 2 + (y * x) % 3) % 2 == 0;
	default: return ((y + x) % 2 + (y * x) % 3) % 2 == 0;
	}
}

void qr_apply_mask(struct qr_grid *g, int mask, const uint8_t *function_map)
{
	for (int y = 0; y < g->size; y++) {
		for (int x = 0; x < g->size; x++) {
			if (!qr_bits_get(function_map, g->size, x, y) && qr_mask_flips(mask, x, y))
				qr_grid_flip(g, x, y);
		}
	}
}

// The last seven runs of a line in a ring, newest at head; runs alternate
// in colour.
struct runs {
	int len[8];
	unsigned head;
};

static void push_run(struct runs *r, int len)
{
	r->head = (r->head + 1) & 7;
	r->len[r->head] = len;
}

// The run k places before the newest (0: the newest).
static int run(const struct runs *r, unsigned k)
{
	return r->len[(r->head - k) & 7];
}

// Called when the light run run(r, 0) has just ended: 1 when the five runs
// before it are 1:1:3:1:1 with 4 units of light on one side.
static int finder_like(const struct runs *r)
{
	int w = run(r, 1);
	bool core = w > 0 && run(r, 2) == w && run(r, 3) == 3 * w && run(r, 4) == w && run(r, 5) == w;

	return core && (run(r, 0) >= 4 * w || run(r, 6) >= 4 * w);
}

// N1 and N3 of one row or column, its modules (1: dark) in m[0..size).
static int score_line(const uint8_t *m, int size)
{
	struct runs r = { { 0 }, 0 };
	// The line starts in the light outside the symbol. Any run that
	// touches the edge is long enough for N3 (a pattern of unit w takes
	// 7w modules, so 4w < size), so the outside counts as size modules.
	bool colour = false;
	int len = size;
	int same = 0;   // modules of the current colour inside the symbol
	int score = 0;

	for (int i = 0; i < size; i++) {
		bool dark = m[i];

		if (dark == colour) {
			len++;
			same++;
		} else {
			push_run(&r, len);
			if (dark)
				score += N3 * finder_like(&r);
			colour = dark;
			len = 1;
			same = 1;
		}
		if (same == 5)
			score += N1;
		else if (same > 5)
			score++;
	}
	if (colour) {
		push_run(&r, len);
		len = 0;
	}
	push_run(&r, len + size);
	return score + N3 * finder_like(&r);
}

int qr_penalty(const struct qr_grid *g)
{
	int size = g->size;
	int score = 0;
	int dark = 0;
	// Each row and column read out of the grid once, a byte a module; N2
	// looks at a row and the one above it.
	uint8_t above[QR_SIZE(QR_VERSION_MAX)], row[QR_SIZE(QR_VERSION_MAX)], column[QR_SIZE(QR_VERSION_MAX)];

	for (int y = 0; y < size; y++) {
		for (int x = 0; x < size; x++)
			row[x] = qr_bits_get(g->bits, size, x, y);
		score += score_line(row, size);
		for (int x = 0; x < size; x++) {
			dark += row[x];
			if (y > 0 && x + 1 < size && above[x] == row[x] && above[x + 1] == row[x] &&
			    row[x + 1] == row[x])
				score += N2;
			above[x] = row[x];
		}
	}
	for (int x = 0; x < size; x++) {
		for (int y = 0; y < size; y++)
			column[y] = qr_bits_get(g->bits, size, x, y);
		score += score_line(column, size);
	}
	// |dark share - 50 %| / 5 % in integers: |20 dark - 10 total| / total.
	int total = size * size;
	int off = 20 * dark - 10 * total;

	return score + N4 * ((off < 0 ? -off : off) / total);
}
