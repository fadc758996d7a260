#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The test ISO as a raw hard disk under SeaBIOS, as `dd` to a USB stick makes
# it: the hybrid MBR must start GRUB (BIOS), which boots the default entry,
# Multiboot 2; one pass must pass.
. "$(dirname "$0")/lib.sh"

e2e_iso_disk
e2e_boot -m 128M "${E2E_DISK[@]}"
e2e_expect "Booting .ramsift: one pass, serial \+ screen'" 'GRUB boots the default entry'
e2e_expect_pass
e2e_expect_loader 'GRUB [^,]*' multiboot2
e2e_expect '^console: VGA text screen' 'GRUB keeps the VGA text screen'
