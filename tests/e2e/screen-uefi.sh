#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What a person sees on a UEFI PC: the test ISO's default entry under OVMF,
# GRUB's multiboot2 with a GOP framebuffer (1024x768x32, what the header
# asks for). While march-c runs, the screen, read back pixel by pixel with
# the built-in font, must show the log's last lines; then the pass passes.
. "$(dirname "$0")/lib.sh"
. tests/screen/lib.sh

e2e_uefi
screen_start -m 256M "${E2E_UEFI[@]}" -cdrom "$TEST_ISO"
screen_wait '^test march-c: start pass=1 ' 'the first pass reaches march-c'
e2e_expect '^console: framebuffer 1024x768x32 at 0x[0-9a-f]+: 128x48 text$' \
	'the framebuffer console on the mode the header asks for'
e2e_expect '^paging: .*; framebuffer write-combining$' 'the framebuffer mapped write-combining'
screen_check_fb screen-uefi
screen_monitor cont
screen_end
e2e_expect_pass
e2e_expect_loader 'GRUB [^,]*' multiboot2
