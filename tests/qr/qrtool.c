// SPDX-License-Identifier: GPL-2.0-or-later
// Host side of `make check-qr` (tests/qr/check.sh): lib/qr's symbols as
// files that zbarimg and qrencode can be held against.
//	qrtool gen DIR SEED COUNT
//	qrtool compare PAYLOAD LEVEL ASCII
// Each mode is described above its function (gen, compare).
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memtest/prng.h"
#include "qr/qr.h"

#define MAX_PAYLOAD 2900        // the issue's longest payload
#define SCALE 4                 // pixels a module
#define QUIET 4                 // modules of quiet zone (7.3.7)

static const char level_name[QR_LEVEL_COUNT] = { 'L', 'M', 'Q', 'H' };

static uint8_t symbol[QR_BUFFER_LEN_MAX];
static uint8_t work[QR_WORK_LEN_MAX];

static void die(const char *what, const char *detail)
{
	fprintf(stderr, "qrtool: %s%s%s\n", what, detail ? ": " : "",
		detail ? detail : "");
	exit(2);
}

static void encode(const uint8_t *data, size_t len, enum qr_level level,
		   int version, int mask)
{
	struct qr_options opt = { .level = level, .version = version, .mask = mask };
	enum qr_status s = qr_encode(data, len, &opt, symbol, sizeof(symbol),
				     work, sizeof(work));

	if (s != QR_OK) {
		fprintf(stderr, "qrtool: qr_encode(%zu bytes, %c, version %d, mask %d) = %d\n",
			len, level_name[level], version, mask, (int)s);
		exit(2);
	}
}

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0)
		die("cannot write", path);
}

// The symbol as a binary PGM (P5): dark modules 0, light 255.
static void write_pgm(const char *path)
{
	int size = qr_size(symbol);
	int side = (size + 2 * QUIET) * SCALE;
	FILE *f = fopen(path, "wb");

	if (!f)
		die("cannot write", path);
	fprintf(f, "P5\n%d %d\n255\n", side, side);
	for (int py = 0; py < side; py++) {
		for (int px = 0; px < side; px++) {
			bool dark = qr_module(symbol, px / SCALE - QUIET, py / SCALE - QUIET);

			fputc(dark ? 0 : 255, f);
		}
	}
	if (fclose(f) != 0)
		die("cannot write", path);
}

// gen: COUNT seeded payloads, cycling through the four levels and the 40
// versions (each length drawn so that the smallest fitting version is the
// one intended, at most 2900 bytes); every fifth payload is binary (any
// byte), the others printable ASCII. Writes DIR/<id>.bin (the payload) and
// DIR/<id>.pgm (the symbol, 4 pixels a module, a 4-module quiet zone) and
// prints "<id> <text|binary> <level> <version> <mask> <length>" per payload.
static void gen(const char *dir, uint64_t seed, int count)
{
	struct prng rng;
	static uint8_t payload[MAX_PAYLOAD];
	char path[4096];

	prng_seed(&rng, seed);
	for (int id = 0; id < count; id++) {
		enum qr_level level = (enum qr_level)(id % QR_LEVEL_COUNT);
		int version = id / QR_LEVEL_COUNT % QR_VERSION_MAX + 1;
		size_t lo = version == 1 ? 1 : qr_capacity(version - 1, level) + 1;
		size_t hi = qr_capacity(version, level);
		bool binary = id % 5 == 4;

		if (hi > MAX_PAYLOAD)
			hi = MAX_PAYLOAD;
		// The ends of the range now and then: a full symbol, one byte.
		size_t len = id % 7 == 0 ? hi : lo + prng_next(&rng) % (hi - lo + 1);
		for (size_t i = 0; i < len; i++) {
			uint64_t r = prng_next(&rng);

			payload[i] = binary ? (uint8_t)r : (uint8_t)(' ' + r % 95);
		}
		encode(payload, len, level, QR_VERSION_AUTO, QR_MASK_AUTO);
		if (qr_version(symbol) != version)
			die("a payload did not get its intended version", NULL);
		snprintf(path, sizeof(path), "%s/%03d.bin", dir, id);
		write_file(path, payload, len);
		snprintf(path, sizeof(path), "%s/%03d.pgm", dir, id);
		write_pgm(path);
		printf("%03d %s %c %d %d %zu\n", id, binary ? "binary" : "text",
		       level_name[level], version, qr_mask(symbol), len);
	}
}

static size_t read_file(const char *path, uint8_t *buf, size_t max)
{
	FILE *f = fopen(path, "rb");

	if (!f)
		die("cannot read", path);
	size_t n = fread(buf, 1, max, f);
	if (ferror(f) || fgetc(f) != EOF)
		die("unreadable or too long", path);
	fclose(f);
	return n;
}

// qrencode's matrix: one line per row, "##" a dark module, "  " a light one.
static uint8_t theirs[177][177];

