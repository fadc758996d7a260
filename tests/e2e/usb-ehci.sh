#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A USB keyboard on an EHCI controller (QEMU's usb-ehci, no companion
# controllers), read by ramsift itself: q35 without an i8042, SeaBIOS, QEMU
# -kernel, clean RAM, passes=0. The keys: line names the keyboard, and Esc
# typed on it once a test runs stops the run: STOPPED (QEMU status 7).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-usb.sh"

qmp=$(e2e_socket qmp)
trap 'status=$?; [ -z "${typist-}" ] || kill "$typist" 2>/dev/null; rm -f "$qmp"; e2e_report "$status"' EXIT

KBD='USB keyboard at EHCI 00:[0-9a-f]{2}\.0 port [0-9]+'
{ e2e_wait_serial "^keys: $KBD, serial ttyS0" && e2e_wait_serial '^test march-c: start' &&
	usb_key_until "$qmp" esc '^ramsift: result='; } &
typist=$!
e2e_boot "${USB_MACHINE[@]}" -device usb-ehci,id=ehci -device usb-kbd,bus=ehci.0 \
	-qmp "unix:$qmp,server=on,wait=off" -m 64M -kernel "$ELF" \
	-append "console=ttyS0,115200 $E2E_ARGS tests=march-c passes=0"
wait "$typist" || e2e_fail "Esc was not typed (above)"
typist=
e2e_expect '^usb: EHCI 00:[0-9a-f]{2}\.0 \([0-9a-f]{4}:[0-9a-f]{4}\), registers at 0x' 'the controller found'
e2e_expect "^keys: $KBD, serial ttyS0$" 'the keys: line names the USB keyboard'
e2e_expect '^test march-c: stopped by a key; reporting what was found so far$' 'Esc stopped the run'
[ "$E2E_RESULT" -eq 5 ] || e2e_fail "Esc: want STOPPED, got ${E2E_RESULTS[$E2E_RESULT]}"
e2e_expect_no '^warning: usb' 'no USB warning'
