// SPDX-License-Identifier: GPL-2.0-or-later
// Reads back what ramsift's screen shows and compares it with the serial log,
// for the screen scenarios (tests/e2e/screen-*.sh): the screen is read
// pixel by pixel with the built-in font, so a drawing bug cannot pass.
//	screencheck fb SHOT.ppm COLSxROWS SCALE LOG [top=N] [PNG]
//	screencheck vga TEXT.bin COLSxROWS LOG [top=N]
//	screencheck fbraw DUMP WxH COLSxROWS SCALE LOG [top=N] [PNG]
//	screencheck png SHOT.ppm PNG
// fb: a QEMU screendump; vga: the text buffer (`pmemsave 0xb8000 ...`);
// fbraw: the framebuffer's 32-bit xRGB bytes, W * 4 a row; png converts
// (QEMU 7.2's screendump writes PPM alone) and fails on a blank picture.
// Exit status 0 when the screen matches, 1 when not (both printed side by
// side), 2 on bad input; with PNG the shot is also written as a PNG.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "screen/font.h"

#define MAX_COLS 512
#define MAX_ROWS 256
#define MAX_LOG (4u << 20)
#define FG 0xaa		// the log's light grey, each channel
#define TOLERANCE 12	// 5-bit channels: 0xaa -> 21 -> QEMU's 0xad

static uint8_t *img;
static unsigned img_w, img_h;
static unsigned top;	// rows above the log (top=N)

static void die(const char *msg, const char *what)
{
	fprintf(stderr, "screencheck: %s%s%s\n", msg, what ? ": " : "", what ? what : "");
	exit(2);
}

static void read_ppm(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned maxval;

	if (!f)
		die("cannot open", path);
	if (fscanf(f, "P6 %u %u %u", &img_w, &img_h, &maxval) != 3 || maxval != 255 || fgetc(f) == EOF)
		die("not a P6 PPM of 8-bit channels", path);
	if (img_w == 0 || img_h == 0 || img_w > 16384 || img_h > 16384)
		die("implausible size", path);
	img = malloc((size_t)img_w * img_h * 3);
	if (!img || fread(img, 3, (size_t)img_w * img_h, f) != (size_t)img_w * img_h)
		die("truncated", path);
	fclose(f);
}

// ---- PNG: deflated by gzip, or stored deflate blocks; no zlib is needed.

static uint32_t crc_table[256];

static uint32_t crc(uint32_t c, const uint8_t *p, size_t n)
{
	if (!crc_table[1])
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t v = i;
			for (int k = 0; k < 8; k++)
				v = v & 1 ? 0xedb88320u ^ (v >> 1) : v >> 1;
			crc_table[i] = v;
		}
	c = ~c;
	while (n--)
		c = crc_table[(c ^ *p++) & 0xff] ^ (c >> 8);
	return ~c;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static void chunk(FILE *f, const char *type, const uint8_t *data, size_t n)
{
	uint8_t b[8];
	put32(b, (uint32_t)n);
	memcpy(b + 4, type, 4);
	fwrite(b, 1, 8, f);
	if (n)
		fwrite(data, 1, n, f);
	uint32_t c = crc(crc(0, (const uint8_t *)type, 4), n ? data : b, n);
	put32(b, c);
	fwrite(b, 1, 4, f);
}

// The raw deflate stream of data, made by gzip -9 (a gzip member is a
// 10-byte header, the deflate stream, then CRC-32 and size: RFC 1952),
// into *out; its length, or 0 when gzip is not there or fails.
static size_t gzip_deflate(const uint8_t *data, size_t n, uint8_t **out)
{
	char in_path[] = "/tmp/screencheck.XXXXXX", cmd[128];
	int fd = mkstemp(in_path);
	size_t len = 0, cap = n / 2 + 4096, got;
	FILE *f, *p;

	*out = NULL;
	if (fd < 0)
		return 0;
	f = fdopen(fd, "wb");
	if (!f || fwrite(data, 1, n, f) != n || fclose(f) != 0) {
		unlink(in_path);
		return 0;
	}
	snprintf(cmd, sizeof(cmd), "gzip -9 -n -c %s", in_path);
	p = popen(cmd, "r");
	uint8_t *buf = malloc(cap);
	while (p && buf && (got = fread(buf + len, 1, cap - len, p)) > 0) {
		len += got;
		if (len == cap) {
			uint8_t *more = realloc(buf, cap *= 2);
			if (!more)
				break;
			buf = more;
		}
	}
	int status = p ? pclose(p) : -1;
	unlink(in_path);
	// ID1 ID2, CM 8 (deflate), FLG 0 (no name, no extra fields).
	if (status != 0 || !buf || len < 18 || buf[0] != 0x1f || buf[1] != 0x8b || buf[2] != 8 || buf[3]) {
		free(buf);
		return 0;
	}
	memmove(buf, buf + 10, len - 18);
	*out = buf;
	return len - 18;
}

