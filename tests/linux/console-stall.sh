#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/linux/init.c keeps the console moving: Debian's kernel boots
# (-kernel, no GRUB) with an initramfs whose /payload (tests/linux/
# console-stall.c) stops the console's output and writes lines behind it,
# then again as it ends, with the queue nearly full.
# The init must restart the transmitter (its kernel-log line says so), so
# that the lines and its result line reach COM1 before it ends the VM.
# usage: tests/linux/console-stall.sh
. "$(dirname "$0")/../e2e/lib.sh"

e2e_boot -m 256M -kernel "$B/linux/vmlinuz" -initrd "$B/linux/console-stall.cpio" \
	-append "$E2E_LINUX_ARGS"
[ "${E2E_RESULTS[$E2E_RESULT]}" = PASS ] ||
	e2e_fail "want the init's exit with its result line, got ${E2E_RESULTS[$E2E_RESULT]}"
e2e_expect '^console-stall: the console.s output stops now$' 'the payload ran'
e2e_expect '^\[ *[0-9.]+\] ramsift-init: the console sent nothing for a second with [0-9]+ bytes queued: its transmitter restarted$' \
	"the init's restart"
e2e_expect '^console-stall: written while the output was stopped$' 'the line behind the stop'
e2e_expect '^ramsift-init: /payload exited with status 0$' "the payload's end"
e2e_expect '^console-stall: filler 59 \.+$' 'the lines behind the second stop'
# The second stop is not always the init's to end: on a loaded host the
# lines behind it have come through with no restart said (twice in eight
# runs; what released them is not known). That they come at all, and the
# result line after them, is what counts.
