#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Corrected machine-check errors, injected with QEMU's monitor command `mce`
# (TCG fills the bank's STATUS, ADDR and MISC; a corrected record raises no
# exception, so only ramsift's polling can see it):
# - one record in bank 3 before ramsift starts (QEMU paused by -S, `mce`,
#   then `cont`): logged once as `MCE ... at boot`, kept out of the fold;
# - two at the start of the first test, in banks 1 and 2 (the VM stopped for
#   them, so the run cannot end before), naming 0x5a5a5c0 and 0x7000040:
#   logged as `MCE ... corrected`, their pages (and only theirs) in the
#   badram=/memmap= lines, counted apart from the tests' errors (errors=0),
#   result FAIL;
# - the status screen (VGA text, read at the start of the second pass) shows
#   them beside the tests' errors: `Errors   0   corrected 2   failing pages 2`.
. "$(dirname "$0")/lib.sh"

# VAL, MISCV and ADDRV; MCA error code 0x009f: memory controller, read,
# channel not given (SDM vol. 3B, 15.9.2).
CORRECTED=0x8c0000000000009f
MISC=0x86	# address mode 2 (physical), lowest valid address bit 6
sock=$E2E_DIR/$E2E_NAME-$$.sock
text=$E2E_DIR/$E2E_NAME.text
rm -f "$E2E_DIR/$E2E_NAME.monitor" "$text"
cleanup() { [ -z "${inj-}" ] || kill "$inj" 2>/dev/null; rm -f "$sock"; }
trap 'status=$?; cleanup; e2e_report "$status"' EXIT

inject() {
	e2e_monitor "$sock" "mce 0 3 $CORRECTED 0 0x1234540 $MISC" cont &&
		e2e_wait_serial '^test march-c: start pass=1 ' &&
		e2e_monitor "$sock" stop "mce 0 1 $CORRECTED 0 0x5a5a5c0 $MISC" \
			"mce 0 2 $CORRECTED 0 0x7000040 $MISC" cont &&
		e2e_wait_serial '^test march-c: start pass=2 ' &&
		e2e_monitor "$sock" stop "pmemsave 0xb8000 4000 $text" &&
		for _ in $(seq 100); do [ "$(stat -c %s "$text" 2>/dev/null)" = 4000 ] && break; sleep 0.1; done &&
		e2e_monitor "$sock" cont
}
inject &
inj=$!
e2e_boot -S -monitor "unix:$sock,server=on,wait=off" -m 256M -kernel "$ELF" \
	-append "console=ttyS0,115200 console=tty0 $E2E_ARGS tests=march-c passes=3"
wait "$inj" || e2e_fail "could not inject through the monitor (build/test/$E2E_NAME.monitor)"
inj=

[ "$E2E_RESULT" -eq 1 ] || e2e_fail "isa-debug-exit result: want FAIL, got ${E2E_RESULTS[$E2E_RESULT]}"
e2e_expect '^ramsift: result=FAIL passes=3 errors=0 ' 'FAIL with no failing read'
e2e_expect '^machine checks: 10 banks \(IA32_MCG_CAP=0x100010a\), enabled; ' 'machine checks on'
e2e_expect '^MCE cpu=0 bank=3 status=0x8c0000000000009f addr=0x0000000001234540 misc=0x0000000000000086 at boot$' \
	'the record left from before the start'
e2e_expect '^MCE cpu=0 bank=1 status=0x8c0000000000009f addr=0x0000000005a5a5c0 misc=0x0000000000000086 corrected$' \
	'the first corrected error'
e2e_expect '^MCE cpu=0 bank=2 status=0x8c0000000000009f addr=0x0000000007000040 misc=0x0000000000000086 corrected$' \
	'the second corrected error'
# Found by polling while the first test ran, not only by the last poll
# before the summary.
end_at=$(grep -n '^test march-c: end pass=1 ' "$E2E_LOG" | head -n 1 | cut -d: -f1)
for bank in 1 2; do
	at=$(grep -n "^MCE cpu=0 bank=$bank " "$E2E_LOG" | head -n 1 | cut -d: -f1)
	[ -n "$end_at" ] && [ "$at" -lt "$end_at" ] ||
		e2e_fail "bank $bank's error was not reported while the first test ran"
done
n=$(grep -c '^MCE ' "$E2E_LOG") || true
[ "$n" -eq 3 ] || e2e_fail "want 3 MCE lines (each record read and cleared once), got $n"
e2e_expect '^summary: 2 corrected and 0 uncorrected errors reported by the machine-check banks ' \
	'the summary counts them apart'
e2e_expect '^summary: 1 machine-check records were left from before ramsift started ' \
	'the summary names the record at boot'
e2e_expect '^memmap=4K\$0x5a5a000,4K\$0x7000000$' 'memmap= reserving the two pages'
pairs=$(sed -n 's/^badram=//p' "$E2E_LOG")
sorted=$(echo "$pairs" | tr ',' '\n' | paste - - | sort | tr '\t\n' ', ')
[ "$sorted" = "0x5a5a000,0x7ffffffffffff000 0x7000000,0x7ffffffffffff000 " ] ||
	e2e_fail "badram=: want exactly the pages 0x5a5a000 and 0x7000000, got $pairs"
e2e_expect_no '^ERROR ' 'no failing read'
# The status rows only: the log below them may lag the serial log a line.
row7=$({ "$B/host/screencheck" vga "$text" 80x25 "$E2E_LOG" top=9 2>/dev/null || true; } |
	sed -n 's/^screencheck: row 7: //p')
case $row7 in
' Errors   0   corrected 2   failing pages 2   last at 0x'*) ;;
*) e2e_fail "the status screen's error row: want ' Errors   0   corrected 2   failing pages 2   last at ...', got '$row7'" ;;
esac
