#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# An uncorrected memory error injected with QEMU's monitor command `mce` at
# the start of the first test, on QEMU's default CPU and on -cpu max: TCG
# raises #MC (vector 18) only when CR4.MCE, IA32_MCG_CTL and the bank's CTL
# are all enabled (else it resets the VM), so the report proves ramsift
# enabled machine checks. ramsift must report through the panic path: the
# exception, IA32_MCG_STATUS, the bank's record, the address (0x6543210 with
# its bits below the cache line cleared, as MISC's LSB says), what to do,
# and end ABORTED.
. "$(dirname "$0")/lib.sh"

# VAL, UC, EN, MISCV, ADDRV, PCC; memory controller read error (0x009f).
UNCORRECTED=0xbe0000000000009f
MCG_STATUS=0x6	# MCIP and EIPV: the error was where the CPU stopped, no restart
MISC=0x86
sock=$E2E_DIR/$E2E_NAME-$$.sock
rm -f "$E2E_DIR/$E2E_NAME.monitor"
cleanup() { [ -z "${inj-}" ] || kill "$inj" 2>/dev/null; rm -f "$sock"; }
trap 'status=$?; cleanup; e2e_report "$status"' EXIT

for cpu in default max; do
	model=()
	[ "$cpu" = default ] || model=(-cpu "$cpu")
	rm -f "$sock"
	(e2e_wait_serial '^test march-c: start pass=1 ' &&
		e2e_monitor "$sock" "mce 0 4 $UNCORRECTED $MCG_STATUS 0x6543210 $MISC") &
	inj=$!
	e2e_boot "${model[@]}" -monitor "unix:$sock,server=on,wait=off" -m 256M -kernel "$ELF" \
		-append "console=ttyS0,115200 $E2E_ARGS tests=march-c passes=3"
	wait "$inj" || e2e_fail "-cpu $cpu: could not inject through the monitor"
	inj=
	[ "$E2E_RESULT" -eq 2 ] ||
		e2e_fail "-cpu $cpu: isa-debug-exit result: want ABORTED, got ${E2E_RESULTS[$E2E_RESULT]}"
	e2e_expect '^error: CPU exception 18 \(#MC machine check\) .* cpu=0 test=march-c$' "-cpu $cpu: the exception"
	e2e_expect '^error: machine check: IA32_MCG_STATUS=0x6 \(RIPV=0 EIPV=1 MCIP=1\)' "-cpu $cpu: MCG_STATUS"
	e2e_expect '^MCE cpu=0 bank=4 status=0xbe0000000000009f addr=0x0000000006543210 misc=0x0000000000000086 #MC$' \
		"-cpu $cpu: the bank's record"
	e2e_expect '^error: machine check: an uncorrectable memory error at 0x0000000006543200: ' \
		"-cpu $cpu: the address"
	e2e_expect '^error: ramsift stopped: replace the DIMM holding 0x0000000006543200 ' "-cpu $cpu: what to do"
	mapfile -t last < <(tail -n 2 "$E2E_LOG")
	[[ ${last[1]} =~ ^ramsift:\ result=ABORTED\  ]] || e2e_fail "-cpu $cpu: last line: want ABORTED, got ${last[1]}"
done