static int read_ascii(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[2 * 177 + 3];
	int width = 0, rows = 0;

	if (!f)
		die("cannot read", path);
	while (fgets(line, sizeof(line), f)) {
		int n = (int)strcspn(line, "\n");

		if (rows == 0)
			width = n / 2;
		if (n != 2 * width || width > 177 || rows >= width)
			die("not a square qrencode ASCII matrix", path);
		for (int x = 0; x < width; x++)
			theirs[rows][x] = line[2 * x] == '#';
		rows++;
	}
	fclose(f);
	if (rows != width || width < 21 || (width - 17) % 4 != 0)
		die("qrencode ASCII matrix of no QR size", path);
	return width;
}

// qrencode's mask, from the copy of the format information around its
// upper-left finder (7.9.1: bits 0-7 down column 8 and bits 8-14 left along
// row 8, each skipping the timing pattern).
static int their_mask(enum qr_level level)
{
	static const int level_bits[QR_LEVEL_COUNT] = { 1, 0, 3, 2 };
	unsigned bits = 0;

	for (int i = 0; i < 15; i++) {
		int x = i < 8 ? 8 : (i == 8 ? 7 : 14 - i);
		int y = i < 6 ? i : (i < 8 ? i + 1 : 8);

		bits |= (unsigned)theirs[y][x] << i;
	}
	bits ^= 0x5412;
	if ((int)(bits >> 13) != level_bits[level])
		die("qrencode's format information names another level", NULL);
	return (int)(bits >> 10 & 7);
}

// Dark modules of the symbol.
static int dark_modules(void)
{
	int size = qr_size(symbol), dark = 0;

	for (int y = 0; y < size; y++) {
		for (int x = 0; x < size; x++)
			dark += qr_module(symbol, x, y);
	}
	return dark;
}

// True when the symbol's N4 (10 per 5 % step of the dark share away from 50
// %) differs between the standard's exact share and libqrencode's, which
// rounds the share to a whole percent first.
static bool n4_rounds_apart(void)
{
	int total = qr_size(symbol) * qr_size(symbol);
	int dark = dark_modules();
	int exact = abs(20 * dark - 10 * total) / total;
	int percent = (200 * dark + total) / total / 2;

	return exact != abs(percent - 50) / 5;
}

// compare: ASCII is qrencode's `-t ASCII -m 0` matrix of PAYLOAD at LEVEL
// (L/M/Q/H). Reads qrencode's version (its size) and mask (its format
// information), encodes PAYLOAD at that version, level and mask and compares
// every module; also encodes with the mask lib/qr chooses. Prints "<version>
// <level> <qrencode's mask> <lib/qr's mask> <same|differ>", and when the
// masks differ "n4-rounding" if libqrencode's rounding of the dark share
// changes N4 for either mask, else "unexplained". Exits 0 when the
// forced-mask matrices are identical.
static int compare(const char *payload_path, const char *level_arg,
		   const char *ascii_path)
{
	static uint8_t payload[QR_BUFFER_LEN_MAX];
	const char *l = strchr("LMQH", level_arg[0]);

	if (!l || level_arg[0] == '\0' || level_arg[1] != '\0')
		die("level is one of L, M, Q, H", level_arg);
	enum qr_level level = (enum qr_level)(l - "LMQH");
	size_t len = read_file(payload_path, payload, sizeof(payload));
	int size = read_ascii(ascii_path);
	int version = (size - 17) / 4;
	int mask = their_mask(level);

	encode(payload, len, level, QR_VERSION_AUTO, QR_MASK_AUTO);
	int ours = qr_mask(symbol);
	bool rounding = n4_rounds_apart();
	encode(payload, len, level, version, mask);
	rounding = rounding || n4_rounds_apart();
	int differ = 0;
	for (int y = 0; y < size; y++) {
		for (int x = 0; x < size; x++)
			differ += qr_module(symbol, x, y) != theirs[y][x];
	}
	printf("%d %c %d %d %s", version, level_name[level], mask, ours,
	       differ ? "differ" : "same");
	if (ours != mask)
		printf(" %s", rounding ? "n4-rounding" : "unexplained");
	printf("\n");
	return differ ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && strcmp(argv[1], "gen") == 0) {
		char *end;

		errno = 0;
		uint64_t seed = strtoull(argv[3], &end, 0);
		int count = atoi(argv[4]);
		if (errno || *end || count <= 0)
			die("usage: qrtool gen DIR SEED COUNT", NULL);
		gen(argv[2], seed, count);
		return 0;
	}
	if (argc == 5 && strcmp(argv[1], "compare") == 0)
		return compare(argv[2], argv[3], argv[4]);
	fprintf(stderr, "usage: qrtool gen DIR SEED COUNT\n"
			"       qrtool compare PAYLOAD LEVEL ASCII\n");
	return 2;
}
