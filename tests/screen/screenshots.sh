#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `make screenshots`: pictures of the status screen and the result panel
# from QEMU screendumps, for README: SeaBIOS, the ISO's default entry
# (GRUB, multiboot2, 1024x768x32), 512 MiB of RAM with two stuck bits held
# by build/host/ramsift-inject, march-c and bit-fade (its waits 10 s). The
# status screen is taken a few seconds into march-c, read back as the
# screen scenarios read it (status rows naming the test, the log pane
# showing the log); the result panel at the end, its QR code decoded.
# Writes build/screenshots/status-screen.png and result-panel.png
# (docs/ keeps a copy of each for README).
. "$(dirname "$0")/../e2e/lib.sh"
. tests/screen/lib.sh

out=$B/screenshots
iso=$E2E_DIR/$E2E_NAME.iso
mkdir -p "$out"
sh iso/mkiso.sh -t 0 -a "onexit=halt bitfade=10 tests=march-c,bit-fade" "$ELF" "$iso" || e2e_fail "no ISO"
screen_faults 512M
screen_start "${E2E_HELD[@]}" -cdrom "$iso"
screen_wait '^test march-c: start pass=1 ' 'the first pass reaches march-c'
screen_wait '^ERROR addr=0x0000000007000010 ' 'march-c finds the second stuck bit'
sleep 3
# The status rows say test 1 of 2 here: not screen_check_status's 1 of 1.
for try in 1 2 3 4 5; do
	read -r size scale < <(screen_text_size)
	screen_read_status "$E2E_NAME-status" "$size" "$scale" &&
		grep -Eq '^screencheck: row 4: +Pass +1 of 1 +test 1 of 2: march-c$' "$E2E_DIR/$E2E_NAME-status.rows" && break
	[ "$try" -lt 5 ] || { cat "$E2E_DIR/$E2E_NAME-status.rows" >&2; e2e_fail "no status screen"; }
	screen_monitor cont
	sleep 0.3
done
cp "$E2E_DIR/$E2E_NAME-status.png" "$out/status-screen.png"
screen_monitor cont
screen_wait_end 'the run ends (its result line is the last; then it waits for a key)'
screen_check_result "$E2E_NAME-result" "$E2E_NAME-status" fb
cp "$E2E_DIR/$E2E_NAME-result.png" "$out/result-panel.png"
screen_monitor quit
screen_end
rm -f "$iso"
echo "    $out/status-screen.png and $out/result-panel.png written"
