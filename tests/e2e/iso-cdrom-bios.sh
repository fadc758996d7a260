#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The test ISO as a CD under SeaBIOS: GRUB (BIOS) boots the default menu entry,
# Multiboot 2, at once, which sets a VBE framebuffer; one pass must pass.
. "$(dirname "$0")/lib.sh"

e2e_boot -m 128M -cdrom "$TEST_ISO"
e2e_expect "Booting .ramsift: one pass, serial \+ screen'" 'GRUB boots the default entry'
e2e_expect_pass
e2e_expect_loader 'GRUB [^,]*' multiboot2
e2e_expect '^console: framebuffer 1024x768x32 at 0x[0-9a-f]+: 128x48 text$' 'GRUB sets the VBE mode the header asks for; ramsift draws on it'
