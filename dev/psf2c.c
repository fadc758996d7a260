// SPDX-License-Identifier: GPL-2.0-or-later
// Build-time font generator: reads an 8x16 (or with 8, 8x8) console font in
// PC Screen Font format (PSF 1 or 2, with a Unicode table, as Debian's
// console-setup-linux ships them) and writes the C table lib/screen/font.h
// declares: the glyphs of code page 437 in CP437 order, so that a grid
// cell's character byte means the same on a VGA text screen and on a
// framebuffer. Fails if a glyph ramsift's screens need is missing (printable
// ASCII, CP437 0xB0-0xDF); others fall back to U+FFFD or '?'. The block
// elements are drawn exactly (block_element), whatever the font has, so a QR
// code in half blocks has no gaps. A host program, run by mk/screen.mk.
//	psf2c FONT_NAME LICENCE_FILE [8] < FONT.psf > font.c
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GLYPH_H_MAX 16
#define MAX_GLYPHS 4096
#define MAX_FONT (4u << 20)

// Code page 437 to Unicode: the IBM PC's character set as the VGA BIOS font
// draws it, with the graphic symbols at 0x01-0x1f and 0x7f; 0x00 is blank.
static const uint16_t cp437[256] = {
	0x0020, 0x263a, 0x263b, 0x2665, 0x2666, 0x2663, 0x2660, 0x2022,
	0x25d8, 0x25cb, 0x25d9, 0x2642, 0x2640, 0x266a, 0x266b, 0x263c,
	0x25ba, 0x25c4, 0x2195, 0x203c, 0x00b6, 0x00a7, 0x25ac, 0x21a8,
	0x2191, 0x2193, 0x2192, 0x2190, 0x221f, 0x2194, 0x25b2, 0x25bc,
	0x0020, 0x0021, 0x0022, 0x0023, 0x0024, 0x0025, 0x0026, 0x0027,
	0x0028, 0x0029, 0x002a, 0x002b, 0x002c, 0x002d, 0x002e, 0x002f,
	0x0030, 0x0031, 0x0032, 0x0033, 0x0034, 0x0035, 0x0036, 0x0037,
	0x0038, 0x0039, 0x003a, 0x003b, 0x003c, 0x003d, 0x003e, 0x003f,
	0x0040, 0x0041, 0x0042, 0x0043, 0x0044, 0x0045, 0x0046, 0x0047,
	0x0048, 0x0049, 0x004a, 0x004b, 0x004c, 0x004d, 0x004e, 0x004f,
	0x0050, 0x0051, 0x0052, 0x0053, 0x0054, 0x0055, 0x0056, 0x0057,
	0x0058, 0x0059, 0x005a, 0x005b, 0x005c, 0x005d, 0x005e, 0x005f,
	0x0060, 0x0061, 0x0062, 0x0063, 0x0064, 0x0065, 0x0066, 0x0067,
	0x0068, 0x0069, 0x006a, 0x006b, 0x006c, 0x006d, 0x006e, 0x006f,
	0x0070, 0x0071, 0x0072, 0x0073, 0x0074, 0x0075, 0x0076, 0x0077,
	0x0078, 0x0079, 0x007a, 0x007b, 0x007c, 0x007d, 0x007e, 0x2302,
	0x00c7, 0x00fc, 0x00e9, 0x00e2, 0x00e4, 0x00e0, 0x00e5, 0x00e7,
	0x00ea, 0x00eb, 0x00e8, 0x00ef, 0x00ee, 0x00ec, 0x00c4, 0x00c5,
	0x00c9, 0x00e6, 0x00c6, 0x00f4, 0x00f6, 0x00f2, 0x00fb, 0x00f9,
	0x00ff, 0x00d6, 0x00dc, 0x00a2, 0x00a3, 0x00a5, 0x20a7, 0x0192,
	0x00e1, 0x00ed, 0x00f3, 0x00fa, 0x00f1, 0x00d1, 0x00aa, 0x00ba,
	0x00bf, 0x2310, 0x00ac, 0x00bd, 0x00bc, 0x00a1, 0x00ab, 0x00bb,
	0x2591, 0x2592, 0x2593, 0x2502, 0x2524, 0x2561, 0x2562, 0x2556,
	0x2555, 0x2563, 0x2551, 0x2557, 0x255d, 0x255c, 0x255b, 0x2510,
	0x2514, 0x2534, 0x252c, 0x251c, 0x2500, 0x253c, 0x255e, 0x255f,
	0x255a, 0x2554, 0x2569, 0x2566, 0x2560, 0x2550, 0x256c, 0x2567,
	0x2568, 0x2564, 0x2565, 0x2559, 0x2558, 0x2552, 0x2553, 0x256b,
	0x256a, 0x2518, 0x250c, 0x2588, 0x2584, 0x258c, 0x2590, 0x2580,
	0x03b1, 0x00df, 0x0393, 0x03c0, 0x03a3, 0x03c3, 0x00b5, 0x03c4,
	0x03a6, 0x0398, 0x03a9, 0x03b4, 0x221e, 0x03c6, 0x03b5, 0x2229,
	0x2261, 0x00b1, 0x2265, 0x2264, 0x2320, 0x2321, 0x00f7, 0x2248,
	0x00b0, 0x2219, 0x00b7, 0x221a, 0x207f, 0x00b2, 0x25a0, 0x00a0,
};

