#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The test ISO as a CD under UEFI firmware (OVMF): GRUB (x86_64-efi) boots the
# default entry, Multiboot 2, at once; one pass must pass.
. "$(dirname "$0")/lib.sh"

e2e_uefi
e2e_boot -m 256M "${E2E_UEFI[@]}" -cdrom "$TEST_ISO"
e2e_expect '^BdsDxe: starting .*DVD-ROM' 'OVMF boots the CD'
e2e_expect "Booting .ramsift: one pass, serial \+ screen'" 'GRUB boots the default entry'
e2e_expect_pass
e2e_expect_loader 'GRUB [^,]*' multiboot2
e2e_expect '^console: .*framebuffer' 'GRUB hands over a GOP framebuffer'
e2e_expect '^firmware: UEFI ' 'ramsift knows the machine booted through UEFI'
