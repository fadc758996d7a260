#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Two USB keyboards at once on one xHCI controller, one behind a usb-hub
# (its port 3), one on a root port: q35 without an i8042, SeaBIOS, QEMU
# -kernel, clean RAM, passes=0. The keys: line names both; s typed on the
# one behind the hub skips a test, Esc typed on the other stops the run
# (STOPPED, QEMU status 7).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-usb.sh"

qmp=$(e2e_socket qmp)
trap 'status=$?; [ -z "${typist-}" ] || kill "$typist" 2>/dev/null; rm -f "$qmp"; e2e_report "$status"' EXIT

AT='USB keyboard at xHCI 00:[0-9a-f]{2}\.0 port [0-9]+'
{ e2e_wait_serial "^keys: .*$AT \(hub port 3\)" && e2e_wait_serial '^test march-c: start' &&
	usb_key_until "$qmp" s '^test march-c: skipped by a key' behind &&
	usb_key_until "$qmp" esc '^ramsift: result=' direct; } &
typist=$!
# QMP routes a key to the keyboard bound to the display it names: one each.
e2e_boot "${USB_MACHINE[@]}" -vga none -device VGA,id=behind -device secondary-vga,id=direct \
	-device qemu-xhci,id=xhci -device usb-hub,bus=xhci.0,port=1 \
	-device usb-kbd,display=behind,bus=xhci.0,port=1.3 \
	-device usb-kbd,display=direct,bus=xhci.0,port=2 \
	-qmp "unix:$qmp,server=on,wait=off" -m 64M -kernel "$ELF" \
	-append "console=ttyS0,115200 $E2E_ARGS tests=march-c passes=0"
wait "$typist" || e2e_fail "the keys were not both typed (above)"
typist=
line=$(grep -E '^keys: .*USB keyboard' "$E2E_LOG" | head -n 1)
[[ $line =~ $AT\ \(hub\ port\ 3\) ]] || e2e_fail "the keyboard behind the hub, unnamed: $line"
[[ $line =~ $AT(,|$) ]] || e2e_fail "the keyboard on a root port, unnamed: $line"
e2e_expect '^test march-c: skipped by a key$' 's from the keyboard behind the hub'
e2e_expect '^test march-c: stopped by a key; reporting what was found so far$' 'Esc from the other'
[ "$E2E_RESULT" -eq 5 ] || e2e_fail "Esc: want STOPPED, got ${E2E_RESULTS[$E2E_RESULT]}"
e2e_expect_no '^warning: usb' 'no USB warning'
