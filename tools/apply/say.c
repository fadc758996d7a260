// SPDX-License-Identifier: GPL-2.0-or-later
// ramsift-apply's messages (apply.h): one line each on standard error,
// with the journal's priority prefix (sd-daemon(3)) when standard error is
// the journal, so that the unit's warning is a warning there.
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "apply.h"

// systemd sets JOURNAL_STREAM to "DEVICE:INODE" of the stream it connects;
// a child that redirected standard error keeps the variable, so the two
// must be compared (systemd.exec(5)).
static bool to_journal(void)
{
	static int known = -1;
	const char *v = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;

	if (known < 0)
		known = v && sscanf(v, "%llu:%llu", &dev, &ino) == 2 && fstat(2, &st) == 0 &&
			st.st_dev == dev && st.st_ino == ino;
	return known;
}

void say(enum level level, const char *fmt, ...)
{
	va_list ap;

	if (to_journal())
		fprintf(stderr, "<%d>", (int)level);
	fputs(level == LEVEL_WARNING ? "ramsift-apply: warning: " : "ramsift-apply: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