// A PNG of the picture: 8-bit RGB, no filter, the scanlines deflated by gzip
// (a few tens of KiB for a screen of text), or in stored deflate blocks
// without it, so that no zlib is needed.
static void write_png(const char *path)
{
	size_t row = (size_t)img_w * 3 + 1, raw_n = row * img_h;
	size_t blocks = (raw_n + 65534) / 65535, z_n = 2 + raw_n + 5 * blocks + 4;
	uint8_t *raw = malloc(raw_n), *z = malloc(z_n), *q, *deflated;
	uint32_t a = 1, b = 0;
	FILE *f = fopen(path, "wb");

	if (!raw || !z || !f)
		die("cannot write", path);
	for (unsigned y = 0; y < img_h; y++) {
		raw[y * row] = 0;	// filter: none
		memcpy(raw + y * row + 1, img + (size_t)y * img_w * 3, (size_t)img_w * 3);
	}
	q = z;
	*q++ = 0x78;	// zlib: deflate, 32 KiB window (RFC 1950)
	size_t dn = gzip_deflate(raw, raw_n, &deflated);
	if (dn && dn <= raw_n) {
		*q++ = 0xda;	// maximum compression; 0x78da is a multiple of 31
		memcpy(q, deflated, dn);
		q += dn;
	} else {
		*q++ = 0x01;
		for (size_t off = 0; off < raw_n; off += 65535) {
			size_t n = raw_n - off < 65535 ? raw_n - off : 65535;
			*q++ = off + n == raw_n;	// final block?, stored
			*q++ = n & 0xff;
			*q++ = n >> 8;
			*q++ = ~n & 0xff;
			*q++ = (~n >> 8) & 0xff;
			memcpy(q, raw + off, n);
			q += n;
		}
	}
	free(deflated);
	for (size_t i = 0; i < raw_n; i++) {
		a = (a + raw[i]) % 65521;
		b = (b + a) % 65521;
	}
	put32(q, b << 16 | a);
	q += 4;
	uint8_t ihdr[13];
	put32(ihdr, img_w);
	put32(ihdr + 4, img_h);
	memcpy(ihdr + 8, (const uint8_t[5]){ 8, 2, 0, 0, 0 }, 5);	// 8-bit RGB
	fwrite("\x89PNG\r\n\x1a\n", 1, 8, f);
	chunk(f, "IHDR", ihdr, sizeof(ihdr));
	chunk(f, "IDAT", z, (size_t)(q - z));
	chunk(f, "IEND", NULL, 0);
	if (fclose(f) != 0)
		die("cannot write", path);
	free(raw);
	free(z);
}

static void trim(char *s)
{
	size_t n = strlen(s);
	while (n && s[n - 1] == ' ')
		s[--n] = '\0';
}

// ---- what the line log shows: lib/screen/grid.c's log, written anew.

static char screen_want[MAX_ROWS][MAX_COLS + 1];

// The log from the banner on (warnings before it too), CRs dropped.
static char *read_log(const char *path, size_t *n)
{
	static char buf[MAX_LOG + 1], out[MAX_LOG + 1];
	FILE *f = fopen(path, "rb");
	size_t len, k = 0;

	if (!f)
		die("cannot read", path);
	len = fread(buf, 1, MAX_LOG, f);
	fclose(f);
	buf[len] = '\0';
	for (size_t i = 0; i < len; i++)
		if (buf[i] != '\r')
			out[k++] = buf[i];
	out[k] = '\0';
	char *start = NULL;
	for (char *line = out; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (strncmp(line, "ramsift ", 8) == 0 && strstr(line, ": memory tester\n") ==
		    strchr(line, ':')) {
			start = line;
			break;
		}
	}
	if (!start)
		die("no banner in the log", path);
	// Warnings logged before the consoles existed come first on the screen.
	while (start > out) {
		char *prev = start - 1;
		while (prev > out && prev[-1] != '\n')
			prev--;
		if (strncmp(prev, "warning: ", 9) != 0)
			break;
		start = prev;
	}
	*n = strlen(start);
	return start;
}

