// SPDX-License-Identifier: GPL-2.0-or-later
// A printf subset that writes through a caller-supplied sink, so the same
// formatter feeds the serial port, the screen and fixed buffers. Integer only:
// the image is built with -mgeneral-regs-only, so there is no %f; human-
// readable sizes come from fmt_size() instead.
#ifndef RAMSIFT_LIB_FMT_H
#define RAMSIFT_LIB_FMT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

// Receives each piece of formatted output: n bytes at s (not NUL-terminated;
// n > 0; a %c of '\0' is passed through as one byte). ctx is the caller's.
typedef void (*fmt_sink)(void *ctx, const char *s, size_t n);

// Format fmt with the arguments in ap and hand the output to sink in pieces.
// Supported, with the same meaning as C99 printf:
//   conversions  %d %i %u %x %X %p %s %c %%
//   flags        '-' '0' '+' ' ' '#' (# only changes %x/%X: 0x/0X before a
//                non-zero value)
//   width        decimal or '*' (a negative '*' width means '-' and |width|)
//   precision    '.' decimal or '.*' (negative means none): minimum digits for
//                integers (".0" with 0 prints no digits), maximum bytes for %s
//   length       hh h l ll z j t on %d %i %u %x %X
// Differences from glibc: %p prints "0x" and lower-case hex (0x0 for NULL);
// %s of NULL prints "(null)", cut by the precision like any string. Anything
// else (an unknown conversion, %n, a lone trailing '%') is copied to the
// output literally and consumes no argument. Returns the number of bytes
// handed to sink, saturated at INT_MAX.
int fmt_vformat(fmt_sink sink, void *ctx, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

// fmt_vformat with the arguments inline.
int fmt_format(fmt_sink sink, void *ctx, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

// Format into buf of size bytes (C99 vsnprintf semantics): writes at most
// size - 1 bytes and always a terminating NUL when size > 0; buf may be NULL
// when size == 0. Returns the length the full output would have had (not
// counting the NUL), so a result >= size means it was truncated.
int fmt_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

// fmt_vsnprintf with the arguments inline.
int fmt_snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

// A text built piece by piece in a fixed buffer (the fold's lines, the
// diagnosis): each piece is appended at the length so far, cut at the
// buffer's end, and the buffer stays NUL-terminated. used counts every byte
// the whole text needs, so used >= size means it was cut, as a result of
// fmt_snprintf >= size does.
struct fmt_text {
	char *buf;
	size_t size;		// bytes of buf, the NUL's included (0: count only)
	size_t used;		// bytes the whole text needs so far, without the NUL
};

// An empty text in buf[0..size) (buf may be NULL when size == 0).
struct fmt_text fmt_text_start(char *buf, size_t size);

// Append fmt, formatted with the arguments, to t.
void fmt_text_put(struct fmt_text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

// Buffer size for fmt_size(): the longest result is "1023.9 PiB" plus NUL.
#define FMT_SIZE_LEN 16

// Write bytes as a human size in the largest binary unit (B, KiB, MiB, GiB,
// TiB, PiB, EiB) in which the value is >= 1: "0 B", "512 B", "4 KiB",
// "1.5 GiB". The number is an integer when the size is an exact multiple of
// the unit, otherwise it has one decimal digit, truncated so it never claims
// more than there is (1 GiB + 1 byte is "1.0 GiB"). Returns buf.
const char *fmt_size(char buf[FMT_SIZE_LEN], uint64_t bytes);

#endif
