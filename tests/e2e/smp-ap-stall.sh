#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A CPU that stops answering is reported by the CPUs waiting for it, and the
# run ends ABORTED. At -smp 4, the test hook test_fault=ap-hang makes CPU 1
# halt for good (interrupts off) as its share of march-c starts, so the
# other three wait for it at march-c's first phase barrier; ap-hang-end
# makes it halt after its share, so the BSP waits for it to finish. Both
# hooks also shorten the stall limit from 60 s to 5 s. Expected each time:
# the one error line naming CPU 1, its APIC ID, where the others waited and
# the test, the line saying what to do, the result line ABORTED last, and
# QEMU's exit status 5.
. "$(dirname "$0")/lib.sh"

# stall HOOK WHERE: one boot with the hook; WHERE is the wait the report names.
stall() {
	E2E_LOG=$E2E_DIR/$E2E_NAME-$1.log
	e2e_boot_smp_hook "$1"
	e2e_expect "^error: cpus: CPU 1 \\(APIC ID 1\\) stopped: no sign of life for 5 s while $2, in test march-c; its share of the memory is not tested\$" \
		"$1: the stalled CPU reported"
	e2e_expect '^error: ramsift stopped: a CPU hung .* test again with cpus=1 and report the lines above$' \
		"$1: what to do"
	[ "$(grep -c '^error: ' "$E2E_LOG")" -eq 2 ] || e2e_fail "$1: want exactly the two error lines"
	e2e_expect_aborted "$1"
}

stall ap-hang 'the other CPUs waited for it at a phase barrier'
stall ap-hang-end 'the BSP waited for it to finish its share'