// The rows a line log of cols x rows shows after the first n bytes of text.
static void simulate(const char *text, size_t n, unsigned cols, unsigned rows)
{
	static char all[MAX_ROWS * 4][MAX_COLS + 1];
	unsigned nall = 0, col = 0;

	memset(all[0], 0, sizeof(all[0]));
	for (size_t i = 0; i < n; i++) {
		if (text[i] == '\n' || col == cols) {
			nall++;
			if (nall == sizeof(all) / sizeof(all[0])) {	// keep the newest
				memmove(all, all[rows], sizeof(all[0]) * (nall - rows));
				nall -= rows;
			}
			memset(all[nall], 0, sizeof(all[0]));
			col = 0;
			if (text[i] == '\n')
				continue;
		}
		all[nall][col++] = text[i];
	}
	unsigned total = nall + 1, first = total > rows ? total - rows : 0;
	for (unsigned r = 0; r < rows; r++) {
		const char *src = first + r < total ? all[first + r] : "";
		snprintf(screen_want[r], sizeof(screen_want[r]), "%s", src);
		trim(screen_want[r]);
	}
}

// ---- reading the screen back

static char screen_got[MAX_ROWS][MAX_COLS + 1];

static const uint8_t *pixel(unsigned x, unsigned y)
{
	return img + ((size_t)y * img_w + x) * 3;
}

static int near(const uint8_t *p, int v)
{
	for (int c = 0; c < 3; c++)
		if (abs(p[c] - v) > TOLERANCE)
			return 0;
	return 1;
}

// The character in cell (col, row), '?' for a bitmap no printable glyph has;
// or -1 (with a message) for a pixel of a colour the log does not use or a
// scaled pixel of two colours.
// A log cell: each pixel the log's light grey or black (give or take what
// 15 and 16 bits a pixel round off), every SCALExSCALE block one colour, and
// the 8x16 bitmap the glyph of a printable ASCII character of
// lib/screen/font.h. (On vga: the character the log's, light grey on black.)
static int read_cell(unsigned col, unsigned row, unsigned scale)
{
	uint8_t bits[FONT_HEIGHT] = { 0 };
	unsigned x0 = col * FONT_WIDTH * scale, y0 = row * FONT_HEIGHT * scale;

	for (unsigned gy = 0; gy < FONT_HEIGHT; gy++)
		for (unsigned gx = 0; gx < FONT_WIDTH; gx++) {
			const uint8_t *first = pixel(x0 + gx * scale, y0 + gy * scale);
			int on = near(first, FG);
			if (!on && !near(first, 0)) {
				fprintf(stderr, "screencheck: pixel (%u,%u) in cell (%u,%u) is #%02x%02x%02x, "
					"neither the log's #aaaaaa nor black\n", x0 + gx * scale,
					y0 + gy * scale, col, row, first[0], first[1], first[2]);
				return -1;
			}
			for (unsigned sy = 0; sy < scale; sy++)
				for (unsigned sx = 0; sx < scale; sx++)
					if (memcmp(pixel(x0 + gx * scale + sx, y0 + gy * scale + sy), first, 3)) {
						fprintf(stderr, "screencheck: the %ux%u block at (%u,%u) is not "
							"one colour\n", scale, scale, x0 + gx * scale,
							y0 + gy * scale);
						return -1;
					}
			if (on)
				bits[gy] |= 0x80 >> gx;
		}
	for (int c = 0x20; c < 0x7f; c++)
		if (memcmp(bits, font_cp437[c], FONT_HEIGHT) == 0)
			return c;
	return '?';
}

static char printable(int c)
{
	if (c >= 0x20 && c < 0x7f)
		return (char)c;
	return c >= 0xdb && c <= 0xdf ? '#' : '?';
}

// The character in cell (col, row) in any two colours: ' ' for one colour,
// '?' for more than two or a bitmap no glyph has.
// With top=N, rows [0, N) are the status screen's (or the result panel's):
// read cell by cell in whatever two colours each cell has, matched against
// all 256 glyphs, and printed ("screencheck: row R: TEXT", a block element
// as '#', another character outside ASCII as '?'); rows [N, ROWS) must show
// the log as a line log of ROWS - N rows would (src/screen.c's
// screen_log_keep keeps that true when the status screen moves the log).
static char read_any_cell(unsigned col, unsigned row, unsigned scale)
{
	unsigned x0 = col * FONT_WIDTH * scale, y0 = row * FONT_HEIGHT * scale;
	const uint8_t *a = pixel(x0, y0), *b = NULL;
	uint8_t bits[FONT_HEIGHT] = { 0 };

	for (unsigned gy = 0; gy < FONT_HEIGHT; gy++)
		for (unsigned gx = 0; gx < FONT_WIDTH; gx++) {
			const uint8_t *p = pixel(x0 + gx * scale, y0 + gy * scale);
			if (memcmp(p, a, 3) == 0)
				continue;
			if (b && memcmp(p, b, 3))
				return '?';
			b = p;
			bits[gy] |= 0x80 >> gx;
		}
	if (!b)
		return ' ';
	for (int inv = 0; inv < 2; inv++) {
		for (int c = 0; c < 256; c++) {
			int ok = 1;
			for (unsigned gy = 0; gy < FONT_HEIGHT && ok; gy++)
				ok = (uint8_t)(inv ? ~bits[gy] : bits[gy]) == font_cp437[c][gy];
			if (ok)
				return printable(c);
		}
	}
	return '?';
}

