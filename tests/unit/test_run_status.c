// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/run/status.c: the exact text of every line the run
// status renders (the log's contract), the progress schedule, and the
// counters a pass and a job keep.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "run/status.h"
#include "memstr.h"
#include "contains.h"

static char line[256];

static void test_job_lines(void **state)
{
	struct job_status j;
	(void)state;

	status_job_begin(&j, &(struct job_start){ .test = "march-c", .pass = 2, .bytes = 64 << 20,
					       .nranges = 3, .sweeps = 27, .now_ms = 12345,
					       .errors = 7 });
	status_line_job_start(line, sizeof(line), &j);
	assert_string_equal(line, "test march-c: start pass=2 bytes=67108864 ranges=3 t=12.345");
	// Progress lines are due every 10 s, never for a test reporting none.
	assert_false(status_job_progress(&j, 1 << 20, 12345 + 9999, 10000));
	assert_true(status_job_progress(&j, (730 << 20) - (1 << 20), 22345, 10000));
	assert_false(status_job_progress(&j, 0, 22346, 10000));
	status_line_progress(line, sizeof(line), &j, 22345);
	assert_string_equal(line, "test march-c: 42% done, pass=2 t=22");
	status_line_fade(line, sizeof(line), &j, 90);
	assert_string_equal(line, "test march-c: waiting 90 s for bits to fade, pass=2");
	// 27 * 64 MiB in 2 s: 864 MiB/s, 863 as the bytes per ms are truncated.
	status_line_job_end(line, sizeof(line), &j, 14345, 10);
	assert_string_equal(line, "test march-c: end pass=2 errors=3 time_s=2.000 MiB_s=863 t=14.345");

	status_job_begin(&j, &(struct job_start){ .test = "address-walk", .pass = 1,
					       .own_memory = true, .bytes = 4096, .nranges = 2 });
	assert_false(status_job_progress(&j, 0, 50000, 10000));
	status_line_job_start(line, sizeof(line), &j);
	assert_string_equal(line, "test address-walk: start pass=1 bytes=4096 ranges=2 own-memory t=0.000");
	status_line_job_end(line, sizeof(line), &j, 0, 0);
	assert_string_equal(line, "test address-walk: end pass=1 errors=0 time_s=0.000 MiB_s=0 own-memory t=0.000");
}

static void test_pass_and_result(void **state)
{
	struct run_status s = { 0 };
	(void)state;

	s.usable_bytes = 1000;
	s.errors = 5;
	status_pass_begin(&s, 1, 1000);
	status_line_pass_start(line, sizeof(line), &s, 3, 2);
	assert_string_equal(line, "pass 1: start, 3 tests over 2 ranges");
	s.errors = 9;
	status_line_pass_end(line, sizeof(line), &s, 900, 3500);
	assert_string_equal(line, "pass 1: end errors=4 tested_bytes=900 time_s=2.500");
	status_pass_end(&s, 900);
	status_pass_begin(&s, 2, 4000);
	status_pass_end(&s, 800);	// a pass that could not move keeps the best
	assert_int_equal(s.passes_done, 2);
	assert_int_equal(s.tested_bytes, 900);
	status_line_result(line, sizeof(line), &s, RESULT_FAIL, 61001, "1.2-3-gabc");
	assert_string_equal(line, "ramsift: result=FAIL passes=2 errors=9 tested_bytes=900 "
				  "usable_bytes=1000 elapsed_s=61.001 version=1.2-3-gabc");
	status_line_result(line, sizeof(line), &s, RESULT_ABORTED, 5, "0.1");
	assert_string_equal(line, "ramsift: result=ABORTED passes=2 errors=9 tested_bytes=900 "
				  "usable_bytes=1000 elapsed_s=0.005 version=0.1");
}

// The test as a whole: the jobs running are summed, idle CPUs are not.
static void test_jobs_done(void **state)
{
	struct job_status jobs[4] = { 0 };
	(void)state;

	struct job_start b = { .test = "march-c", .pass = 1, .bytes = 8 << 20, .nranges = 1,
			       .sweeps = 24 };
	status_job_begin(&jobs[0], &b);
	b.bytes = 6 << 20;
	b.nranges = 2;
	status_job_begin(&jobs[2], &b);
	status_job_progress(&jobs[0], 5 << 20, 1, 10000);
	status_job_progress(&jobs[2], 3 << 20, 1, 10000);
	jobs[3].done = 1 << 30;	// a finished job's count, its test NULL: not summed
	assert_int_equal(status_jobs_done(jobs, 4), 8 << 20);
	assert_int_equal(status_jobs_done(jobs, 2), 5 << 20);
	assert_int_equal(status_jobs_done(jobs, 0), 0);
}

static void test_cpus_line(void **state)
{
	static const uint32_t four[] = { 0, 1, 2, 3 };
	static uint32_t many[200];
	char small[64];
	(void)state;

	status_line_cpus(line, sizeof(line), 4, four, 4, "");
	assert_string_equal(line, "cpus: 4 found in the MADT, 4 started (APIC IDs 0 1 2 3)");
	status_line_cpus(line, sizeof(line), 4, four, 2, ", 2 left out by cpus=2");
	assert_string_equal(line, "cpus: 4 found in the MADT, 2 started (APIC IDs 0 1), 2 left out by cpus=2");
	status_line_cpus(line, sizeof(line), 1, four, 1, "");
	assert_string_equal(line, "cpus: 1 found in the MADT, 1 started (APIC IDs 0)");
	// Too many IDs: cut with " ...", the end kept.
	for (uint32_t i = 0; i < 200; i++)
		many[i] = 1000 + i;
	int n = status_line_cpus(line, sizeof(line), 200, many, 200, ", 3 more beyond the 512 kept");
	assert_int_equal(n, (int)str_len(line));
	assert_true(n < (int)sizeof(line));
	assert_true(contains(line, " ...), 3 more beyond the 512 kept"));
	assert_true(contains(line, "(APIC IDs 1000 1001 "));
	status_line_cpus(small, sizeof(small), 200, many, 200, "");
	assert_string_equal(small, "cpus: 200 found in the MADT, 200 started (APIC IDs 1000 ...)");
	// Exactly fits: no cut.
	status_line_cpus(small, 58, 2, many, 2, "");
	assert_string_equal(small, "cpus: 2 found in the MADT, 2 started (APIC IDs 1000 1001)");
	status_line_cpus(small, 57, 2, many, 2, "");	// one byte short: cut
	assert_string_equal(small, "cpus: 2 found in the MADT, 2 started (APIC IDs 1000 ...)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_job_lines),
		cmocka_unit_test(test_pass_and_result),
		cmocka_unit_test(test_jobs_done),
		cmocka_unit_test(test_cpus_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
