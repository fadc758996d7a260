#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A CPU exception on an AP ends the run ABORTED with that CPU in the report.
# The test hook test_fault=ap-ud2 makes CPU 1 execute ud2 as its share of
# march-c starts, at -smp 4 (one host thread per guest CPU), while the BSP
# and the other APs test theirs. The AP's report must win the consoles
# (console_takeover: the first CPU to panic prints, the others halt at their
# next write): the exception line naming #UD, cpu=1 and march-c, then the
# result line ABORTED and QEMU's exit status 5.
. "$(dirname "$0")/lib.sh"

e2e_boot_smp_hook ap-ud2
e2e_expect '^error: CPU exception 6 \(#UD invalid opcode\) error_code=0x0 rip=0x[0-9a-f]{16} cr2=0x[0-9a-f]{16} rsp=0x[0-9a-f]{16} cpu=1 test=march-c$' \
	'the exception report names CPU 1 and the test'
[ "$(grep -c '^error: CPU exception' "$E2E_LOG")" -eq 1 ] || e2e_fail 'want exactly one exception report'
e2e_expect_aborted
