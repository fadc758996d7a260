// SPDX-License-Identifier: GPL-2.0-or-later
// The status screen and the result panel (see status_screen.h). Everything
// here runs on the BSP: the ticks come from its progress callback, the end
// from run_finish(). The drawing goes through console_locked(), so it never
// interleaves with a log line another CPU writes into the grid.
#include "console.h"
#include "errors.h"
#include "fmt.h"
#include "log.h"
#include "machcheck.h"
#include "passclock.h"
#include "qr/qr.h"
#include "fold_report.h"
#include "run/plan.h"
#include "screen.h"
#include "screen/result_view.h"
#include "screen/status_view.h"
#include "smp.h"
#include "status_screen.h"
#include "memstr.h"
#include "version.h"
#include "x86/cpuname.h"
#include "x86/timer.h"

#define QR_QUIET 4	// modules of light margin around the symbol (ISO 18004 7.3.8)
#define QR_TEXT_MAX (QR_CAPACITY_40L + 1)
#define QR_CAPACITY_40L 2953	// bytes version 40-L holds in byte mode
#define LOADER_LEN 96

static struct {
	bool on;			// the status rows are on the screen
	const struct run_status *status;	// the run's: read, never written
	struct status_view view;
	char cpu[CPU_NAME_LEN];
	char loader[LOADER_LEN];
	char state[48];
	uint64_t last_draw_ms;
	// The pass's work, to give the pass's bar and the estimate.
	uint64_t sweeps;		// of the tests one pass runs
	uint64_t pass_bytes;		// free RAM and ramsift's own
	unsigned ntests;
	// What the ticks have seen of the pass so far.
	uint32_t pass;
	uint64_t job_start_ms;		// the job seen last, by its start
	const char *job_test;
	uint64_t job_total;
	unsigned jobs;			// jobs begun in the pass
	uint64_t done_before;		// work of the pass's ended jobs
	uint64_t wait_start_ms, wait_ms;	// the wait going on or last
} st;

// The result panel's QR code: its text, the lines it holds, the symbol.
static struct {
	bool ready;
	char text[QR_TEXT_MAX];
	size_t len;
	char grub[BADRAM_LINE_MAX], memmap[BADRAM_LINE_MAX];
	const char *lines[2];
	size_t nlines;		// shown on the panel (all the fold's lines)
	size_t left_out;	// of them not in the QR code
	char note[128];
	uint8_t symbol[QR_BUFFER_LEN_MAX];
	uint8_t work[QR_WORK_LEN_MAX];
	bool encoded;
} qr;

// The test running, as a whole: its bytes done are the sum of the jobs of
// the CPUs running it.
static const struct job_status *current_test(const struct run_status *s)
{
	static struct job_status whole;

	whole = s->test;
	whole.done = status_jobs_done(s->job, smp_cpus());
	return &whole;
}

// The CPUs that test (the BSP and the APs that started).
static unsigned cpus_testing(void)
{
	return (unsigned)smp_online_count();
}

static const char *firmware(const struct bootinfo *bi)
{
	if (bi->efi)
		return "UEFI";
	// Multiboot 2 reports the EFI system table when there is one; under
	// Multiboot 1 only a VGA text screen proves a BIOS.
	if (bi->protocol == 2 || bi->fb.kind == FB_EGA_TEXT || bi->fb.kind == FB_NONE)
		return "BIOS";
	return "not told (Multiboot 1)";
}

static void draw(void *arg)
{
	(void)arg;
	struct grid *g = screen_grid();
	status_view_draw(g, &st.view);
	screen_flush();
}

