#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Keys stop a run that would go on for ever (passes=0) and still give the
# result. Boot 1: clean RAM, Esc pressed on the PS/2 keyboard (QEMU monitor
# `sendkey esc`) once the first test runs: result=STOPPED, QEMU status 7.
# Boot 2: two stuck bits held in RAM, q typed on the serial console once the
# first pass has found both: result=FAIL with exactly one of each pasteable
# line, excluding just the two failing pages. How long each stop took from
# the key to QEMU's exit is printed, not judged: the host is shared.
. "$(dirname "$0")/lib.sh"

mon=$(e2e_socket monitor)
com=$E2E_DIR/$E2E_NAME.com1.in
sent=$E2E_DIR/$E2E_NAME.key-sent
cleanup() {
	[ -z "${typist-}" ] || kill "$typist" 2>/dev/null
	rm -f "$sent" "$mon" "$com"
	e2e_release
}
trap 'status=$?; cleanup; e2e_report "$status"' EXIT

# press_esc: Esc on the keyboard through the monitor, once a test runs.
press_esc() {
	e2e_wait_serial '^test march-c: start' || return 1
	echo "${EPOCHREALTIME/[.,]/}" >"$sent"
	e2e_monitor "$mon" 'sendkey esc'
}

# type_q: q on the serial console (through qemu-run.sh's FIFO), once the
# first pass ended.
type_q() {
	e2e_wait_serial '^pass 1: end ' || return 1
	printf q >"$com"
	echo "${EPOCHREALTIME/[.,]/}" >"$sent"
}

# stop_took WHAT ENDED: say how long QEMU ran on after the key.
stop_took() {
	echo "    $E2E_NAME: $1: QEMU exited $((($2 - $(cat "$sent")) / 1000)) ms after the key"
}

# Boot 1: Esc on clean RAM.
press_esc &
typist=$!
e2e_boot -m 64M -monitor "unix:$mon,server=on,wait=off" -kernel "$ELF" \
	-append "console=ttyS0,115200 $E2E_ARGS tests=march-c passes=0"
ended=${EPOCHREALTIME/[.,]/}
wait "$typist" || e2e_fail "could not press Esc through the monitor on $mon"
typist=
[ "$E2E_RESULT" -eq 5 ] || e2e_fail "Esc: want STOPPED, got ${E2E_RESULTS[$E2E_RESULT]}"
stop_took Esc "$ended"
e2e_expect '^keys: Esc or q stops, s skips a test, p pauses, r reboots, \? lists them \(keyboard and serial console\)$' \
	'the keys line'
e2e_expect '^test march-c: stopped by a key; reporting what was found so far$' 'the stop, named'
e2e_expect_no '^badram=' 'no BadRAM line on clean RAM'
[[ $(tail -n 1 "$E2E_LOG") =~ ^ramsift:\ result=STOPPED\ passes=[0-9]+\ errors=0\  ]] ||
	e2e_fail "Esc: last line: want result=STOPPED with errors=0, got: $(tail -n 1 "$E2E_LOG")"

# Boot 2: q on the serial console with two stuck bits held.
rm -f "$sent"
e2e_hold 64M 0x2a5a5a8:5:1 0x3000010:63:0
type_q &
typist=$!
E2E_SERIAL_FIFO=$com e2e_boot "${E2E_HELD[@]}" -kernel "$ELF" \
	-append "console=ttyS0,115200 $E2E_ARGS tests=march-c passes=0"
ended=${EPOCHREALTIME/[.,]/}
wait "$typist" || e2e_fail "could not type q on COM1 through $com"
typist=
[ "$E2E_RESULT" -eq 1 ] || e2e_fail "q: want FAIL, got ${E2E_RESULTS[$E2E_RESULT]}"
stop_took q "$ended"
e2e_expect '^test march-c: stopped by a key; reporting what was found so far$' 'the stop, named'
for line in 'badram=' 'GRUB_BADRAM=' 'memmap='; do
	n=$(grep -c "^$line" "$E2E_LOG") || true
	[ "$n" -eq 1 ] || e2e_fail "want exactly one $line line, got $n"
done
e2e_expect '^badram=0x2a5a000,0x7ffffffffffff000,0x3000000,0x7ffffffffffff000$' \
	'the two failing pages, exactly'
e2e_expect '^memmap=4K\$0x2a5a000,4K\$0x3000000$' 'memmap= reserving the two pages'
[[ $(tail -n 1 "$E2E_LOG") =~ ^ramsift:\ result=FAIL\  ]] ||
	e2e_fail "q: last line: want result=FAIL, got: $(tail -n 1 "$E2E_LOG")"
