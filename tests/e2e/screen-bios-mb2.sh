#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What a person sees on a BIOS PC booting the ISO: SeaBIOS, the ISO's
# default entry, GRUB's multiboot2 setting a VBE framebuffer (1024x768x32,
# what the header asks for), and two stuck bits held in RAM. While march-c
# runs, the status screen names pass 1 and march-c and its log pane, read
# back pixel by pixel with the built-in font, shows the log's last lines;
# at the end the result panel (FAIL) differs from it, and its QR code
# decodes to the result line, the GRUB_BADRAM= line and the memmap= line.
. "$(dirname "$0")/lib.sh"
. tests/screen/lib.sh

iso=$E2E_DIR/$E2E_NAME.iso
# march-c eight times (about a second each here): the status screen is
# caught while march-c runs, and a loaded host has seen its start line
# three seconds late.
tests=march-c,march-c,march-c,march-c,march-c,march-c,march-c,march-c
sh iso/mkiso.sh -t 0 -a "onexit=halt bitfade=0 tests=$tests" "$ELF" "$iso" || e2e_fail "no ISO"
screen_faults 128M
screen_start "${E2E_HELD[@]}" -cdrom "$iso"
screen_wait '^test march-c: start pass=1 ' 'the first pass reaches march-c'
e2e_expect '^console: framebuffer 1024x768x32 at 0x[0-9a-f]+: 128x48 text$' \
	'the framebuffer console on the mode the header asks for'
screen_check_status "$E2E_NAME-status" march-c
screen_monitor cont
screen_wait_end 'the run ends (its result line is the last; then it waits for a key)'
screen_check_result "$E2E_NAME-result" "$E2E_NAME-status" fb
screen_monitor quit
screen_end
e2e_expect '^ramsift: result=FAIL passes=1 ' 'the run fails on the stuck bits'
e2e_expect_loader 'GRUB [^,]*' multiboot2
e2e_expect_no '^firmware: UEFI' 'a BIOS boot'
rm -f "$iso"
