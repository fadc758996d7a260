#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A USB keyboard on xHCI under UEFI: OVMF boots the test ISO's default
# entry through GRUB (x86_64-efi, Multiboot 2) on a q35 without an i8042.
# ramsift takes the controller from the firmware, names the keyboard, and
# q typed on it once the first test runs stops the run on clean RAM:
# STOPPED (QEMU status 7).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-usb.sh"

qmp=$(e2e_socket qmp)
trap 'status=$?; [ -z "${typist-}" ] || kill "$typist" 2>/dev/null; rm -f "$qmp"; e2e_report "$status"' EXIT

KBD='USB keyboard at xHCI 00:[0-9a-f]{2}\.0 port [0-9]+'
{ e2e_wait_serial "^keys: $KBD, serial ttyS0" && e2e_wait_serial '^test [a-z0-9-]+: start' &&
	usb_key_until "$qmp" q '^ramsift: result='; } &
typist=$!
e2e_uefi
e2e_boot "${USB_MACHINE[@]}" -device qemu-xhci -device usb-kbd -qmp "unix:$qmp,server=on,wait=off" \
	-m 256M "${E2E_UEFI[@]}" -cdrom "$TEST_ISO"
wait "$typist" || e2e_fail "q was not typed (above)"
typist=
e2e_expect_loader 'GRUB [^,]*' multiboot2
e2e_expect '^firmware: UEFI ' 'booted through UEFI'
e2e_expect "^keys: $KBD, serial ttyS0$" 'the keys: line names the USB keyboard'
e2e_expect 'stopped by a key; reporting what was found so far$' 'q stopped the run'
[ "$E2E_RESULT" -eq 5 ] || e2e_fail "q: want STOPPED, got ${E2E_RESULTS[$E2E_RESULT]}"
e2e_expect_no '^warning: usb' 'no USB warning'
