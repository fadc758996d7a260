#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A CPU's stack that overflows into the guard words below it is caught and
# ends the run ABORTED. At -smp 4, the test hook test_fault=ap-stack makes
# CPU 1 write the first word below its stack (the top guard word, the first
# an overflowing stack overwrites) as its share of march-c starts; the
# check after its share finds it. Expected: the report naming CPU 1, its
# APIC ID, the guard word's address and the test, exactly one report and
# one result line, ABORTED last, QEMU's exit status 5.
. "$(dirname "$0")/lib.sh"

E2E_ACCEL=tcg,thread=multi
e2e_boot -smp 4 -m 64M -kernel "$ELF" \
	-append "console=ttyS0,115200 $E2E_ARGS tests=march-c test_fault=ap-stack"

e2e_expect '^cpus: 4 found in the MADT, 4 started \(APIC IDs 0 1 2 3\)$' 'all four CPUs started'
e2e_expect '^error: cpu 1 \(APIC ID 1\): its stack overflowed into the guard words below it \(0x[0-9a-f]+\), in test march-c$' \
	'the overflow reported, naming CPU 1 and the test'
[ "$(grep -c 'stack overflowed' "$E2E_LOG")" -eq 1 ] || e2e_fail 'want exactly one overflow report'
[ "$(grep -c '^ramsift: result=' "$E2E_LOG")" -eq 1 ] || e2e_fail 'want exactly one result line'
[ "$(tail -n 1 "$E2E_LOG" | cut -d' ' -f1-2)" = 'ramsift: result=ABORTED' ] ||
	e2e_fail 'want the result line ABORTED, last'
[ "$E2E_RESULT" -eq 2 ] || e2e_fail "isa-debug-exit result: want ABORTED, got ${E2E_RESULTS[$E2E_RESULT]}"
