# SPDX-License-Identifier: GPL-2.0-or-later
# Keys on USB keyboards in the usb-*.sh scenarios, sourced after lib.sh: a
# q35 without an i8042 (so QEMU's keys reach the USB keyboard alone, and
# the FADT says there is no 8042), keys typed once a log line is there.

# The machine's options besides the controllers and keyboards.
USB_MACHINE=(-machine q35,i8042=off)

# usb_event DOWN QCODE: one key event of QMP's input-send-event.
usb_event() {
	printf '{"type":"key","data":{"down":%s,"key":{"type":"qcode","data":"%s"}}}' "$1" "$2"
}

# usb_qmp SOCKET COMMAND...: the QMP commands (JSON, one an argument) on
# SOCKET (-qmp unix:SOCKET,server=on,wait=off), QEMU's answers kept in
# build/test/<name>.monitor.
usb_qmp() {
	local sock=$1
	shift
	e2e_wait_socket "$sock" || return 1
	# QMP keeps the connection open: socat closes it 2 s after the last
	# command went out, time enough for QEMU to take them.
	printf '%s\n' '{"execute":"qmp_capabilities"}' "$@" |
		socat -t 2 - "UNIX-CONNECT:$sock" >>"$E2E_DIR/$E2E_NAME.monitor" 2>&1
}

# usb_key SOCKET QCODE [DEVICE]: press and release QCODE (QEMU's key
# names: esc, s, q, a) through QMP on SOCKET, on the keyboard bound
# (usb-kbd's display=) to the display device of id DEVICE, else on the one
# QEMU's input routing picks.
usb_key() {
	local dev=${3:+\"device\":\"$3\",}
	usb_qmp "$1" "{\"execute\":\"input-send-event\",\"arguments\":{$dev\"events\":[$(usb_event true "$2")]}}" \
		"{\"execute\":\"input-send-event\",\"arguments\":{$dev\"events\":[$(usb_event false "$2")]}}"
}

# usb_key_until SOCKET QCODE ERE [DEVICE]: usb_key, again every 3 s until
# the raw serial log has a line matching ERE, 10 times at most: keys typed
# while ramsift moves itself are lost (the keyboards enumerate again). Done
# too once the boot ended (e2e_boot took the raw log): the scenario then
# judges the log.
usb_key_until() {
	local try wait raw=$E2E_DIR/$E2E_NAME.serial
	for try in $(seq 10); do
		usb_key "$1" "$2" ${4-} || [ ! -e "$raw" ] || return 1
		for wait in $(seq 60); do
			[ -e "$raw" ] || return 0
			grep -qaE -- "$3" "$raw" 2>/dev/null && return 0
			sleep 0.05
		done
	done
	echo "$E2E_NAME: $2 typed 10 times, no line matching $3" >&2
	return 1
}
