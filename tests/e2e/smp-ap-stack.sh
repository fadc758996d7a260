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

e2e_boot_smp_hook ap-stack
e2e_expect '^error: cpu 1 \(APIC ID 1\): its stack overflowed into the guard words below it \(0x[0-9a-f]+\), in test march-c$' \
	'the overflow reported, naming CPU 1 and the test'
[ "$(grep -c 'stack overflowed' "$E2E_LOG")" -eq 1 ] || e2e_fail 'want exactly one overflow report'
e2e_expect_aborted
