// SPDX-License-Identifier: GPL-2.0-or-later
// The fuzz target of the QR encoder (lib/qr): any payload at any level,
// version and mask is encoded, and every symbol it returns is decoded by
// zbar (libzbar, the library behind zbarimg), which must give back the
// payload byte for byte; the status, version, level, mask and size are
// checked against qr.h (fail.h's FAIL_IF if not). The input format is above
// LLVMFuzzerTestOneInput. Built by clang with -fsanitize=fuzzer (make
// fuzz-qr), or by gcc with tests/fuzz/replay.c's main (make
// check-fuzz-corpus); both link -lzbar.
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zbar.h>

#include "qr/qr.h"
#include "fail.h"

#define QUIET	4	// modules of quiet zone (ISO/IEC 18004 7.3.7)
#define SCALE	2	// pixels a module

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t symbol[QR_BUFFER_LEN_MAX], work[QR_WORK_LEN_MAX];
static uint8_t pixels[(QR_SIZE(QR_VERSION_MAX) + 2 * QUIET) * SCALE * (QR_SIZE(QR_VERSION_MAX) + 2 * QUIET) * SCALE];

// The symbol as zbar reads it, an 8-bit grey image; true when it decodes
// to exactly payload[0..len).
static bool decodes_to(const uint8_t *payload, size_t len)
{
	static zbar_image_scanner_t *scanner;
	int side = (qr_size(symbol) + 2 * QUIET) * SCALE;

	if (!scanner) {
		scanner = zbar_image_scanner_create();
		zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0);
		zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1);
		zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_BINARY, 1);
	}
	// Each module's pixels, a SCALE x SCALE square (qr_module is light
	// outside the symbol: the quiet zone).
	for (int my = 0; my < side / SCALE; my++)
		for (int mx = 0; mx < side / SCALE; mx++) {
			uint8_t v = qr_module(symbol, mx - QUIET, my - QUIET) ? 0 : 255;
			for (int y = my * SCALE; y < (my + 1) * SCALE; y++)
				memset(pixels + y * side + mx * SCALE, v, SCALE);
		}
	zbar_image_t *img = zbar_image_create();
	zbar_image_set_format(img, zbar_fourcc('Y', '8', '0', '0'));
	zbar_image_set_size(img, (unsigned)side, (unsigned)side);
	zbar_image_set_data(img, pixels, (unsigned long)side * side, NULL);
	bool same = false;
	if (zbar_scan_image(scanner, img) == 1) {
		const zbar_symbol_t *s = zbar_image_first_symbol(img);
		same = zbar_symbol_get_type(s) == ZBAR_QRCODE && zbar_symbol_get_data_length(s) == len &&
		       memcmp(zbar_symbol_get_data(s), payload, len) == 0;
	}
	zbar_image_destroy(img);
	return same;
}

// An input is one control byte, then the payload:
//   bits 0-1  the level: L, M, Q, H;
//   bits 2-4  the mask forced (0-7) when bit 5 is set, else the encoder's
//             choice (QR_MASK_AUTO);
//   bits 6-7  the version: the smallest that fits (QR_VERSION_AUTO), that
//             one asked for explicitly, one larger, or one smaller (which
//             must be refused with QR_TOO_LONG).
// Checked besides the decode: QR_OK exactly when the payload fits the
// version, and qr_fit_version against qr_capacity.
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	uint8_t ctl = data[0];
	const uint8_t *payload = data + 1;
	size_t len = size - 1;
	enum qr_level level = (enum qr_level)(ctl & 3);
	int fit = qr_fit_version(len, level);
	int shift = (ctl >> 6) - 1;	// -1: auto; 0, 1, 2: fit, fit + 1, fit - 1
	struct qr_options opt = { level, QR_VERSION_AUTO, ctl & 0x20 ? (ctl >> 2) & 7 : QR_MASK_AUTO };

	FAIL_IF((fit != 0) != (qr_capacity(QR_VERSION_MAX, level) >= len) ||
		(fit != 0 && (qr_capacity(fit, level) < len || (fit > 1 && qr_capacity(fit - 1, level) >= len))));
	if (shift >= 0) {	// asked for; 40 when even 40 is too small
		int v = fit == 0 ? QR_VERSION_MAX : shift == 2 ? fit - 1 : fit + shift;
		if (v >= QR_VERSION_MIN && v <= QR_VERSION_MAX)
			opt.version = v;
	}
	enum qr_status st = qr_encode(payload, len, &opt, symbol, sizeof(symbol), work, sizeof(work));

	bool fits = fit != 0 && (opt.version == QR_VERSION_AUTO || opt.version >= fit);
	FAIL_IF((st == QR_OK) != fits || (!fits && st != QR_TOO_LONG));
	if (st != QR_OK)
		return 0;
	int version = opt.version == QR_VERSION_AUTO ? fit : opt.version;
	FAIL_IF(qr_version(symbol) != version || qr_level(symbol) != level || qr_size(symbol) != QR_SIZE(version) ||
		qr_mask(symbol) < 0 || qr_mask(symbol) > 7 || (opt.mask != QR_MASK_AUTO && qr_mask(symbol) != opt.mask));
	if (!decodes_to(payload, len)) {
		fprintf(stderr, "fuzz_qr: version %d level %d mask %d, %zu bytes: zbar does not decode the payload\n",
			version, level, qr_mask(symbol), len);
		abort();
	}
	return 0;
}