static int compare(unsigned rows, int show)
{
	int ok = 1;
	for (unsigned r = 0; r < rows; r++)
		if (strcmp(screen_got[r], screen_want[r]) != 0)
			ok = 0;
	if (!ok && show) {
		fprintf(stderr, "screencheck: row: screen | expected from the log\n");
		for (unsigned r = 0; r < rows; r++)
			fprintf(stderr, "%c%3u: %s\n      %s\n", strcmp(screen_got[r], screen_want[r]) ? '!' : ' ',
				r, screen_got[r], screen_want[r]);
	}
	return ok;
}

// Match the screen against the log, or the log less its last line or two
// (or a part of its last line): the screen lags serial by at most that.
// The text read must be the log's last lines from the banner on, wrapped at
// COLS, the cursor's row last. The log may be cut while the screen lags it
// by a line (a shot taken while ramsift runs: serial gets each line first):
// the screen may match the log without its last line or two, or with a
// partial last line, and says which it matched.
static int match_log(const char *path, unsigned cols, unsigned rows)
{
	size_t n;
	const char *text = read_log(path, &n);
	size_t ends[4];
	unsigned nends = 0;
	const char *what[4] = { "the whole log", "the log less its last line",
				"the log less its last two lines", "the log less three lines" };

	ends[nends++] = n;
	for (size_t i = n; i > 0 && nends < 4; i--)
		if (text[i - 1] == '\n' && i < ends[nends - 1])
			ends[nends++] = i;
	for (unsigned k = 0; k < nends; k++) {
		simulate(text, ends[k], cols, rows);
		if (compare(rows, 0)) {
			printf("screencheck: the %ux%u screen shows %s\n", cols, rows, what[k]);
			return 0;
		}
		// A line half drawn: the next line's start on its row.
		size_t next_end = k ? ends[k - 1] : n;
		for (size_t cut = ends[k] + 1; cut < next_end; cut++) {
			simulate(text, cut, cols, rows);
			if (compare(rows, 0)) {
				printf("screencheck: the %ux%u screen shows %s and %zu bytes of the next\n",
				       cols, rows, what[k], cut - ends[k]);
				return 0;
			}
		}
	}
	simulate(text, n, cols, rows);
	compare(rows, 1);
	fprintf(stderr, "screencheck: the screen does not show the log's last lines\n");
	return 1;
}

static void parse_size(const char *s, unsigned *cols, unsigned *rows)
{
	if (sscanf(s, "%ux%u", cols, rows) != 2 || *cols == 0 || *rows == 0 || *cols > MAX_COLS ||
	    *rows > MAX_ROWS)
		die("bad COLSxROWS", s);
}

