#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Entered without the Multiboot magic (bad-magic-stub.S jumps to the entry with
# EAX = 0): ramsift must say so on the serial port and halt, with no result
# line. It cannot know whether to report to QEMU, so the run ends by the time
# limit.
. "$(dirname "$0")/lib.sh"

E2E_TIMEOUT=10
e2e_boot -m 64M -kernel "$E2E_DIR/bad-magic-stub.elf" -device "loader,file=$ELF"
e2e_expect '^ramsift: not started by a Multiboot loader' 'the wrong-magic message'
e2e_expect_halted
