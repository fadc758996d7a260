#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A CPU exception in the middle of a test must be reported (vector, name,
# error code, RIP, CR2, the test running) and end the run ABORTED, never a
# silent reboot. QEMU's "inject-nmi" (over QMP) delivers vector 2 while
# march-c runs; QEMU must exit with status 5 (ABORTED).
. "$(dirname "$0")/lib.sh"

port=$((20000 + $$ % 20000))
raw=$E2E_DIR/$E2E_NAME.serial
(
	# Wait for the test to start, then inject the NMI.
	for _ in $(seq 600); do
		grep -q '^test march-c: start' "$raw" 2>/dev/null && break
		sleep 0.2
	done
	exec 3<>"/dev/tcp/127.0.0.1/$port" || exit 1
	printf '{"execute":"qmp_capabilities"}\n{"execute":"inject-nmi"}\n' >&3
	sleep 1
) &
injector=$!

e2e_boot -m 64M -qmp "tcp:127.0.0.1:$port,server=on,wait=off" -kernel "$ELF" \
	-append "console=ttyS0,115200 $E2E_ARGS tests=march-c passes=0"
wait "$injector" || e2e_fail "could not send the NMI through QMP on port $port"

e2e_expect '^error: CPU exception 2 \(NMI\) error_code=0x0 rip=0x[0-9a-f]{16} cr2=0x[0-9a-f]{16} rsp=0x[0-9a-f]{16} cpu=0 test=march-c$' \
	'exception report naming the vector, RIP, CR2 and the running test'
e2e_expect_aborted
