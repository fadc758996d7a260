// SPDX-License-Identifier: GPL-2.0-or-later
// Formats each log line into a stack buffer, then hands the whole line to the
// consoles in one call so concurrent CPUs cannot interleave inside it.
#include <stdarg.h>

#include "console.h"
#include "fmt.h"
#include "log.h"
#include "memstr.h"

#define LINE_MAX LOG_LINE_MAX
#define CUT_MARK " [line cut]"

static void log_line(const char *prefix, const char *fmt, va_list ap)
{
	char line[LINE_MAX + 1];
	int n = fmt_snprintf(line, sizeof(line), "%s", prefix);
	n += fmt_vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	if (n > LINE_MAX - 1) {
		// The end says the line was cut, never a silently shorter one.
		n = LINE_MAX - 1;
		mem_copy(line + n - (sizeof(CUT_MARK) - 1), CUT_MARK, sizeof(CUT_MARK) - 1);
	}
	line[n++] = '\n';
	console_write(line, (size_t)n);
}

void log_text(const char *prefix, const char *text)
{
	// Three writes: on SMP another CPU's line could fall in between, but
	// these lines are printed by the BSP alone, after the tests.
	console_write(prefix, str_len(prefix));
	console_write(text, str_len(text));
	console_write("\n", 1);
}

void log_info(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	log_line("", fmt, ap);
	va_end(ap);
}

void log_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	log_line("warning: ", fmt, ap);
	va_end(ap);
}

void log_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	log_line("error: ", fmt, ap);
	va_end(ap);
}
