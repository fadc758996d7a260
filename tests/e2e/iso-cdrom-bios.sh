#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The test ISO as a CD under SeaBIOS: GRUB (BIOS) boots the default menu entry,
# Multiboot 2, at once; one pass must pass.
. "$(dirname "$0")/lib.sh"

e2e_boot -m 128M -cdrom "$TEST_ISO"
e2e_expect "Booting .ramsift: one pass, serial \+ screen'" 'GRUB boots the default entry'
e2e_expect_pass
e2e_expect_loader 'GRUB [^,]*' multiboot2
e2e_expect '^console: VGA text screen' 'GRUB keeps the VGA text screen'
