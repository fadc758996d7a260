#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# GRUB's Multiboot 1 loader (the ISO's `multiboot` entry) under SeaBIOS: its
# path differs from QEMU's -kernel and from GRUB's Multiboot 2; one pass must
# pass. The -mb1 test ISO makes that entry the default.
. "$(dirname "$0")/lib.sh"

e2e_boot -m 128M -cdrom "$TEST_ISO_MB1"
e2e_expect "Booting .ramsift: .*\(Multiboot 1\)'" 'GRUB boots the Multiboot 1 entry'
e2e_expect_pass
e2e_expect_loader 'GRUB [^,]*' multiboot
e2e_expect '^console: VGA text screen' 'GRUB keeps the VGA text screen'
