// SPDX-License-Identifier: GPL-2.0-or-later
// build/bench/serial-clock: put host timestamps on a QEMU guest's serial
// stream (read on stdin), for the bench/ scripts. Times are seconds since the
// program started, which the scripts arrange to be when QEMU starts (QEMU's
// stdout is a FIFO this program opens first). Line mode (ramsift's line log)
// prints every line as "T.mmm LINE"; screen mode (--screen, memtest86+,
// whose serial output mirrors its 80x25 screen with cursor escapes) replays
// the stream onto a screen and prints the fields that change as events
// (above screen_events). --dump FILE writes the final screen as text;
// --stop-test N, --stop-pass N and --timeout S end the run, and the last
// line is always "T.mmm end=eof|stop|timeout". Exit status 0.
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define ROWS 25
#define COLS 80
#define BURST_MS 100
#define MAX_QUIET_WAIT_S 1.0

static double t0;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9 - t0;
}

// ---- line mode ---------------------------------------------------------------

static char line[4096];
static size_t line_len;
static int esc; // 0 text, 1 after ESC, 2 inside CSI

static void line_byte(unsigned char c, double t)
{
	if (esc == 1) {
		esc = c == '[' ? 2 : 0;
		return;
	}
	if (esc == 2) {
		if (c >= 0x40 && c <= 0x7e)
			esc = 0;
		return;
	}
	if (c == 0x1b) {
		esc = 1;
	} else if (c == '\n') {
		printf("%.3f %.*s\n", t, (int)line_len, line);
		line_len = 0;
	} else if (c != '\r' && line_len < sizeof(line)) {
		line[line_len++] = (char)c;
	}
}

// ---- screen mode -------------------------------------------------------------

static char screen[ROWS][COLS + 1];
static int row, col;
static int csi_par[8], csi_n;

static void screen_clear(void)
{
	for (int r = 0; r < ROWS; r++) {
		memset(screen[r], ' ', COLS);
		screen[r][COLS] = '\0';
	}
}

static void csi_final(unsigned char c)
{
	int p0 = csi_n > 0 ? csi_par[0] : 0, p1 = csi_n > 1 ? csi_par[1] : 0;

	switch (c) {
	case 'H':
	case 'f':
		row = (p0 ? p0 : 1) - 1;
		col = (p1 ? p1 : 1) - 1;
		break;
	case 'J':
		if (p0 == 2)
			screen_clear();
		break;
	case 'K':
		if (row >= 0 && row < ROWS)
			for (int k = col; k < COLS; k++)
				screen[row][k] = ' ';
		break;
	case 'A': row -= p0 ? p0 : 1; break;
	case 'B': row += p0 ? p0 : 1; break;
	case 'C': col += p0 ? p0 : 1; break;
	case 'D': col -= p0 ? p0 : 1; break;
	default: break; // colours (m), cursor visibility (?25l/h): no text
	}
}

static void screen_byte(unsigned char c)
{
	if (esc == 1) {
		esc = c == '[' ? 2 : 0;
		csi_n = 0;
		memset(csi_par, 0, sizeof(csi_par));
		return;
	}
	if (esc == 2) {
		if (c >= '0' && c <= '9') {
			if (csi_n == 0)
				csi_n = 1;
			csi_par[csi_n - 1] = csi_par[csi_n - 1] * 10 + (c - '0');
		} else if (c == ';') {
			if (csi_n == 0)
				csi_n = 1;
			if (csi_n < 8)
				csi_par[csi_n++] = 0;
		} else if (c >= 0x40 && c <= 0x7e) {
			csi_final(c);
			esc = 0;
		}
		return;
	}
	if (c == 0x1b)
		esc = 1;
	else if (c == '\r')
		col = 0;
	else if (c == '\n')
		row++;
	else if (c == '\b')
		col--;
	else if (c >= 0x20 && c < 0x7f) {
		if (row >= 0 && row < ROWS && col >= 0 && col < COLS)
			screen[row][col] = (char)c;
		col++;
	}
}

// The number after label on any row (label followed by spaces), or -1.
static long field(const char *label)
{
	for (int r = 0; r < ROWS; r++) {
		const char *p = strstr(screen[r], label);

		if (p) {
			p += strlen(label);
			while (*p == ' ')
				p++;
			if (*p >= '0' && *p <= '9')
				return strtol(p, NULL, 10);
		}
	}
	return -1;
}

// The running test: the number right after the "Test #" label (blank
// before the first test starts).
static long test_field(void)
{
	for (int r = 0; r < ROWS; r++) {
		const char *p = strstr(screen[r], "Test #");

		if (p && p[6] >= '0' && p[6] <= '9')
			return strtol(p + 6, NULL, 10);
	}
	return -1;
}

// The badram= message: its row, then the continuation rows that start with
// seven spaces and "0x"; spaces dropped. Empty when there is none.
static void badram_field(char *out, size_t size)
{
	size_t n = 0;

	out[0] = '\0';
	for (int r = 0; r < ROWS; r++) {
		if (strncmp(screen[r], "badram=", 7) != 0)
			continue;
		for (int k = r; k < ROWS; k++) {
			if (k > r && strncmp(screen[k], "       0x", 9) != 0)
				break;
			for (const char *p = screen[k] + (k == r ? 7 : 0); *p; p++)
				if (*p != ' ' && n + 1 < size)
					out[n++] = *p;
		}
		out[n] = '\0';
		return;
	}
}