void status_screen_start(const struct run_ctx *run, const struct bootinfo *bi)
{
	const struct config *cfg = run->cfg;
	const struct ram *ram = run->ram;
	struct grid *g = screen_grid();
	const struct mt_test *tests[CMDLINE_MAX_TESTS];

	st.status = run->status;
	st.ntests = (unsigned)plan_tests(cfg, tests, CMDLINE_MAX_TESTS);
	for (unsigned i = 0; i < st.ntests; i++)
		st.sweeps += tests[i]->sweeps;
	st.pass_bytes = range_total(ram->free, ram->nfree) + footprint_bytes(run->fp);
	cpu_name(st.cpu);
	fmt_snprintf(st.loader, sizeof(st.loader), "%s, multiboot%s",
		     bi->loader[0] ? bi->loader : "unnamed", bi->protocol == 2 ? "2" : "");
	st.view = (struct status_view){
		.version = RAMSIFT_VERSION, .cpu = st.cpu, .cpus = cpus_testing(),
		.usable_bytes = run->status->usable_bytes, .firmware = firmware(bi),
		.loader = st.loader, .passes = cfg->passes, .ntests = st.ntests,
	};
	if (!g || g->cols < STATUS_VIEW_MIN_COLS || g->rows < STATUS_VIEW_MIN_ROWS)
		return;
	st.on = true;
	screen_log_keep(STATUS_VIEW_ROWS, g->rows);
	status_screen_tick();
}

// The view's numbers from the run status.
static void update(uint64_t now)
{
	const struct run_status *s = st.status;
	const struct job_status *j = current_test(s);
	struct status_view *v = &st.view;

	if (s->pass != st.pass) {
		st.pass = s->pass;
		st.jobs = 0;
		st.done_before = 0;
		st.wait_ms = 0;
		st.job_test = NULL;
	}
	const char *test = __atomic_load_n(&j->test, __ATOMIC_RELAXED);
	if (test && (test != st.job_test || j->start_ms != st.job_start_ms)) {
		if (st.job_test)
			st.done_before += st.job_total;
		st.job_test = test;
		st.job_start_ms = j->start_ms;
		st.job_total = j->total;
		st.jobs++;
	}
	bool waiting = st.wait_ms && now - st.wait_start_ms < st.wait_ms;

	v->pass = s->pass;
	v->test = test;
	v->test_index = st.ntests ? (st.jobs - 1) % st.ntests + 1 : 0;
	v->own_memory = test && j->own_memory;
	v->test_done = test ? j->done : 0;
	v->test_total = test ? j->total : 0;
	v->pass_total = st.pass_bytes * st.sweeps;
	v->pass_done = st.done_before + v->test_done;
	if (v->pass_done > v->pass_total)
		v->pass_done = v->pass_total;
	v->elapsed_ms = now;
	if (waiting) {
		fmt_snprintf(st.state, sizeof(st.state), "waiting %llu s for bits to fade",
			     (unsigned long long)((st.wait_ms - (now - st.wait_start_ms) + 999) / 1000));
		v->state = st.state;
	} else {
		v->state = NULL;
	}

	// The estimate: the pass's (src/passclock.h), and as long again for
	// each pass to follow.
	uint64_t pass_ms = s->pass ? now - s->pass_start_ms : 0;
	uint64_t left;
	v->left_known = s->pass && passclock_left(now, &left);
	if (v->left_known && v->passes && v->passes > s->pass)
		left += (uint64_t)(v->passes - s->pass) * (pass_ms + left);
	v->left_ms = v->left_known ? left : 0;

	// The counts as they are now: the run status has them only from the
	// pass's start.
	v->errors = errors_total();
	v->corrected = machcheck_corrected();
	v->failing_pages = errors_table()->n;
	v->have_last = errors_found();
	v->last_addr = errors_last_addr();
}

void status_screen_tick(void)
{
	uint64_t now = timer_ms();

	if (!st.on || (st.last_draw_ms && now - st.last_draw_ms < STATUS_SCREEN_EVERY_MS))
		return;
	st.last_draw_ms = now;
	update(now);
	console_locked(draw, NULL);
}

