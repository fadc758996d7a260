#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Network boot under OVMF through iPXE, the e1000's option ROM in its UEFI
# build: the DHCP server (QEMU's user networking) offers ramsift.ipxe from
# the test's TFTP tree; iPXE on UEFI has no Multiboot loader, so the script
# chains GRUB's network image boot/grub/x86_64-efi/core.efi, which boots the
# menu's default entry (Multiboot 2) from the same server; one pass must pass.
. "$(dirname "$0")/lib.sh"

e2e_uefi
e2e_boot -m 128M "${E2E_UEFI[@]}" -netdev "user,id=net,tftp=$TEST_TFTP,bootfile=ramsift.ipxe" \
	-device e1000,netdev=net,bootindex=0
e2e_expect '^ramsift\.ipxe : [0-9]+ bytes \[script\]' 'iPXE runs the script'
e2e_expect '^boot/grub/x86_64-efi/core\.efi\.\.\. ok' "the script chains GRUB's EFI image"
e2e_expect "Booting .ramsift: one pass, serial \+ screen'" 'GRUB boots the default entry'
e2e_expect_pass
e2e_expect_loader 'GRUB [^,]*' multiboot2
e2e_expect '^firmware: UEFI ' 'ramsift knows the machine booted through UEFI'
