#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A CPU exception in the middle of a test must be reported (vector, name,
# error code, RIP, CR2, the test running) and end the run ABORTED, never a
# silent reboot. QEMU's "inject-nmi" (over QMP) delivers vector 2 while
# march-c runs; QEMU must exit with status 5 (ABORTED).
. "$(dirname "$0")/lib.sh"

qmp=$(e2e_socket qmp)
trap 'status=$?; rm -f "$qmp"; e2e_report "$status"' EXIT
# Once the test runs, inject the NMI.
(e2e_wait_serial '^test march-c: start' &&
	e2e_send "$qmp" '{"execute":"qmp_capabilities"}
{"execute":"inject-nmi"}
') &
injector=$!

e2e_boot -m 64M -qmp "unix:$qmp,server=on,wait=off" -kernel "$ELF" \
	-append "console=ttyS0,115200 $E2E_ARGS tests=march-c passes=0"
wait "$injector" || e2e_fail "could not send the NMI through QMP on $qmp"

e2e_expect '^error: CPU exception 2 \(NMI\) error_code=0x0 rip=0x[0-9a-f]{16} cr2=0x[0-9a-f]{16} rsp=0x[0-9a-f]{16} cpu=0 test=march-c$' \
	'exception report naming the vector, RIP, CR2 and the running test'
e2e_expect_aborted