void status_screen_waiting(uint32_t seconds)
{
	uint64_t now = timer_ms();

	if (!st.on)
		return;
	st.wait_start_ms = now;
	st.wait_ms = (uint64_t)seconds * 1000;
	st.last_draw_ms = 0;
	status_screen_tick();
}

// ---- the end -----------------------------------------------------------------

void status_screen_prepare_result(enum result r, const char *result_line)
{
	const struct badram_result *fold = report_last_fold();

	if (!screen_grid())
		return;
	qr.nlines = 0;
	if (r == RESULT_FAIL && fold) {
		badram_format_grub(qr.grub, sizeof(qr.grub), fold);
		badram_format_memmap(qr.memmap, sizeof(qr.memmap), fold);
		qr.lines[qr.nlines++] = qr.grub;
		qr.lines[qr.nlines++] = qr.memmap;
	}
	qr.len = result_view_qr_text(qr.text, sizeof(qr.text), QR_CAPACITY_40L, result_line, qr.lines,
				     qr.nlines, &qr.left_out);
	qr.note[0] = '\0';
	if (qr.left_out) {
		const char *what = qr.left_out == 2 ? "the GRUB_BADRAM= and memmap= lines" :
						      "the memmap= line";
		log_info("summary: the screen's QR code leaves out %s: the whole text would need "
			 "more than QR version 40-L holds (%u bytes)", what, QR_CAPACITY_40L);
		fmt_snprintf(qr.note, sizeof(qr.note), "The QR code leaves out %s (too long for it).",
			     what);
	}
	qr.ready = true;
}

// The smallest version at level L, then the highest level that keeps it.
static bool qr_make(void)
{
	int version = qr_fit_version(qr.len, QR_LEVEL_L);
	struct qr_options opt = { QR_LEVEL_L, version, QR_MASK_AUTO };

	if (version == 0)
		return false;
	for (int l = QR_LEVEL_H; l > QR_LEVEL_L; l--)
		if (qr_capacity(version, (enum qr_level)l) >= qr.len) {
			opt.level = (enum qr_level)l;
			break;
		}
	return qr_encode((const uint8_t *)qr.text, qr.len, &opt, qr.symbol, sizeof(qr.symbol),
			 qr.work, sizeof(qr.work)) == QR_OK;
}

// Quiet zone included: light outside the symbol.
static bool qr_dark(const void *ctx, unsigned x, unsigned y)
{
	(void)ctx;
	return qr_module(qr.symbol, (int)x - QR_QUIET, (int)y - QR_QUIET);
}

static const char *result_word(enum result r, uint8_t *colour)
{
	switch (r) {
	case RESULT_PASS:
		*colour = GRID_LIGHT_GREEN;
		return "PASS";
	case RESULT_FAIL:
		*colour = GRID_LIGHT_RED;
		return "FAIL";
	case RESULT_STOPPED:
		*colour = GRID_YELLOW;
		return "STOPPED";
	case RESULT_ABORTED:
		break;
	}
	*colour = GRID_LIGHT_MAGENTA;
	return "ABORTED";
}

static const char *keys_now(enum onexit onexit)
{
	switch (onexit) {
	case ONEXIT_HALT:
		return "The run is over. Any key reboots the machine; until then the result "
		       "stays here. Scan the QR code to take the lines with you.";
	case ONEXIT_REBOOT:
		return "The run is over; the machine reboots now.";
	case ONEXIT_POWEROFF:
		return "The run is over; the machine powers off now.";
	case ONEXIT_QEMU:
		break;
	}
	return "The run is over; QEMU ends now.";
}

