#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# usb=off: a q35 without an i8042 and with an xHCI controller and a USB
# keyboard. ramsift looks for no USB controller (none is named, no USB
# keyboard is read), leaves port 0x64 alone because the FADT says there is
# no 8042, reads the serial console only, and the run completes: PASS.
. "$(dirname "$0")/lib.sh"

e2e_boot -machine q35,i8042=off -device qemu-xhci -device usb-kbd -m 64M -kernel "$ELF" \
	-append "console=ttyS0,115200 $E2E_ARGS tests=march-c usb=off"
e2e_expect_pass
e2e_expect '^usb: off \(usb=off\): every USB controller is left as the firmware left it$' \
	'usb=off, said'
e2e_expect_no '^usb: (xHCI|EHCI|UHCI|OHCI) ' 'no USB controller looked at'
e2e_expect_no 'USB keyboard' 'no USB keyboard named'
e2e_expect '^keys: the ACPI FADT says there is no i8042 keyboard controller; it is not probed$' \
	'the FADT without the 8042 flag'
e2e_expect '^keys: serial ttyS0$' 'the serial console alone read'
