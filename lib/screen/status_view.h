// SPDX-License-Identifier: GPL-2.0-or-later
// The status screen's layout, as a pure function of the numbers it shows:
// a header (version, CPU, CPUs testing, usable RAM, firmware, loader), the
// pass and the test with a progress bar each, the elapsed time and an
// estimate of the time left, the errors, the distinct failing pages and the
// last failing address, rendered into rows [0, STATUS_VIEW_ROWS) of a grid
// (lib/screen/grid.h) at least STATUS_VIEW_MIN_COLS wide; the rows below are
// the log's (src/screen.c's screen_log_rows). The same layout on a VGA text
// screen and a framebuffer. The caller redraws it with new numbers and
// flushes: only the cells that changed are drawn.
#ifndef RAMSIFT_LIB_SCREEN_STATUS_VIEW_H
#define RAMSIFT_LIB_SCREEN_STATUS_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "screen/grid.h"

#define STATUS_VIEW_ROWS 9		// rows the view takes at the top
#define STATUS_VIEW_HEADER_ROWS 3	// of them the header (the result panel keeps it)
#define STATUS_VIEW_MIN_COLS 80
#define STATUS_VIEW_MIN_ROWS 25

// What the status screen shows. Strings are NUL-terminated, NULL for none.
// Times are milliseconds, sizes bytes.
struct status_view {
	// The header.
	const char *version;	// "0.2-g1a2b3c4"
	const char *cpu;	// the CPUID brand string, or NULL
	unsigned cpus;		// CPUs testing
	uint64_t usable_bytes;
	const char *firmware;	// "BIOS", "UEFI"
	const char *loader;	// "GRUB 2.06, multiboot2"
	bool no_keys;		// the title leaves out the keys (they do other things now)
	// Where the run is.
	uint32_t pass;		// 1, 2, ...; 0 before the first
	uint32_t passes;	// passes= (0: until stopped)
	const char *test;	// the test running, NULL between tests
	unsigned test_index;	// 1-based, of ntests in the pass
	unsigned ntests;
	bool own_memory;	// the test runs over ramsift's old place
	const char *state;	// what the run does besides testing, or NULL:
				// "paused", "waiting 90 s for bits to fade"
	uint64_t test_done, test_total;	// bytes of the test's sweeps
	uint64_t pass_done, pass_total;	// bytes of the pass's sweeps
	uint64_t elapsed_ms;	// since the run began
	bool left_known;	// left_ms is an estimate (else "estimating")
	uint64_t left_ms;	// to the end of the run (of this pass if passes=0)
	// What was found.
	uint64_t errors;
	uint64_t corrected;	// errors the memory controller corrected (machine checks);
				// their pages are among failing_pages
	uint64_t failing_pages;
	bool have_last;
	uint64_t last_addr;	// the last failing address
};

// Render v into rows [0, STATUS_VIEW_ROWS) of g: every cell of those rows
// is written (a redraw with the same v changes nothing). g must be at least
// STATUS_VIEW_MIN_COLS wide; a narrower grid gets its rows cut.
void status_view_draw(struct grid *g, const struct status_view *v);

// Only the header rows [0, STATUS_VIEW_HEADER_ROWS).
void status_view_draw_header(struct grid *g, const struct status_view *v);

// "H:MM:SS" (hours as many digits as needed) into buf[0..len); returns buf.
char *status_view_hms(char *buf, unsigned len, uint64_t ms);

#endif
