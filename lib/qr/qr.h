// SPDX-License-Identifier: GPL-2.0-or-later
// A QR code encoder (ISO/IEC 18004:2015, "the standard" in lib/qr/): byte
// mode only, versions 1-40, error-correction levels L, M, Q and H, Reed-
// Solomon over GF(256), the eight data masks chosen by the standard's penalty
// score (7.8.3), format and version information. Freestanding like all of
// lib/: no globals, no allocation; the caller hands over two buffers sized by
// the macros below (at most QR_BUFFER_LEN_MAX and QR_WORK_LEN_MAX bytes, about
// 4 KiB each, too big for an image stack: put them in static or working
// memory). The encoded symbol lives in the first buffer and is read back one
// module at a time with qr_module(); drawing it (quiet zone, pixels per
// module) is the caller's business. A version-40 symbol takes about 20 ms
// on one host core at -O2, four fifths of it scoring the eight masks (a
// forced mask skips that).
#ifndef RAMSIFT_LIB_QR_QR_H
#define RAMSIFT_LIB_QR_QR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define QR_VERSION_MIN 1
#define QR_VERSION_MAX 40
#define QR_VERSION_AUTO 0       // qr_options.version: the smallest that fits
#define QR_MASK_AUTO (-1)       // qr_options.mask: the lowest penalty score

// Modules on a side of a symbol of the given version (21 to 177).
#define QR_SIZE(version) (4 * (version) + 17)

// Bytes of the symbol buffer for a version: a small header (version, level,
// mask) and one bit per module, row by row.
#define QR_HEADER_LEN 3
#define QR_BUFFER_LEN(version) \
	(QR_HEADER_LEN + (QR_SIZE(version) * QR_SIZE(version) + 7) / 8)
#define QR_BUFFER_LEN_MAX QR_BUFFER_LEN(QR_VERSION_MAX)

// Bytes of the scratch buffer for a version: one bit per module, which holds
// every codeword (a symbol has fewer codewords than modules / 8) and then
// the map of the modules no mask touches.
#define QR_WORK_LEN(version) ((QR_SIZE(version) * QR_SIZE(version) + 7) / 8)
#define QR_WORK_LEN_MAX QR_WORK_LEN(QR_VERSION_MAX)

// Error-correction levels, in the order of the standard's recovery capacity
// (about 7, 15, 25 and 30 % of the codewords).
enum qr_level {
	QR_LEVEL_L,
	QR_LEVEL_M,
	QR_LEVEL_Q,
	QR_LEVEL_H,
};
#define QR_LEVEL_COUNT 4

enum qr_status {
	QR_OK,
	QR_TOO_LONG,            // the payload does not fit the version asked
	                        // for, or with QR_VERSION_AUTO not even 40
	QR_BAD_OPTION,          // level, version or mask out of range
	QR_BUFFER_TOO_SMALL,    // qr_len or work_len below the chosen version's
};

struct qr_options {
	enum qr_level level;
	int version;            // 1-40, or QR_VERSION_AUTO
	int mask;               // 0-7 forces that mask, or QR_MASK_AUTO
};

// Bytes a symbol of version (1-40) at level holds in byte mode, e.g. 17 for
// 1-L and 2953 for 40-L. 0 for a version or level out of range.
size_t qr_capacity(int version, enum qr_level level);

// The smallest version whose symbol at level holds len bytes in byte mode,
// or 0 when not even version 40 does (or level is out of range).
int qr_fit_version(size_t len, enum qr_level level);

// Encode the len bytes at data in byte mode as a QR symbol with the options
// in opt. qr receives the symbol and must hold QR_BUFFER_LEN(version) bytes
// (qr_len says how many it holds); work is scratch of QR_WORK_LEN(version)
// bytes (work_len), for the version chosen. The buffers must not overlap;
// data may be NULL when len is 0. Returns QR_OK, or the first problem found,
// in which case qr holds no symbol.
enum qr_status qr_encode(const uint8_t *data, size_t len,
			 const struct qr_options *opt,
			 uint8_t *qr, size_t qr_len,
			 uint8_t *work, size_t work_len);

// Accessors of a symbol that qr_encode() returned QR_OK for.
int qr_version(const uint8_t *qr);
int qr_size(const uint8_t *qr);                 // QR_SIZE(qr_version(qr))
enum qr_level qr_level(const uint8_t *qr);
int qr_mask(const uint8_t *qr);                 // 0-7, the one applied

// True when the module in column x, row y (0 at the top-left) is dark.
// Anything outside the symbol (the quiet zone) is light: false.
bool qr_module(const uint8_t *qr, int x, int y);

#endif