static unsigned glyph_h = 16;	// 16 or 8: the font's height
static uint8_t font[MAX_FONT];
static size_t font_len;
// For each Unicode code point of the Basic Multilingual Plane: its glyph + 1,
// 0 when the font has none.
static uint32_t glyph_of[0x10000];

static void die(const char *msg)
{
	fprintf(stderr, "psf2c: %s\n", msg);
	exit(1);
}

static uint32_t le32(size_t at)
{
	if (at + 4 > font_len)
		die("the font file is truncated");
	return font[at] | font[at + 1] << 8 | font[at + 2] << 16 | (uint32_t)font[at + 3] << 24;
}

static void map(uint32_t cp, uint32_t glyph)
{
	if (cp < 0x10000 && glyph_of[cp] == 0)
		glyph_of[cp] = glyph + 1;
}

// PSF 1: magic 36 04, mode, bytes per glyph; 256 or 512 glyphs 8 wide; the
// table: per glyph u16 code points, FFFE before sequences, FFFF at its end.
static size_t read_psf1(uint32_t *nglyphs)
{
	uint8_t mode = font[2];
	size_t at;

	if (font[3] != glyph_h)
		die("the font is not as high as asked");
	if (!(mode & 0x02))
		die("the font has no Unicode table");
	*nglyphs = mode & 0x01 ? 512 : 256;
	at = 4 + (size_t)*nglyphs * glyph_h;
	for (uint32_t g = 0; g < *nglyphs; g++) {
		int in_seq = 0;
		for (;;) {
			if (at + 2 > font_len)
				die("the Unicode table is truncated");
			uint16_t v = (uint16_t)(font[at] | font[at + 1] << 8);
			at += 2;
			if (v == 0xffff)
				break;
			if (v == 0xfffe)
				in_seq = 1;
			else if (!in_seq)
				map(v, g);
		}
	}
	return 4;
}

// PSF 2: a header of eight u32 (magic, version, header size, flags, glyphs,
// bytes per glyph, height, width); the table: per glyph UTF-8 code points,
// FE before sequences, FF at its end.
static size_t read_psf2(uint32_t *nglyphs)
{
	uint32_t hsize = le32(8), flags = le32(12), bytes = le32(20), h = le32(24), w = le32(28);
	size_t at;

	*nglyphs = le32(16);
	if (h != glyph_h || w != 8 || bytes != glyph_h)
		die("the font is not 8 wide and as high as asked");
	if (!(flags & 1))
		die("the font has no Unicode table");
	if (*nglyphs > MAX_GLYPHS)
		die("the font has too many glyphs");
	at = hsize + (size_t)*nglyphs * glyph_h;
	for (uint32_t g = 0; g < *nglyphs; g++) {
		int in_seq = 0;
		for (;;) {
			if (at >= font_len)
				die("the Unicode table is truncated");
			uint8_t c = font[at++];
			if (c == 0xff)
				break;
			if (c == 0xfe) {
				in_seq = 1;
				continue;
			}
			uint32_t cp = c, more = 0;
			if (c >= 0xf0) {
				cp = c & 0x07;
				more = 3;
			} else if (c >= 0xe0) {
				cp = c & 0x0f;
				more = 2;
			} else if (c >= 0xc0) {
				cp = c & 0x1f;
				more = 1;
			}
			for (; more; more--) {
				if (at >= font_len)
					die("the Unicode table is truncated");
				cp = cp << 6 | (font[at++] & 0x3f);
			}
			if (!in_seq)
				map(cp, g);
		}
	}
	return hsize;
}

