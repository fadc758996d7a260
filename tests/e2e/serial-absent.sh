#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# console=ttyS2 names a port with no UART behind it (QEMU has only COM1):
# ramsift must not hang probing it; it runs with no console at all and still
# reports PASS through isa-debug-exit. COM1 stays silent.
. "$(dirname "$0")/lib.sh"

e2e_boot -m 64M -kernel "$ELF" -append "console=ttyS2 $E2E_ARGS tests=address-walk"
[ "$E2E_RESULT" -eq 0 ] || e2e_fail "isa-debug-exit result: want PASS, got ${E2E_RESULTS[$E2E_RESULT]}"
[ ! -s "$E2E_LOG" ] || e2e_fail "COM1 was not chosen, yet it printed"
