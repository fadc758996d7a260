#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Machine checks on an AP: at -smp 2 (a host thread per guest CPU), a
# corrected record injected into CPU 1's bank 5 while QEMU waits at -S is
# logged `MCE cpu=1 ... at boot` as that AP starts; one injected into CPU 1's
# bank 6 at the start of the first (parallel) test is found by CPU 1's own
# polling before that test ends, logged through the console lock as `MCE cpu=1 ... corrected`, and
# its page (0x9abc000) is the one page of the fold; FAIL with errors=0.
. "$(dirname "$0")/lib.sh"

E2E_ACCEL=tcg,thread=multi
CORRECTED=0x8c0000000000009f	# VAL MISCV ADDRV, memory controller read error
MISC=0x86			# physical address, valid from bit 6
sock=$E2E_DIR/$E2E_NAME-$$.sock
rm -f "$E2E_DIR/$E2E_NAME.monitor"
cleanup() { [ -z "${inj-}" ] || kill "$inj" 2>/dev/null; rm -f "$sock"; }
trap 'status=$?; cleanup; e2e_report "$status"' EXIT

inject() {
	e2e_monitor "$sock" "mce 1 5 $CORRECTED 0 0x2468ac0 $MISC" cont &&
		e2e_wait_serial '^test march-c: start pass=1 ' &&
		e2e_monitor "$sock" stop "mce 1 6 $CORRECTED 0 0x9abcdc0 $MISC" cont
}
inject &
inj=$!
e2e_boot -S -monitor "unix:$sock,server=on,wait=off" -smp 2 -m 256M -kernel "$ELF" \
	-append "console=ttyS0,115200 $E2E_ARGS tests=march-c passes=3"
wait "$inj" || e2e_fail "could not inject through the monitor (build/test/$E2E_NAME.monitor)"
inj=

[ "$E2E_RESULT" -eq 1 ] || e2e_fail "isa-debug-exit result: want FAIL, got ${E2E_RESULTS[$E2E_RESULT]}"
e2e_expect '^cpus: 2 found in the MADT, 2 started ' 'both CPUs test'
e2e_expect '^MCE cpu=1 bank=5 status=0x8c0000000000009f addr=0x0000000002468ac0 misc=0x0000000000000086 at boot$' \
	"the AP's record from before the start"
e2e_expect '^MCE cpu=1 bank=6 status=0x8c0000000000009f addr=0x0000000009abcdc0 misc=0x0000000000000086 corrected$' \
	"the AP's corrected error"
# Found by CPU 1 while it tested (its polls, at the latest at the end of its
# share), not only when it started again after the move at the pass's end.
mce_at=$(grep -n '^MCE cpu=1 bank=6 ' "$E2E_LOG" | head -n 1 | cut -d: -f1)
end_at=$(grep -n '^test march-c: end pass=1 ' "$E2E_LOG" | head -n 1 | cut -d: -f1)
[ -n "$end_at" ] && [ "$mce_at" -lt "$end_at" ] ||
	e2e_fail "the corrected error was not reported while the first test ran (line $mce_at, its end at line $end_at)"
n=$(grep -c '^MCE ' "$E2E_LOG") || true
[ "$n" -eq 2 ] || e2e_fail "want 2 MCE lines, got $n"
e2e_expect '^ramsift: result=FAIL passes=3 errors=0 ' 'FAIL with no failing read'
e2e_expect '^memmap=4K\$0x9abc000$' 'memmap= reserving the one page'
