#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The VGA text screen: SeaBIOS, the ISO's Multiboot 1 entry, which keeps
# text mode. While march-c runs, the 80x25 text buffer (read through QEMU's
# monitor) must hold the log's last lines, light grey on black, and the
# screendump must not be blank; then the pass passes.
. "$(dirname "$0")/lib.sh"
. tests/screen/lib.sh

text=$E2E_DIR/$E2E_NAME.text
shot=$E2E_DIR/$E2E_NAME.ppm
screen_start -m 128M -cdrom "$TEST_ISO_MB1"
screen_wait '^test march-c: start pass=1 ' 'the first pass reaches march-c'
e2e_expect '^console: VGA text screen$' 'the VGA text console'
for try in 1 2 3; do
	screen_monitor stop
	screen_log
	rm -f "$text"
	screen_monitor "pmemsave 0xb8000 4000 $text"
	screen_wait_file "$text" 4000
	if out=$("$SCREENCHECK" vga "$text" 80x25 "$E2E_LOG" 2>&1); then
		break
	fi
	[ "$try" -lt 3 ] || { echo "$out" >&2; e2e_fail "the VGA text buffer does not show the log"; }
	screen_monitor cont
	sleep 0.5
done
echo "    $E2E_NAME: $out"
screen_dump "$shot"
out=$("$SCREENCHECK" png "$shot" "$E2E_DIR/$E2E_NAME.png" 2>&1) || { echo "$out" >&2; e2e_fail "blank screen"; }
echo "    $E2E_NAME: $out"
rm -f "$shot" "$text"
screen_monitor cont
screen_end
e2e_expect_pass
e2e_expect_loader 'GRUB [^,]*' multiboot
