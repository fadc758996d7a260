#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A 32-bit CPU (QEMU's qemu32 model has no long mode): ramsift must say so on
# the serial port and halt, with no result line; the run ends by the time limit.
. "$(dirname "$0")/lib.sh"

E2E_TIMEOUT=10
e2e_boot -cpu qemu32 -m 64M -kernel "$ELF" -append "console=ttyS0,115200 $E2E_ARGS"
e2e_expect '^ramsift: this CPU has no 64-bit long mode' 'the no-long-mode message'
e2e_expect_halted
