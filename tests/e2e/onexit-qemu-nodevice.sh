#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# onexit=qemu on a machine without QEMU's isa-debug-exit device (a real PC,
# or QEMU started without it): the write to port 0xf4 does not end the VM,
# so ramsift must say so and halt, its result still on the console. QEMU
# then runs until timeout kills it.
. "$(dirname "$0")/lib.sh"

raw=$E2E_DIR/$E2E_NAME.serial
status=0
timeout 15 qemu-system-x86_64 -accel tcg -m 64M -display none -monitor none \
	-serial "file:$raw" -kernel "$ELF" \
	-append "console=ttyS0,115200 onexit=qemu bitfade=0 tests=address-walk" \
	2>"$E2E_DIR/$E2E_NAME.stderr" || status=$?
sed -e 's/\r//g' "$raw" >"$E2E_LOG"
e2e_check_json
e2e_expect '^ramsift: result=PASS ' 'result line'
e2e_expect '^warning: onexit=qemu: no isa-debug-exit device at port 0xf4; halting instead$' \
	'the missing device reported'
e2e_expect '^ramsift: halted; ' 'halted'
[ "$status" -eq 124 ] || e2e_fail "QEMU exit status: want 124 (still halted when timeout killed it), got $status"
