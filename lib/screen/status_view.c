// SPDX-License-Identifier: GPL-2.0-or-later
// The status screen's layout (see status_view.h). Each row is blanked and
// written whole on every draw; the grid marks only the cells whose contents
// changed, so a redraw costs what changed.
#include <stdarg.h>

#include "fmt.h"
#include "screen/status_view.h"
#include "memstr.h"

#define ATTR_TITLE	GRID_ATTR(GRID_WHITE, GRID_BLUE)
#define ATTR_LABEL	GRID_ATTR(GRID_LIGHT_GREY, GRID_BLACK)
#define ATTR_VALUE	GRID_ATTR(GRID_WHITE, GRID_BLACK)
#define ATTR_GOOD	GRID_ATTR(GRID_LIGHT_GREEN, GRID_BLACK)
#define ATTR_BAD	GRID_ATTR(GRID_LIGHT_RED, GRID_BLACK)
#define ATTR_NOTE	GRID_ATTR(GRID_YELLOW, GRID_BLACK)
#define ATTR_BAR_DONE	GRID_ATTR(GRID_LIGHT_GREEN, GRID_BLACK)
#define ATTR_BAR_LEFT	GRID_ATTR(GRID_DARK_GREY, GRID_BLACK)
#define ATTR_RULE	GRID_ATTR(GRID_DARK_GREY, GRID_BLACK)

#define CH_FULL_BLOCK	0xdb	// CP437
#define CH_LIGHT_SHADE	0xb0
#define CH_RULE		0xc4	// box drawing, light horizontal

#define LINE 256

// A row being written left to right.
struct row {
	struct grid *g;
	unsigned r, col;
};

static struct row row_start(struct grid *g, unsigned r, uint8_t attr)
{
	grid_fill(g, 0, r, g->cols, 1, ' ', attr);
	return (struct row){ g, r, 1 };
}

__attribute__((format(printf, 3, 4)))
static void put(struct row *w, uint8_t attr, const char *fmt, ...)
{
	char buf[LINE];
	va_list ap;

	va_start(ap, fmt);
	int n = fmt_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	w->col += (unsigned)grid_put(w->g, w->col, w->r, buf, (size_t)n, attr);
}

static void put_at(struct row *w, unsigned col, uint8_t attr, const char *s)
{
	if (w->col < col)
		w->col = col;
	put(w, attr, "%s", s);
}

char *status_view_hms(char *buf, unsigned len, uint64_t ms)
{
	uint64_t s = ms / 1000;

	fmt_snprintf(buf, len, "%llu:%02llu:%02llu", (unsigned long long)(s / 3600),
		     (unsigned long long)(s / 60 % 60), (unsigned long long)(s % 60));
	return buf;
}

// A progress bar of width cells: done of total, full blocks then shades,
// and the percentage after it.
static void bar(struct row *w, unsigned width, uint64_t done, uint64_t total)
{
	uint64_t pct = total ? (done >= total ? 100 : done * 100 / total) : 0;
	unsigned full = total ? (unsigned)((unsigned __int128)width * (done < total ? done : total) / total) : 0;

	put(w, ATTR_LABEL, "[");
	for (unsigned i = 0; i < width; i++)
		grid_set(w->g, w->col + i, w->r, i < full ? CH_FULL_BLOCK : CH_LIGHT_SHADE,
			 i < full ? ATTR_BAR_DONE : ATTR_BAR_LEFT);
	w->col += width;
	put(w, ATTR_LABEL, "] ");
	put(w, ATTR_VALUE, "%3llu%%", (unsigned long long)pct);
}