static long last_test = -1, last_pass = -1, last_errors = -1;
static char last_badram[1024];

// Read the fields off the screen and print what changed. Returns true when
// a stop condition is met.
// Once a burst of output has ended (no byte for 100 ms, so a half-redrawn
// field is not read) the fields are read off the screen and each change is
// printed, timed at the burst's last byte:
//	T.mmm test=N      the "Test #" field (the test now running)
//	T.mmm pass=N      the "Pass:" counter (passes completed)
//	T.mmm errors=N    the "Errors:" counter
//	T.mmm badram=A,M,...  the pairs of a "badram=" message, joined across
//	                  its continuation lines
// A stalled guest can pause in mid-field ("#1" of "#10"), so counters are
// taken only when they grow. --stop-test N ends at the first test >= N or
// when the pass counter advances; --stop-pass N when it reaches N.
static bool screen_events(double t, long stop_test, long stop_pass)
{
	long test = test_field(), pass = field("Pass:"), errors = field("Errors:");
	char badram[sizeof(last_badram)];
	bool stop = false;

	if (pass > last_pass) {
		printf("%.3f pass=%ld\n", t, pass);
		if (stop_test >= 0 && last_pass >= 0)
			stop = true;
		if (last_pass >= 0)
			last_test = -1; // a new pass starts again at test 0
		last_pass = pass;
		if (stop_pass >= 0 && pass >= stop_pass)
			stop = true;
	}
	if (test > last_test) {
		printf("%.3f test=%ld\n", t, test);
		last_test = test;
		if (stop_test >= 0 && test >= stop_test)
			stop = true;
	}
	if (errors > last_errors) {
		printf("%.3f errors=%ld\n", t, errors);
		last_errors = errors;
	}
	badram_field(badram, sizeof(badram));
	if (badram[0] && strcmp(badram, last_badram) != 0) {
		printf("%.3f badram=%s\n", t, badram);
		strcpy(last_badram, badram);
	}
	fflush(stdout);
	return stop;
}

// ---- main --------------------------------------------------------------------

int main(int argc, char **argv)
{
	bool scr = false;
	long stop_test = -1, stop_pass = -1;
	double timeout = 0;
	const char *dump = NULL;
	const char *end = "eof";
	unsigned char buf[65536];
	double last_byte = 0, last_eval = 0;
	bool pending = false, stopping = false;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--screen"))
			scr = true;
		else if (!strcmp(argv[i], "--stop-test") && i + 1 < argc)
			stop_test = atol(argv[++i]);
		else if (!strcmp(argv[i], "--stop-pass") && i + 1 < argc)
			stop_pass = atol(argv[++i]);
		else if (!strcmp(argv[i], "--timeout") && i + 1 < argc)
			timeout = atof(argv[++i]);
		else if (!strcmp(argv[i], "--dump") && i + 1 < argc)
			dump = argv[++i];
		else {
			fprintf(stderr, "usage: serial-clock [--screen] [--stop-test N] "
				"[--stop-pass N] [--timeout S] [--dump FILE] <serial\n");
			return 2;
		}
	}
	t0 = now();
	screen_clear();
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (;;) {
		struct pollfd pfd = { .fd = 0, .events = POLLIN };
		int r = poll(&pfd, 1, pending ? BURST_MS : 200);

		if (r < 0 && errno == EINTR)
			continue;
		if (timeout > 0 && now() >= timeout) {
			end = "timeout";
			break;
		}
		if (r == 0) {
			// The burst has ended: the screen is whole again.
			if (pending) {
				pending = false;
				last_eval = now();
				if (screen_events(last_byte, stop_test, stop_pass) || stopping) {
					end = "stop";
					break;
				}
			}
			continue;
		}
		ssize_t n = read(0, buf, sizeof(buf));
		if (n <= 0)
			break;
		last_byte = now();
		for (ssize_t k = 0; k < n; k++) {
			if (scr)
				screen_byte(buf[k]);
			else
				line_byte(buf[k], last_byte);
		}
		pending = scr;
		// A guest that keeps the port busy (memtest86+ redraws its
		// BadRAM message for every error) leaves no quiet gap: read the
		// fields anyway every MAX_QUIET_WAIT_S, and after a stop condition
		// wait for a gap at most that long again, for whole final fields.
		if (scr && last_byte - last_eval > MAX_QUIET_WAIT_S) {
			if (stopping) {
				end = "stop";
				break;
			}
			last_eval = last_byte;
			stopping = screen_events(last_byte, stop_test, stop_pass);
		}
	}
	if (scr && pending && screen_events(last_byte, stop_test, stop_pass))
		end = "stop";
	if (!scr && line_len)
		printf("%.3f %.*s\n", last_byte, (int)line_len, line);
	if (dump) {
		FILE *f = fopen(dump, "w");

		for (int r = 0; f && r < ROWS; r++)
			fprintf(f, "%s\n", screen[r]);
		if (f)
			fclose(f);
	}
	printf("%.3f end=%s\n", now(), end);
	return 0;
}
