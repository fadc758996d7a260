#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A USB keyboard on an xHCI controller, read by ramsift itself: q35 without
# an i8042, SeaBIOS, QEMU -kernel. Boot 1, clean RAM, passes=0,
# onexit=halt: the keys: line names the keyboard; s skips a test; Esc
# stops the run (STOPPED); on the result panel any key (a) reboots.
# Boot 2: two stuck bits held, passes=0: Esc after the first pass gives
# FAIL with one badram=, GRUB_BADRAM= and memmap= line each, and an OHCI
# controller beside the xHCI one is named as not read. Boot 3: no
# keyboard until the run is under way; one plugged in (QMP device_add) is
# named by a keys: USB keyboards now: line, and its Esc stops the run.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-usb.sh"

qmp=$(e2e_socket qmp)
cleanup() {
	[ -z "${typist-}" ] || kill "$typist" 2>/dev/null
	rm -f "$qmp"
	e2e_release
}
trap 'status=$?; cleanup; e2e_report "$status"' EXIT

KBD='USB keyboard at xHCI 00:[0-9a-f]{2}\.0 port [0-9]+'
USB=("${USB_MACHINE[@]}" -device qemu-xhci,id=xhci -device usb-kbd,bus=xhci.0
	-qmp "unix:$qmp,server=on,wait=off")

# Boot 1: s, Esc, then any key.
skip_stop_reboot() {
	e2e_wait_serial "^keys: $KBD, serial ttyS0" && e2e_wait_serial '^test march-c: start' &&
		usb_key_until "$qmp" s '^test march-c: skipped by a key' &&
		usb_key_until "$qmp" esc '^ramsift: result=STOPPED' &&
		e2e_wait_serial '^ramsift: press any key to reboot' && usb_key_until "$qmp" a '^ramsift: rebooting'
}
skip_stop_reboot &
typist=$!
e2e_boot "${USB[@]}" -m 64M -kernel "$ELF" \
	-append "console=ttyS0,115200 bitfade=0 tests=march-c passes=0 onexit=halt"
wait "$typist" || e2e_fail "the keys were not all typed (above)"
typist=
e2e_expect "^usb: xHCI 00:[0-9a-f]{2}\.0 \(1b36:000d\), registers at 0x" 'the controller found'
e2e_expect '^keys: Esc or q stops, s skips a test, p pauses, r reboots, \? lists them \(keyboard and serial console\)$' \
	'keys work on a keyboard'
e2e_expect "^keys: $KBD, serial ttyS0$" 'the keys: line names the USB keyboard'
e2e_expect '^test march-c: skipped by a key$' 's skipped a test'
e2e_expect '^test march-c: stopped by a key; reporting what was found so far$' 'Esc stopped the run'
e2e_expect '^ramsift: result=STOPPED passes=[0-9]+ errors=0 ' 'the result STOPPED'
e2e_expect '^ramsift: rebooting$' 'a key on the result panel reboots'
e2e_expect_no '^warning: usb' 'no USB warning'

# Boot 2: Esc on faulty RAM.
e2e_hold 64M 0x2a5a5a8:5:1 0x3000010:63:0
{ e2e_wait_serial '^pass 1: end ' && usb_key_until "$qmp" esc '^ramsift: result='; } &
typist=$!
e2e_boot "${E2E_HELD[@]}" "${USB[@]}" -device pci-ohci -kernel "$ELF" \
	-append "console=ttyS0,115200 $E2E_ARGS tests=march-c passes=0"
wait "$typist" || e2e_fail "Esc was not typed (above)"
typist=
[ "$E2E_RESULT" -eq 1 ] || e2e_fail "Esc: want FAIL, got ${E2E_RESULTS[$E2E_RESULT]}"
e2e_expect '^test march-c: stopped by a key; reporting what was found so far$' 'Esc stopped the run'
for line in 'badram=' 'GRUB_BADRAM=' 'memmap='; do
	n=$(grep -c "^$line" "$E2E_LOG") || true
	[ "$n" -eq 1 ] || e2e_fail "want exactly one $line line, got $n"
done
e2e_expect '^memmap=4K\$0x2a5a000,4K\$0x3000000$' 'memmap= reserving the two pages'
e2e_release
e2e_expect '^usb: OHCI 00:[0-9a-f]{2}\.0 not read \(ramsift reads xHCI and EHCI only\); ' \
	'the OHCI controller named, not read'

# Boot 3: a keyboard plugged in during the run.
plug_then_esc() {
	e2e_wait_serial '^keys: serial ttyS0' && e2e_wait_serial '^test march-c: start' &&
		usb_qmp "$qmp" '{"execute":"device_add","arguments":{"driver":"usb-kbd","bus":"xhci.0"}}' &&
		e2e_wait_serial "^keys: USB keyboards now: $KBD" && usb_key_until "$qmp" esc '^ramsift: result='
}
plug_then_esc &
typist=$!
e2e_boot "${USB_MACHINE[@]}" -device qemu-xhci,id=xhci -qmp "unix:$qmp,server=on,wait=off" -m 64M \
	-kernel "$ELF" -append "console=ttyS0,115200 $E2E_ARGS tests=march-c passes=0"
wait "$typist" || e2e_fail "the keyboard was not plugged in, or Esc not typed (above)"
typist=
e2e_expect "^keys: USB keyboards now: $KBD$" 'the keyboard plugged in, named'
[ "$E2E_RESULT" -eq 5 ] || e2e_fail "plugged in, Esc: want STOPPED, got ${E2E_RESULTS[$E2E_RESULT]}"
