#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# onexit=qemu on a machine without QEMU's isa-debug-exit device (a real PC,
# or QEMU started without it): the write to port 0xf4 does not end the VM,
# so ramsift must say so and halt, its result still on the console. QEMU
# then runs on: once the halt is in the log (120 s at most, for a loaded
# host), it must still be running a second later, and is killed.
. "$(dirname "$0")/lib.sh"

raw=$E2E_DIR/$E2E_NAME.serial
rm -f "$raw"
qemu-system-x86_64 -accel tcg -m 64M -display none -monitor none \
	-serial "file:$raw" -kernel "$ELF" \
	-append "console=ttyS0,115200 onexit=qemu bitfade=0 tests=address-walk" \
	2>"$E2E_DIR/$E2E_NAME.stderr" &
qemu=$!
E2E_TIMEOUT=120 e2e_wait_serial '^ramsift: halted; ' || true
sleep 1
running=0
kill "$qemu" 2>/dev/null && running=1
wait "$qemu" 2>/dev/null || true
sed -e 's/\r//g' "$raw" >"$E2E_LOG"
e2e_check_json
e2e_expect '^ramsift: result=PASS ' 'result line'
e2e_expect '^warning: onexit=qemu: no isa-debug-exit device at port 0xf4; halting instead$' \
	'the missing device reported'
e2e_expect '^ramsift: halted; ' 'halted'
[ "$running" -eq 1 ] || e2e_fail "QEMU exited by itself after the halt; want it still running"
