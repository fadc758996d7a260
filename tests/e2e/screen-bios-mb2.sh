#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What a person sees on a BIOS PC booting the ISO: SeaBIOS, the test ISO's
# default entry, GRUB's multiboot2 setting a VBE framebuffer (1024x768x32,
# what the header asks for; GRUB no longer keeps text mode). While march-c
# runs, the screen, read back pixel by pixel with the built-in font, must
# show the log's last lines; then the pass passes.
. "$(dirname "$0")/lib.sh"
. tests/screen/lib.sh

screen_start -m 128M -cdrom "$TEST_ISO"
screen_wait '^test march-c: start pass=1 ' 'the first pass reaches march-c'
e2e_expect '^console: framebuffer 1024x768x32 at 0x[0-9a-f]+: 128x48 text$' \
	'the framebuffer console on the mode the header asks for'
screen_check_fb screen-bios-mb2
screen_monitor cont
screen_end
e2e_expect_pass
e2e_expect_loader 'GRUB [^,]*' multiboot2
e2e_expect_no '^firmware: UEFI' 'a BIOS boot'
