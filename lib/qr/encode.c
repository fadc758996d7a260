// SPDX-License-Identifier: GPL-2.0-or-later
// The encoder's top level (qr.h): the payload becomes one byte-mode segment
// and padding (7.4), split into blocks that each get their Reed-Solomon
// codewords and are interleaved (7.6), placed in the grid, masked (7.8) and
// labelled with the format information. The data codewords are built in the
// symbol buffer, which is free until the grid is drawn; work receives the
// interleaved codewords, and once they are placed the map of the function
// modules, which the masks leave alone.
#include "qr/qr.h"
#include "qr/mask.h"
#include "qr/matrix.h"
#include "qr/rs.h"
#include "memstr.h"
#include "qr/tables.h"

#define MODE_BYTE 0x4   // Table 2: mode indicator 0100
#define PAD_EVEN 0xec   // 7.4.10: pad codewords, alternating
#define PAD_ODD 0x11

static bool level_ok(enum qr_level level)
{
	return (unsigned)level < QR_LEVEL_COUNT;
}

size_t qr_capacity(int version, enum qr_level level)
{
	if (version < QR_VERSION_MIN || version > QR_VERSION_MAX || !level_ok(level))
		return 0;
	int bits = qr_data_codewords(version, level) * 8 - 4 - qr_count_bits(version);

	return (size_t)bits / 8;
}

int qr_fit_version(size_t len, enum qr_level level)
{
	for (int v = QR_VERSION_MIN; v <= QR_VERSION_MAX; v++) {
		if (len <= qr_capacity(v, level))
			return v;
	}
	return 0;
}

// Append the low n bits of value, most significant first, to out, which is
// zeroed past *pos.
static void put_bits(uint8_t *out, int *pos, uint32_t value, int n)
{
	for (int i = n - 1; i >= 0; i--, (*pos)++) {
		if (value >> i & 1)
			out[*pos >> 3] |= (uint8_t)(0x80 >> (*pos & 7));
	}
}

// The data codewords (7.4): mode, count, the bytes, terminator, padding.
static void write_data_codewords(const uint8_t *data, size_t len, int version,
				 enum qr_level level, uint8_t *out)
{
	int count = qr_data_codewords(version, level);
	int pos = 0;

	mem_set(out, 0, (size_t)count);
	put_bits(out, &pos, MODE_BYTE, 4);
	put_bits(out, &pos, (uint32_t)len, qr_count_bits(version));
	for (size_t i = 0; i < len; i++)
		put_bits(out, &pos, data[i], 8);
	// Up to four zero bits of terminator, then zeros to the byte boundary
	// (the buffer is zeroed already).
	int room = count * 8 - pos;
	pos += room < 4 ? room : 4;
	for (int i = (pos + 7) / 8; i < count; i++)
		out[i] = (i - (pos + 7) / 8) % 2 == 0 ? PAD_EVEN : PAD_ODD;
}

// Split data into blocks, compute each block's error correction, and write
// all codewords interleaved (7.6): the first data codeword of every block,
// then the second..., then the error-correction codewords likewise. The
// shorter blocks come first and have one data codeword less (Table 9).
static void interleave_with_ec(const uint8_t *data, int version,
			       enum qr_level level, uint8_t *out)
{
	int blocks = qr_block_count(version, level);
	int ec_len = qr_ec_per_block(version, level);
	int data_len = qr_data_codewords(version, level);
	int short_len = data_len / blocks;
	int short_blocks = blocks - data_len % blocks;
	uint8_t gen[QR_EC_PER_BLOCK_MAX];
	uint8_t ec[QR_EC_PER_BLOCK_MAX];

	qr_rs_generator(ec_len, gen);
	const uint8_t *block = data;
	for (int b = 0; b < blocks; b++) {
		int len = short_len + (b >= short_blocks);

		for (int i = 0; i < short_len; i++)
			out[i * blocks + b] = block[i];
		if (len > short_len)    // the extra codeword of a long block
			out[short_len * blocks + b - short_blocks] = block[short_len];
		qr_rs_remainder(block, (size_t)len, gen, ec_len, ec);
		for (int i = 0; i < ec_len; i++)
			out[data_len + i * blocks + b] = ec[i];
		block += len;
	}
}

// The mask with the lowest penalty, the first of equals.
static int best_mask(struct qr_grid *g, enum qr_level level, const uint8_t *function_map)
{
	int best = 0, best_score = 0;

	for (int mask = 0; mask < 8; mask++) {
		qr_apply_mask(g, mask, function_map);
		qr_draw_format(g, level, mask);
		int score = qr_penalty(g);
		qr_apply_mask(g, mask, function_map);
		if (mask == 0 || score < best_score) {
			best = mask;
			best_score = score;
		}
	}
	return best;
}

enum qr_status qr_encode(const uint8_t *data, size_t len,
			 const struct qr_options *opt,
			 uint8_t *qr, size_t qr_len,
			 uint8_t *work, size_t work_len)
{
	enum qr_level level = opt->level;
	int version = opt->version;

	if (!level_ok(level) || opt->mask < QR_MASK_AUTO || opt->mask > 7 ||
	    version < QR_VERSION_AUTO || version > QR_VERSION_MAX)
		return QR_BAD_OPTION;
	if (version == QR_VERSION_AUTO)
		version = qr_fit_version(len, level);
	if (version == 0 || len > qr_capacity(version, level))
		return QR_TOO_LONG;
	if (qr_len < (size_t)QR_BUFFER_LEN(version) ||
	    work_len < (size_t)QR_WORK_LEN(version))
		return QR_BUFFER_TOO_SMALL;

	uint8_t *grid_bits = qr + QR_HEADER_LEN;
	write_data_codewords(data, len, version, level, grid_bits);
	interleave_with_ec(grid_bits, version, level, work);

	struct qr_grid g;
	qr_grid_init(&g, grid_bits, version);
	qr_draw_function_patterns(&g);
	qr_place_codewords(&g, work, qr_total_codewords(version));
	qr_function_map(&g, work);	// the codewords are placed: work is free
	int mask = opt->mask == QR_MASK_AUTO ? best_mask(&g, level, work) : opt->mask;
	qr_apply_mask(&g, mask, work);
	qr_draw_format(&g, level, mask);
	qr[0] = (uint8_t)version;
	qr[1] = (uint8_t)level;
	qr[2] = (uint8_t)mask;
	return QR_OK;
}

int qr_version(const uint8_t *qr)
{
	return qr[0];
}

int qr_size(const uint8_t *qr)
{
	return QR_SIZE(qr[0]);
}

enum qr_level qr_level(const uint8_t *qr)
{
	return (enum qr_level)qr[1];
}

int qr_mask(const uint8_t *qr)
{
	return qr[2];
}

bool qr_module(const uint8_t *qr, int x, int y)
{
	int size = qr_size(qr);

	if (x < 0 || y < 0 || x >= size || y >= size)
		return false;
	return qr_bits_get(qr + QR_HEADER_LEN, size, x, y);
}
