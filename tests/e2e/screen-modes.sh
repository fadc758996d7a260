#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The framebuffer console at the resolutions and pixel formats PCs have:
# GRUB (multiboot2) sets each mode through VBE under SeaBIOS, 1920x1080 also
# through GOP under OVMF (an ISO per mode, `set gfxpayload=MODE` after the
# multiboot2 line). One short pass each (own-address) with onexit=halt; at
# the halt, the result panel's QR code must decode (zbarimg) to the result
# line, the panel's cells, read back with the built-in font (2x from 1600
# pixels wide), must show the result line and the log's last line under it,
# and the console line name the mode. PNGs of the screens up to 1920 wide
# stay in build/test/.
. "$(dirname "$0")/lib.sh"
. tests/screen/lib.sh

MODES_BIOS="640x480x32 1920x1080x32 3840x2160x32 1024x768x24 1024x768x16 1024x768x15"
MODES_UEFI="1920x1080x32"
ARGS="onexit=halt bitfade=0 tests=own-address"

# one FIRMWARE MODE: boot the mode's ISO, check the screen at the halt.
one() {
	local fw=$1 mode=$2 iso=$E2E_DIR/$E2E_NAME-$2.iso name=$E2E_NAME-$1-$2 fwargs=()
	local w=${mode%%x*} rest=${mode#*x}
	sh iso/mkiso.sh -t 0 -g "$mode" -a "$ARGS" "$ELF" "$iso" || e2e_fail "$mode: no ISO"
	[ "$fw" = bios ] || { e2e_uefi; fwargs=("${E2E_UEFI[@]}"); }
	# 64 MiB of video memory: 3840x2160 at 4 bytes a pixel takes 32.
	screen_start -m 128M -vga none -device VGA,vgamem_mb=64 "${fwargs[@]}" -cdrom "$iso"
	screen_wait_end "$fw $mode: the run ends (its result line is the last)"
	e2e_expect "^ramsift: result=PASS " "$fw $mode: the run passes"
	e2e_expect "^console: framebuffer ${w}x${rest%x*}x${rest#*x} at 0x" "$fw $mode: the mode GRUB was asked for"
	screen_wait_end "$fw $mode: the run ends (its result line is the last)"
	screen_check_result "$name" "" fb
	[ "$w" -le 1920 ] || rm -f "$E2E_DIR/$name.png"
	screen_monitor quit
	screen_end
	rm -f "$iso"
}

for mode in $MODES_BIOS; do
	one bios "$mode"
done
for mode in $MODES_UEFI; do
	one uefi "$mode"
done
