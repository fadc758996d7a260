#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# onexit=reboot: after the result line ramsift resets the machine. With
# -no-reboot QEMU turns the reset into a clean exit (status 0) instead of a
# new boot, so status 0 plus the "rebooting" line prove the reset happened
# (a halt would run into the time limit instead).
. "$(dirname "$0")/lib.sh"

raw=$E2E_DIR/$E2E_NAME.serial
status=0
timeout 120 qemu-system-x86_64 -accel tcg -no-reboot -m 64M -display none -monitor none \
	-serial "file:$raw" -kernel "$ELF" \
	-append "console=ttyS0,115200 onexit=reboot bitfade=0 tests=address-walk" \
	2>"$E2E_DIR/$E2E_NAME.stderr" || status=$?
sed -e 's/\r//g' "$raw" >"$E2E_LOG"
e2e_check_json
e2e_expect '^ramsift: result=PASS ' 'result line'
e2e_expect '^ramsift: rebooting$' 'reboot announced'
[ "$status" -eq 0 ] || e2e_fail "QEMU exit status: want 0 (the guest reset itself), got $status"