int main(int argc, char **argv)
{
	unsigned cols, rows;

	// top=N, wherever it is, then the arguments as without it.
	for (int i = 1; i < argc; i++)
		if (strncmp(argv[i], "top=", 4) == 0) {
			top = (unsigned)atoi(argv[i] + 4);
			for (int k = i; k < argc; k++)
				argv[k] = argv[k + 1];
			argc--;
			break;
		}

	if (argc == 4 && strcmp(argv[1], "png") == 0) {
		size_t lit = 0;
		read_ppm(argv[2]);
		write_png(argv[3]);
		for (size_t i = 0; i < (size_t)img_w * img_h; i++)
			lit += !near(img + 3 * i, 0);
		if (lit == 0) {
			fprintf(stderr, "screencheck: the %ux%u screendump is blank\n", img_w, img_h);
			return 1;
		}
		printf("screencheck: %ux%u, %zu pixels lit\n", img_w, img_h, lit);
		return 0;
	}
	if ((argc == 7 || argc == 8) && strcmp(argv[1], "fbraw") == 0) {
		// The framebuffer's own bytes: 32-bit xRGB, rows of WIDTH pixels.
		FILE *f = fopen(argv[2], "rb");
		if (!f || sscanf(argv[3], "%ux%u", &img_w, &img_h) != 2 || !img_w || !img_h ||
		    img_w > 16384 || img_h > 16384)
			die("bad framebuffer dump or size", argv[2]);
		img = malloc((size_t)img_w * img_h * 3);
		for (size_t i = 0; img && i < (size_t)img_w * img_h; i++) {
			uint8_t px[4];
			if (fread(px, 1, 4, f) != 4)
				die("truncated", argv[2]);
			img[3 * i] = px[2];
			img[3 * i + 1] = px[1];
			img[3 * i + 2] = px[0];
		}
		fclose(f);
		argv++;
		argc--;
		argv[1] = "fb";
	} else if ((argc == 6 || argc == 7) && strcmp(argv[1], "fb") == 0)
		read_ppm(argv[2]);
	if ((argc == 6 || argc == 7) && strcmp(argv[1], "fb") == 0) {
		unsigned scale = (unsigned)atoi(argv[4]);
		parse_size(argv[3], &cols, &rows);
		if (top >= rows)
			die("top= must be above the last row", argv[3]);
		if (scale < 1 || scale > 4 || cols * FONT_WIDTH * scale > img_w ||
		    rows * FONT_HEIGHT * scale > img_h)
			die("the text does not fit the screendump", argv[3]);
		if (argc == 7)
			write_png(argv[6]);
		unsigned ink = 0;
		for (unsigned r = 0; r < top && r < rows; r++) {
			char text[MAX_COLS + 1];
			for (unsigned c = 0; c < cols; c++) {
				text[c] = read_any_cell(c, r, scale);
				ink += text[c] != ' ';
			}
			text[cols] = '\0';
			trim(text);
			printf("screencheck: row %u: %s\n", r, text);
		}
		for (unsigned r = top; r < rows; r++) {
			for (unsigned c = 0; c < cols; c++) {
				int ch = read_cell(c, r, scale);
				if (ch < 0)
					return 1;
				screen_got[r - top][c] = (char)ch;
				ink += ch != ' ';
			}
			screen_got[r - top][cols] = '\0';
			trim(screen_got[r - top]);
		}
		// Right of and below the cells: black.
		for (unsigned y = 0; y < img_h; y++)
			for (unsigned x = y < rows * FONT_HEIGHT * scale ? cols * FONT_WIDTH * scale : 0;
			     x < img_w; x++)
				if (!near(pixel(x, y), 0)) {
					fprintf(stderr, "screencheck: pixel (%u,%u) outside the text is not black\n",
						x, y);
					return 1;
				}
		if (ink == 0) {
			fprintf(stderr, "screencheck: the screen is blank\n");
			return 1;
		}
		return match_log(argv[5], cols, rows - top);
	}
	if (argc == 5 && strcmp(argv[1], "vga") == 0) {
		FILE *f = fopen(argv[2], "rb");
		static uint8_t cells[MAX_ROWS * MAX_COLS * 2];
		parse_size(argv[3], &cols, &rows);
		if (top >= rows)
			die("top= must be above the last row", argv[3]);
		if (!f || fread(cells, 2, (size_t)cols * rows, f) != (size_t)cols * rows)
			die("cannot read the text buffer", argv[2]);
		fclose(f);
		for (unsigned r = 0; r < top && r < rows; r++) {
			char text[MAX_COLS + 1];
			for (unsigned c = 0; c < cols; c++)
				text[c] = printable(cells[2 * (r * cols + c)]);
			text[cols] = '\0';
			trim(text);
			printf("screencheck: row %u: %s\n", r, text);
		}
		for (unsigned r = top; r < rows; r++) {
			for (unsigned c = 0; c < cols; c++) {
				const uint8_t *cell = cells + 2 * (r * cols + c);
				if (cell[1] != 0x07) {
					fprintf(stderr, "screencheck: cell (%u,%u) has attribute 0x%02x, not "
						"light grey on black (0x07)\n", c, r, cell[1]);
					return 1;
				}
				screen_got[r - top][c] = (char)cell[0];
			}
			screen_got[r - top][cols] = '\0';
			trim(screen_got[r - top]);
		}
		return match_log(argv[4], cols, rows - top);
	}
	fprintf(stderr, "usage: screencheck fb SHOT.ppm COLSxROWS SCALE LOG [top=N] [PNG]\n"
			"       screencheck fbraw DUMP WxH COLSxROWS SCALE LOG [top=N] [PNG]\n"
			"       screencheck vga TEXT.bin COLSxROWS LOG [top=N]\n"
			"       screencheck png SHOT.ppm PNG\n");
	return 2;
}
