#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# console=ttyS2 names a port with no UART behind it (QEMU has only COM1):
# ramsift must not hang probing it; it runs with no console at all and still
# reports PASS through isa-debug-exit. COM1 stays silent, so dev/qemu-run.sh,
# which wants the result line too, says QEMU failed (3) after status 1
# (PASS); QEMU itself must have said nothing but its usual warning.
. "$(dirname "$0")/lib.sh"

e2e_boot -m 64M -kernel "$ELF" -append "console=ttyS2 $E2E_ARGS tests=address-walk"
[ ! -s "$E2E_LOG" ] || e2e_fail "COM1 was not chosen, yet it printed"
[ "$E2E_RESULT" -eq 3 ] || e2e_fail "qemu-run.sh: want QEMU failed (no result line), got ${E2E_RESULTS[$E2E_RESULT]}"
grep -q "^qemu-run.sh: QEMU exited with status 1 (ramsift's PASS), but COM1 carried no " \
	"$E2E_DIR/$E2E_NAME.stderr" || e2e_fail "isa-debug-exit result: want PASS (QEMU exit status 1)"
qemu=$(grep -v -e '^qemu-run.sh: ' -e 'multiboot knows VBE' "$E2E_DIR/$E2E_NAME.stderr") || true
[ -z "$qemu" ] || e2e_fail "QEMU did not start the guest: $qemu"