// The big word in pixels: a rectangle per run of set font pixels in a row.
static void fill_word(const char *word, unsigned x0, unsigned y0, unsigned u, struct rgb c)
{
	unsigned units = (unsigned)str_len(word) * (RESULT_GLYPH_W + 1);

	for (unsigned y = 0; y < RESULT_GLYPH_H; y++)
		for (unsigned x = 0; x < units;) {
			unsigned i = x / (RESULT_GLYPH_W + 1), b = x % (RESULT_GLYPH_W + 1);
			bool on = b < RESULT_GLYPH_W &&
				  (result_view_glyph(word[i], y) >> (RESULT_GLYPH_W - 1 - b) & 1);
			if (!on) {
				x++;
				continue;
			}
			unsigned run = 1;
			while (b + run < RESULT_GLYPH_W &&
			       (result_view_glyph(word[i], y) >> (RESULT_GLYPH_W - 1 - b - run) & 1))
				run++;
			screen_fill(x0 + x * u, y0 + y * u, run * u, u, c);
			x += run;
		}
}

// The symbol in pixels: white under all of it, then each row's runs of
// dark modules.
static void fill_qr(unsigned x0, unsigned y0, unsigned px, unsigned side)
{
	static const struct rgb white = { 0xff, 0xff, 0xff }, black = { 0, 0, 0 };

	screen_fill(x0, y0, side * px, side * px, white);
	for (unsigned y = 0; y < side; y++)
		for (unsigned x = 0; x < side;) {
			if (!qr_dark(NULL, x, y)) {
				x++;
				continue;
			}
			unsigned run = 1;
			while (x + run < side && qr_dark(NULL, x + run, y))
				run++;
			screen_fill(x0 + x * px, y0 + y * px, run * px, px, black);
			x += run;
		}
}

struct panel {
	enum result r;
	enum onexit onexit;
};

static void draw_panel(void *arg)
{
	const struct panel *p = arg;
	struct result_view rv = { 0 };
	struct result_layout lay;
	unsigned w, h, cw, ch;
	bool fb = screen_pixels(&w, &h, &cw, &ch);

	if (!fb)
		screen_vga_rows50();
	struct grid *g = screen_grid();
	if (!st.view.version) {	// the run ended before it began (no memory map)
		st.view.version = RAMSIFT_VERSION;
		cpu_name(st.cpu);
		st.view.cpu = st.cpu;
	}
	st.view.no_keys = true;
	if (g->cols >= STATUS_VIEW_MIN_COLS)
		status_view_draw_header(g, &st.view);
	rv.word = result_word(p->r, &rv.colour);
	// The result line is the QR text's first line.
	char line[LOG_LINE_MAX];
	size_t n = 0;
	while (n < qr.len && n < sizeof(line) - 1 && qr.text[n] != '\n') {
		line[n] = qr.text[n];
		n++;
	}
	line[n] = '\0';
	rv.result_line = line;
	rv.lines = qr.lines;
	rv.nlines = qr.nlines;
	rv.note = qr.note[0] ? qr.note : NULL;
	rv.keys = keys_now(p->onexit);
	if (qr.encoded) {
		rv.qr_side = (unsigned)qr_size(qr.symbol) + 2 * QR_QUIET;
		rv.qr_module = qr_dark;
	}
	if (fb) {
		rv.cell_w = cw;
		rv.cell_h = ch;
	} else {
		rv.square_cells = g->rows >= 50;
	}
	rv.top = g->cols >= STATUS_VIEW_MIN_COLS ? STATUS_VIEW_HEADER_ROWS : 0;
	result_view_draw(g, &rv, &lay);
	screen_log_rows(lay.log_row, g->rows);
	screen_flush();
	if (fb && lay.word.cols)
		fill_word(rv.word, lay.word.col * cw, lay.word.row * ch, lay.word_px, colour_rgb[rv.colour]);
	if (fb && lay.qr_px)
		fill_qr(lay.qr.col * cw, lay.qr.row * ch, lay.qr_px, rv.qr_side);
}

void status_screen_result(enum result r, enum onexit onexit)
{
	struct panel p = { r, onexit };

	if (!screen_grid() || !qr.ready)
		return;
	st.on = false;		// no more status rows
	qr.encoded = qr_make();
	console_locked(draw_panel, &p);
}