// The block elements U+2580 (upper half), U+2584 (lower half), U+2588
// (full), U+258C (left half), U+2590 (right half): exact halves.
static void block_element(uint16_t cp, uint8_t rows[GLYPH_H_MAX])
{
	for (int r = 0; r < (int)glyph_h; r++) {
		switch (cp) {
		case 0x2580: rows[r] = r < (int)glyph_h / 2 ? 0xff : 0x00; break;
		case 0x2584: rows[r] = r < (int)glyph_h / 2 ? 0x00 : 0xff; break;
		case 0x2588: rows[r] = 0xff; break;
		case 0x258c: rows[r] = 0xf0; break;
		case 0x2590: rows[r] = 0x0f; break;
		}
	}
}

static void copy_licence(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];

	if (!f)
		die("cannot open the licence file");
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		printf("//%s%s\n", line[0] ? " " : "", line);
	}
	fclose(f);
}

int main(int argc, char **argv)
{
	uint32_t nglyphs;
	size_t glyphs_at;
	uint32_t fallback;
	int missing[256], nmissing = 0;

	if (argc == 4 && strcmp(argv[3], "8") == 0)
		glyph_h = 8;
	else if (argc != 3)
		die("usage: psf2c FONT_NAME LICENCE_FILE [8] < FONT.psf > font.c");
	font_len = fread(font, 1, sizeof(font), stdin);
	if (font_len < 32)
		die("no font on standard input");
	if (font[0] == 0x36 && font[1] == 0x04)
		glyphs_at = read_psf1(&nglyphs);
	else if (le32(0) == 0x864ab572)
		glyphs_at = read_psf2(&nglyphs);
	else
		die("not a PSF font (gunzip it first)");
	if (glyphs_at + (size_t)nglyphs * glyph_h > font_len)
		die("the glyphs are truncated");

	for (int c = 0x20; c < 0xe0; c++)
		if ((c < 0x7f || c >= 0xb0) && !glyph_of[cp437[c]]) {
			fprintf(stderr, "psf2c: the font has no glyph for CP437 0x%02x (U+%04X)\n", c, cp437[c]);
			die("a glyph ramsift's screens need is missing");
		}
	fallback = glyph_of[0xfffd] ? glyph_of[0xfffd] : glyph_of['?'];

	printf("// Generated by tools/psf2c from %s; do not edit.\n", argv[1]);
	printf("// The glyphs of code page 437, 8x%u pixels, in CP437 order (lib/screen/font.h);\n", glyph_h);
	printf("// the block elements 0xdb-0xdf drawn as exact halves.\n");
	printf("//\n// The font's licence:\n//\n");
	copy_licence(argv[2]);
	for (int c = 0; c < 256; c++)
		if (!glyph_of[cp437[c]])
			missing[nmissing++] = c;
	if (nmissing) {
		printf("//\n// Not in the font, drawn as %s:", glyph_of[0xfffd] ? "U+FFFD" : "'?'");
		for (int i = 0; i < nmissing; i++)
			printf("%s 0x%02x", i % 12 ? "" : "\n//  ", missing[i]);
		printf("\n");
	}
	printf("#include \"screen/font.h\"\n\n");
	printf("const uint8_t %s[256][%s] = {\n", glyph_h == 8 ? "font8_cp437" : "font_cp437",
	       glyph_h == 8 ? "FONT8_HEIGHT" : "FONT_HEIGHT");
	for (int c = 0; c < 256; c++) {
		uint32_t g = (glyph_of[cp437[c]] ? glyph_of[cp437[c]] : fallback) - 1;
		uint8_t rows[GLYPH_H_MAX];
		memcpy(rows, font + glyphs_at + (size_t)g * glyph_h, glyph_h);
		block_element(cp437[c], rows);
		printf("\t[0x%02x] = {", c);
		for (int r = 0; r < (int)glyph_h; r++)
			printf("%s0x%02x", r ? ", " : " ", rows[r]);
		printf(" },\n");
	}
	printf("};\n");
	return ferror(stdout) ? 1 : 0;
}
