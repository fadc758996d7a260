// SPDX-License-Identifier: GPL-2.0-or-later
// The standard's per-version numbers (tables.h). The codeword counts follow
// from the symbol's geometry; only the error-correction split (Table 9) and
// one alignment spacing (version 32) are looked up.
#include "qr/tables.h"

// Table 9, one row per level (L, M, Q, H), one column per version 1-40.
static const uint8_t ec_per_block[QR_LEVEL_COUNT][QR_VERSION_MAX] = {
	{  7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28,
	  28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30 },
	{ 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
	  26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28 },
	{ 13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30,
	  28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30 },
	{ 17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28,
	  30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30 },
};

static const uint8_t block_count[QR_LEVEL_COUNT][QR_VERSION_MAX] = {
	{  1,  1,  1,  1,  1,  2,  2,  2,  2,  4,  4,  4,  4,  4,  6,  6,  6,  6,  7,  8,
	   8,  9,  9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25 },
	{  1,  1,  1,  2,  2,  4,  4,  4,  5,  5,  5,  8,  9,  9, 10, 10, 11, 13, 14, 16,
	  17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49 },
	{  1,  1,  2,  2,  4,  4,  6,  6,  8,  8,  8, 10, 12, 16, 12, 17, 16, 18, 21, 20,
	  23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68 },
	{  1,  1,  2,  4,  4,  4,  5,  6,  8,  8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25,
	  25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81 },
};

int qr_alignment_centres(int version, uint8_t pos[QR_ALIGN_MAX])
{
	if (version < 2)
		return 0;
	int n = version / 7 + 2;
	int last = QR_SIZE(version) - 7;
	// Annex E spaces the centres evenly back from the last one, by the
	// smallest even step that reaches column 6 in n - 1 steps; the first
	// gap takes what is left. Version 32 alone uses 26 where that rule
	// gives 28.
	int span = last - 6;
	int step = version == 32 ? 26 : 2 * ((span + 2 * (n - 1) - 1) / (2 * (n - 1)));

	pos[0] = 6;
	for (int i = n - 1; i >= 1; i--)
		pos[i] = (uint8_t)(last - (n - 1 - i) * step);
	return n;
}

int qr_data_modules(int version)
{
	int size = QR_SIZE(version);
	// Three finders with their separators (8x8 each), the two timing
	// lines between them, both copies of the format information (15
	// bits each) and the dark module beside the lower one.
	int function = 3 * 64 + 2 * (size - 16) + 2 * 15 + 1;

	if (version >= 2) {
		int n = version / 7 + 2;
		// n*n - 3 alignment patterns (none on the finders); the
		// 2(n - 2) on a timing line share 5 modules with it.
		function += 25 * (n * n - 3) - 5 * 2 * (n - 2);
	}
	if (version >= 7)
		function += 2 * 18;     // both copies of the version information
	return size * size - function;
}

int qr_total_codewords(int version)
{
	return qr_data_modules(version) / 8;
}

int qr_block_count(int version, enum qr_level level)
{
	return block_count[level][version - 1];
}

int qr_ec_per_block(int version, enum qr_level level)
{
	return ec_per_block[level][version - 1];
}

int qr_data_codewords(int version, enum qr_level level)
{
	return qr_total_codewords(version) -
	       qr_block_count(version, level) * qr_ec_per_block(version, level);
}

int qr_count_bits(int version)
{
	return version <= 9 ? 8 : 16;
}
