// SPDX-License-Identifier: GPL-2.0-or-later
// The line log: one formatted line per call to every console. Warnings and
// errors carry a prefix a script can grep; plain lines carry none, so lines
// the output contract fixes ("ERROR addr=...", "ramsift: result=...") start
// exactly as documented.
#ifndef RAMSIFT_SRC_LOG_H
#define RAMSIFT_SRC_LOG_H

// The longest line log_info, log_warn and log_error print, the '\n' included.
#define LOG_LINE_MAX 512

// Print one line (a '\n' is appended). A longer line than LOG_LINE_MAX is
// cut and ends in " [line cut]".
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
// As log_info, prefixed "warning: ".
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
// As log_info, prefixed "error: ".
void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

// Print prefix then text as one line of any length, unformatted (the BadRAM
// lines can be thousands of characters).
void log_text(const char *prefix, const char *text);

#endif
