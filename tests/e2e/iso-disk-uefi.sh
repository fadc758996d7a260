#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The test ISO as a raw hard disk under UEFI firmware (OVMF), the usual way a
# USB stick is started today: OVMF must find the EFI system partition of the
# hybrid image; GRUB (x86_64-efi) boots the default entry; one pass must pass.
. "$(dirname "$0")/lib.sh"

e2e_uefi
e2e_iso_disk
e2e_boot -m 256M "${E2E_UEFI[@]}" "${E2E_DISK[@]}"
e2e_expect '^BdsDxe: starting .*HARDDISK' 'OVMF boots the disk'
e2e_expect "Booting .ramsift: one pass, serial \+ screen'" 'GRUB boots the default entry'
e2e_expect_pass
e2e_expect_loader 'GRUB [^,]*' multiboot2
e2e_expect '^console: .*framebuffer' 'GRUB hands over a GOP framebuffer'
