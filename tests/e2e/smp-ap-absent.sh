#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# An AP that never starts is reported by its APIC ID and left out; the run
# goes on with the others. The test hook test_fault=ap-absent makes ramsift
# send INIT and STARTUP IPIs to one APIC ID more than the MADT lists (one no
# CPU of QEMU's -smp 2 has), exactly as for an entry of a CPU that is dead
# or missing: nothing answers, the start times out. Expected: the hook's
# warning and the timeout's, each naming APIC ID 2 (and nothing else
# warned), the two real CPUs in the cpus: line with "1 did not start", and
# a clean PASS over all usable RAM.
# Then test_fault=ap-absent-many: nine such APIC IDs (2 to 10) after the
# real AP; after eight timeouts in a row ramsift gives up on the rest: eight
# warnings (IDs 2 to 9), the give-up line, ID 10 never tried, the cpus: line
# counting the nine as not started, and again a clean PASS.
. "$(dirname "$0")/lib.sh"

E2E_ACCEL=tcg,thread=multi
pass_all() {
	line=$(grep '^ramsift: result=' "$E2E_LOG") || e2e_fail 'no result line'
	[[ $line =~ ^ramsift:\ result=PASS\ passes=1\ errors=0\ tested_bytes=([0-9]+)\ usable_bytes=([0-9]+)\  ]] &&
		[ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] ||
		e2e_fail "want PASS with tested_bytes = usable_bytes, got: $line"
	[ "$E2E_RESULT" -eq 0 ] || e2e_fail "isa-debug-exit result: want PASS, got ${E2E_RESULTS[$E2E_RESULT]}"
}

E2E_LOG=$E2E_DIR/$E2E_NAME-one.log
e2e_boot -smp 2 -m 64M -kernel "$ELF" -append "console=ttyS0,115200 $E2E_ARGS test_fault=ap-absent"

e2e_expect '^warning: cpus: test_fault=ap-absent: also starting APIC ID 2, which no CPU has \(a test hook\)$' \
	'the hook says what it does'
e2e_expect '^warning: cpus: the CPU with APIC ID 2 did not start within [0-9]+ ms of its INIT and STARTUP IPIs; it is left out' \
	'the missing AP reported by its APIC ID'
[ "$(grep -c '^\(warning\|error\): ' "$E2E_LOG")" -eq 2 ] || e2e_fail 'want exactly the two warnings'
e2e_expect '^cpus: 2 found in the MADT, 2 started \(APIC IDs 0 1\), 1 did not start$' 'the others started'
e2e_expect '^ramsift moved itself to ' 'the run went on, through the move'
pass_all

E2E_LOG=$E2E_DIR/$E2E_NAME-many.log
e2e_boot -smp 2 -m 64M -kernel "$ELF" -append "console=ttyS0,115200 $E2E_ARGS test_fault=ap-absent-many"
e2e_expect '^warning: cpus: test_fault=ap-absent-many: also starting APIC IDs 2 to 10, which no CPU has \(a test hook\)$' \
	'many: the hook says what it does'
ids=$(sed -nE 's/^warning: cpus: the CPU with APIC ID ([0-9]+) did not start within .*/\1/p' "$E2E_LOG" | tr '\n' ' ')
[ "$ids" = "2 3 4 5 6 7 8 9 " ] || e2e_fail "many: want timeouts for APIC IDs 2 to 9 only, got: $ids"
e2e_expect '^warning: cpus: 8 CPUs in a row did not start; the 1 after them are not tried$' 'many: the give-up'
[ "$(grep -c '^\(warning\|error\): ' "$E2E_LOG")" -eq 10 ] || e2e_fail 'many: want exactly the ten warnings'
e2e_expect '^cpus: 2 found in the MADT, 2 started \(APIC IDs 0 1\), 9 did not start$' 'many: the others started'
pass_all
