// SPDX-License-Identifier: GPL-2.0-or-later
// A record's lines for a person (record.h): the run's result line, as the
// run printed it, and its date.
#include "fmt.h"
#include "record/record.h"

int record_result_line(char *buf, size_t len, const struct record *r)
{
	struct result_fields f = {
		.result = r->result, .passes = r->passes, .errors = r->errors,
		.tested_bytes = r->tested_bytes, .usable_bytes = r->usable_bytes,
		.elapsed_ms = r->elapsed_ms, .version = r->version,
	};

	return status_line_result_fields(buf, len, &f);
}

int record_date_text(char *buf, size_t len, const struct record_date *d)
{
	if (!record_date_valid(d))
		return fmt_snprintf(buf, len, "an unknown date");
	return fmt_snprintf(buf, len, "%04u-%02u-%02u %02u:%02u:%02u UTC", d->year, d->month, d->day,
			    d->hour, d->minute, d->second);
}