void status_view_draw_header(struct grid *g, const struct status_view *v)
{
	char size[FMT_SIZE_LEN];
	struct row w = row_start(g, 0, ATTR_TITLE);

	put(&w, ATTR_TITLE, "ramsift %s  memory tester", v->version ? v->version : "");
	const char *keys = "Esc stop  s skip  p pause  ? keys ";
	if (!v->no_keys && w.col + 3 + str_len(keys) <= g->cols)
		put_at(&w, g->cols - 1 - (unsigned)str_len(keys), ATTR_TITLE, keys);

	w = row_start(g, 1, ATTR_LABEL);
	put(&w, ATTR_LABEL, "CPU      ");
	put(&w, ATTR_VALUE, "%.52s", v->cpu && v->cpu[0] ? v->cpu : "unknown");
	put_at(&w, 63, ATTR_LABEL, "testing ");
	put(&w, ATTR_VALUE, "%u CPU%s", v->cpus, v->cpus == 1 ? "" : "s");

	w = row_start(g, 2, ATTR_LABEL);
	put(&w, ATTR_LABEL, "RAM      ");
	put(&w, ATTR_VALUE, "%s", fmt_size(size, v->usable_bytes));
	put(&w, ATTR_LABEL, " usable   firmware ");
	put(&w, ATTR_VALUE, "%s", v->firmware ? v->firmware : "unknown");
	put(&w, ATTR_LABEL, "   loader ");
	put(&w, ATTR_VALUE, "%.36s", v->loader ? v->loader : "unknown");
}

void status_view_draw(struct grid *g, const struct status_view *v)
{
	char t[32];
	unsigned width = g->cols >= STATUS_VIEW_MIN_COLS ? g->cols - 46 : 20;
	unsigned time_col = width + 21;

	status_view_draw_header(g, v);
	row_start(g, 3, ATTR_LABEL);

	struct row w = row_start(g, 4, ATTR_LABEL);
	put(&w, ATTR_LABEL, "Pass     ");
	if (v->pass == 0)
		put(&w, ATTR_VALUE, "starting");
	else if (v->passes)
		put(&w, ATTR_VALUE, "%u of %u", v->pass, v->passes);
	else
		put(&w, ATTR_VALUE, "%u (until stopped)", v->pass);
	if (v->test) {
		put(&w, ATTR_LABEL, "   test %u of %u: ", v->test_index, v->ntests);
		put(&w, ATTR_VALUE, "%s", v->test);
		if (v->own_memory)
			put(&w, ATTR_LABEL, " (ramsift's own memory)");
	}
	if (v->state)
		put(&w, ATTR_NOTE, "   %s", v->state);

	w = row_start(g, 5, ATTR_LABEL);
	put(&w, ATTR_LABEL, "Test     ");
	bar(&w, width, v->test ? v->test_done : 0, v->test ? v->test_total : 0);
	if (w.col < time_col)
		w.col = time_col;
	put(&w, ATTR_LABEL, "elapsed   ");
	put(&w, ATTR_VALUE, "%s", status_view_hms(t, sizeof(t), v->elapsed_ms));

	w = row_start(g, 6, ATTR_LABEL);
	put(&w, ATTR_LABEL, "Pass     ");
	bar(&w, width, v->pass_done, v->pass_total);
	if (w.col < time_col)
		w.col = time_col;
	put(&w, ATTR_LABEL, "%s", v->passes ? "time left " : "pass left ");
	if (v->left_known)
		put(&w, ATTR_VALUE, "~%s", status_view_hms(t, sizeof(t), v->left_ms));
	else
		put(&w, ATTR_VALUE, "estimating");

	w = row_start(g, 7, ATTR_LABEL);
	put(&w, ATTR_LABEL, "Errors   ");
	put(&w, v->errors ? ATTR_BAD : ATTR_GOOD, "%llu", (unsigned long long)v->errors);
	if (v->corrected) {
		put(&w, ATTR_LABEL, "   corrected ");
		put(&w, ATTR_BAD, "%llu", (unsigned long long)v->corrected);
	}
	put(&w, ATTR_LABEL, "   failing pages ");
	put(&w, v->failing_pages ? ATTR_BAD : ATTR_GOOD, "%llu", (unsigned long long)v->failing_pages);
	// The address whole or not at all: cut, it would name another.
	if (v->have_last && w.col + 29 <= g->cols) {
		put(&w, ATTR_LABEL, "   last at ");
		put(&w, ATTR_BAD, "0x%016llx", (unsigned long long)v->last_addr);
	}

	// The rule above the log.
	grid_fill(g, 0, 8, g->cols, 1, CH_RULE, ATTR_RULE);
	grid_put(g, 2, 8, " log ", 5, ATTR_LABEL);
}
