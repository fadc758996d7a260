// SPDX-License-Identifier: GPL-2.0-or-later
// The run-status model and its lines (see status.h). The line texts are the
// output contract's (docs/output-contract.md): change them only by adding.
#include "const.h"
#include "fmt.h"
#include "run/status.h"
#include "memstr.h"

static const char *own(const struct job_status *j)
{
	return j->own_memory ? " own-memory" : "";
}

void status_job_begin(struct job_status *j, const struct job_start *b)
{
	*j = (struct job_status){
		.test = b->test, .pass = b->pass, .own_memory = b->own_memory, .bytes = b->bytes,
		.nranges = b->nranges, .total = b->bytes * b->sweeps, .start_ms = b->now_ms,
		.reported_ms = b->now_ms, .errors_before = b->errors,
	};
}

bool status_job_progress(struct job_status *j, uint64_t bytes, uint64_t now_ms,
			 uint64_t every_ms)
{
	j->done += bytes;
	if (now_ms - j->reported_ms < every_ms || j->total == 0)
		return false;
	j->reported_ms = now_ms;
	return true;
}

uint64_t status_jobs_done(const struct job_status *jobs, size_t n)
{
	uint64_t done = 0;

	// Each CPU updates its own entry while this runs: read each word once.
	for (size_t i = 0; i < n; i++)
		if (__atomic_load_n(&jobs[i].test, __ATOMIC_RELAXED))
			done += __atomic_load_n(&jobs[i].done, __ATOMIC_RELAXED);
	return done;
}

int status_line_job_start(char *buf, size_t len, const struct job_status *j)
{
	return fmt_snprintf(buf, len, "test %s: start pass=%u bytes=%llu ranges=%zu%s t=%llu.%03llu",
			    j->test, j->pass, (unsigned long long)j->bytes, j->nranges, own(j),
			    (unsigned long long)(j->start_ms / 1000),
			    (unsigned long long)(j->start_ms % 1000));
}

int status_line_progress(char *buf, size_t len, const struct job_status *j, uint64_t now_ms)
{
	return fmt_snprintf(buf, len, "test %s: %llu%% done, pass=%u t=%llu", j->test,
			    (unsigned long long)(j->total ? j->done * 100 / j->total : 0), j->pass,
			    (unsigned long long)(now_ms / 1000));
}

int status_line_fade(char *buf, size_t len, const struct job_status *j, uint32_t seconds)
{
	return fmt_snprintf(buf, len, "test %s: waiting %u s for bits to fade, pass=%u", j->test,
			    seconds, j->pass);
}

int status_line_job_end(char *buf, size_t len, const struct job_status *j, uint64_t now_ms,
			uint64_t errors)
{
	uint64_t ms = now_ms - j->start_ms;
	uint64_t mib_s = ms ? j->total / ms * 1000 / MiB : 0;

	return fmt_snprintf(buf, len,
			    "test %s: end pass=%u errors=%llu time_s=%llu.%03llu MiB_s=%llu%s "
			    "t=%llu.%03llu",
			    j->test, j->pass, (unsigned long long)(errors - j->errors_before),
			    (unsigned long long)(ms / 1000), (unsigned long long)(ms % 1000),
			    (unsigned long long)mib_s, own(j), (unsigned long long)(now_ms / 1000),
			    (unsigned long long)(now_ms % 1000));
}

void status_pass_begin(struct run_status *s, uint32_t pass, uint64_t now_ms)
{
	s->pass = pass;
	s->pass_start_ms = now_ms;
	s->pass_errors_before = s->errors;
}

int status_line_pass_start(char *buf, size_t len, const struct run_status *s, size_t ntests,
			   size_t nranges)
{
	return fmt_snprintf(buf, len, "pass %u: start, %zu tests over %zu ranges", s->pass, ntests,
			    nranges);
}

void status_pass_end(struct run_status *s, uint64_t tested_bytes)
{
	s->passes_done++;
	if (tested_bytes > s->tested_bytes)
		s->tested_bytes = tested_bytes;
}

int status_line_pass_end(char *buf, size_t len, const struct run_status *s, uint64_t tested_bytes,
			 uint64_t now_ms)
{
	uint64_t ms = now_ms - s->pass_start_ms;

	return fmt_snprintf(buf, len, "pass %u: end errors=%llu tested_bytes=%llu time_s=%llu.%03llu",
			    s->pass, (unsigned long long)(s->errors - s->pass_errors_before),
			    (unsigned long long)tested_bytes, (unsigned long long)(ms / 1000),
			    (unsigned long long)(ms % 1000));
}

int status_line_cpus(char *buf, size_t len, size_t found, const uint32_t *ids, size_t nids,
		     const char *more)
{
	static const char cut[] = " ...";
	size_t n;

	if (len == 0)
		return 0;
	n = (size_t)fmt_snprintf(buf, len, "cpus: %zu found in the MADT, %zu started (APIC IDs",
				 found, nids);
	for (size_t i = 0; i < nids && n < len; i++) {
		char id[16];
		size_t k = (size_t)fmt_snprintf(id, sizeof(id), " %u", ids[i]);
		// After this ID: ")", more and the NUL, and a cut unless it is
		// the last (the check before it kept room for that cut).
		size_t after = 1 + str_len(more) + 1 + (i + 1 < nids ? sizeof(cut) - 1 : 0);
		if (n + k + after > len) {
			n += (size_t)fmt_snprintf(buf + n, len - n, "%s", cut);
			break;
		}
		n += (size_t)fmt_snprintf(buf + n, len - n, "%s", id);
	}
	if (n < len)
		n += (size_t)fmt_snprintf(buf + n, len - n, ")%s", more);
	return (int)(n < len ? n : len - 1);
}

int status_line_result(char *buf, size_t len, const struct run_status *s, enum result r,
		       uint64_t now_ms, const char *version)
{
	struct result_fields f = {
		.result = r, .passes = s->passes_done, .errors = s->errors,
		.tested_bytes = s->tested_bytes, .usable_bytes = s->usable_bytes,
		.elapsed_ms = now_ms, .version = version,
	};

	return status_line_result_fields(buf, len, &f);
}

const char *status_result_name(enum result r)
{
	static const char *const names[] = { "PASS", "FAIL", "ABORTED", "STOPPED" };

	return (unsigned)r < sizeof(names) / sizeof(names[0]) ? names[r] : "?";
}

int status_line_result_fields(char *buf, size_t len, const struct result_fields *f)
{
	return fmt_snprintf(buf, len,
			    "ramsift: result=%s passes=%u errors=%llu tested_bytes=%llu "
			    "usable_bytes=%llu elapsed_s=%llu.%03llu version=%s",
			    status_result_name(f->result), f->passes, (unsigned long long)f->errors,
			    (unsigned long long)f->tested_bytes, (unsigned long long)f->usable_bytes,
			    (unsigned long long)(f->elapsed_ms / 1000),
			    (unsigned long long)(f->elapsed_ms % 1000), f->version);
}
