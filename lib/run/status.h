// SPDX-License-Identifier: GPL-2.0-or-later
// The run-status model: one structure owned by the run, holding where the
// run is (pass, test, bytes done per CPU, errors, failing pages), updated by
// the run as its jobs report progress; and the lines rendered from it. The
// log prints these lines today; the status screen and the JSON line will
// render the same structure. Times are milliseconds since the timer started.
// Every status_line_* writes one NUL-terminated line without a newline into
// buf[0..len) and returns the length it needs, as snprintf.
#ifndef RAMSIFT_LIB_RUN_STATUS_H
#define RAMSIFT_LIB_RUN_STATUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capacity.h"


// How the run ended; also the value ramsift writes to QEMU's isa-debug-exit.
enum result {
	RESULT_PASS,
	RESULT_FAIL,
	RESULT_ABORTED,
	RESULT_STOPPED,	// a key stopped a run that had found nothing
};

// One test over one list of ranges, on one CPU.
struct job_status {
	const char *test;	// the test's name; NULL when the CPU is idle
	uint32_t pass;
	bool own_memory;	// over the memory ramsift just left
	uint64_t bytes;		// bytes in the ranges
	size_t nranges;
	uint64_t total;		// bytes the test will report (sweeps * bytes)
	uint64_t done;		// bytes reported so far
	uint64_t start_ms;
	uint64_t reported_ms;	// when the last progress line was printed
	uint64_t errors_before;	// the run's error count when the job began
};

struct run_status {
	uint32_t pass;		// the pass running (1, 2, ...); 0 before the first
	uint32_t passes_done;
	uint64_t pass_start_ms;
	uint64_t pass_errors_before;
	uint64_t tested_bytes;	// the most bytes one pass tested
	uint64_t usable_bytes;
	uint64_t errors;	// failing reads so far
	uint64_t failing_pages;	// distinct failing pages recorded (at least)
	// The test running, as a whole: its bytes and ranges are all of the
	// test's, its done the sum of its CPUs' jobs (status_jobs_done). The
	// test's lines are rendered from it, by the BSP alone.
	struct job_status test;
	struct job_status job[MAX_CPUS];	// by CPU number: each CPU's share
};

// What a job is given as it begins: test over nranges ranges of bytes in
// all, which it sweeps sweeps times, at now_ms with the run's error count at
// errors.
struct job_start {
	const char *test;
	uint32_t pass;
	bool own_memory;
	uint64_t bytes;
	size_t nranges;
	uint32_t sweeps;
	uint64_t now_ms;
	uint64_t errors;
};

// The job j begins as b says.
void status_job_begin(struct job_status *j, const struct job_start *b);

// The job reported bytes more of progress at now_ms. True when a progress
// line is due (every every_ms since the job began or the last one); the
// caller prints status_line_progress and the due time moves on.
bool status_job_progress(struct job_status *j, uint64_t bytes, uint64_t now_ms,
			 uint64_t every_ms);

// The bytes the jobs running (test not NULL) among jobs[0..n) have done:
// what their test has done as a whole.
uint64_t status_jobs_done(const struct job_status *jobs, size_t n);

// "test NAME: start pass=P bytes=B ranges=N[ own-memory] t=S.mmm"
int status_line_job_start(char *buf, size_t len, const struct job_status *j);

// "test NAME: P% done, pass=P t=S" (whole seconds)
int status_line_progress(char *buf, size_t len, const struct job_status *j, uint64_t now_ms);

// "test NAME: waiting S s for bits to fade, pass=P"
int status_line_fade(char *buf, size_t len, const struct job_status *j, uint32_t seconds);

// "test NAME: end pass=P errors=E time_s=S.mmm MiB_s=M[ own-memory] t=S.mmm",
// E counted from the job's start to errors.
int status_line_job_end(char *buf, size_t len, const struct job_status *j, uint64_t now_ms,
			uint64_t errors);

// A pass begins: "pass P: start, T tests over N ranges".
void status_pass_begin(struct run_status *s, uint32_t pass, uint64_t now_ms);
int status_line_pass_start(char *buf, size_t len, const struct run_status *s, size_t ntests,
			   size_t nranges);

// The pass ended having tested tested_bytes; then
// "pass P: end errors=E tested_bytes=B time_s=S.mmm".
void status_pass_end(struct run_status *s, uint64_t tested_bytes);
int status_line_pass_end(char *buf, size_t len, const struct run_status *s, uint64_t tested_bytes,
			 uint64_t now_ms);

// "cpus: F found in the MADT, S started (APIC IDs A B C ...)" followed by
// more (e.g. ", 2 left out by cpus=2"; "" for none): F CPUs the MADT lists
// as enabled, the APIC IDs of the nids that answered, BSP first. IDs that
// would not fit in len end in " ..."; more is kept whole when it fits.
// Returns the length written.
int status_line_cpus(char *buf, size_t len, size_t found, const uint32_t *ids, size_t nids,
		     const char *more);

// "ramsift: result=R passes=P errors=E tested_bytes=B usable_bytes=U
// elapsed_s=S.mmm version=V": the output contract's last line.
int status_line_result(char *buf, size_t len, const struct run_status *s, enum result r,
		       uint64_t now_ms, const char *version);

// The result line's fields, for a writer that has them without a whole
// run_status (lib/record: the line of a run that ended on an earlier boot).
struct result_fields {
	enum result result;
	uint32_t passes;
	uint64_t errors, tested_bytes, usable_bytes;
	uint64_t elapsed_ms;
	const char *version;
};

// "PASS", "FAIL", "ABORTED" or "STOPPED": the result line's word for r.
const char *status_result_name(enum result r);

// The same line from f: status_line_result is this with s's fields.
int status_line_result_fields(char *buf, size_t len, const struct result_fields *f);

#endif
