#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The VGA text screen: SeaBIOS, the ISO's Multiboot 1 entry, which keeps
# text mode, and two stuck bits held in RAM. While march-c runs, the 80x25
# text buffer (read through QEMU's monitor) must show the status rows naming
# pass 1 and march-c, and below them the log's last lines, light grey on
# black. At the end the result panel switches the screen to 80x50 so that
# its QR code fits in half blocks, and the code in the screendump decodes to
# the result line, the GRUB_BADRAM= line and the memmap= line.
. "$(dirname "$0")/lib.sh"
. tests/screen/lib.sh

iso=$E2E_DIR/$E2E_NAME.iso
# march-c eight times (about a second each here): the status screen is
# caught while march-c runs, and a loaded host has seen its start line
# three seconds late.
tests=march-c,march-c,march-c,march-c,march-c,march-c,march-c,march-c
sh iso/mkiso.sh -t 0 -e mb1 -a "onexit=halt bitfade=0 tests=$tests" "$ELF" "$iso" || e2e_fail "no ISO"
screen_faults 128M
screen_start "${E2E_HELD[@]}" -cdrom "$iso"
screen_wait '^test march-c: start pass=1 ' 'the first pass reaches march-c'
e2e_expect '^console: VGA text screen$' 'the VGA text console'
screen_check_status "$E2E_NAME-status" march-c vga
screen_monitor cont
screen_wait_end 'the run ends (its result line is the last; then it waits for a key)'
screen_check_result "$E2E_NAME-result" "$E2E_NAME-status"
screen_monitor quit
screen_end
e2e_expect '^ramsift: result=FAIL passes=1 ' 'the run fails on the stuck bits'
e2e_expect_loader 'GRUB [^,]*' multiboot
rm -f "$iso" "$E2E_DIR/$E2E_NAME-status.text"
