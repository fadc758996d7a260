#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Network boot under OVMF through GRUB's EFI network image: OVMF's own PXE
# (a virtio NIC without option ROM, so the firmware's driver and PXE client
# do it, as on a UEFI PC) downloads boot/grub/x86_64-efi/core.efi, the
# bootfile QEMU's DHCP server offers from the test's TFTP tree; GRUB reads
# boot/grub/grub.cfg and boot/ramsift.elf from the same server and boots the
# default entry (Multiboot 2); one pass must pass.
. "$(dirname "$0")/lib.sh"

e2e_uefi
e2e_boot -m 128M "${E2E_UEFI[@]}" \
	-netdev "user,id=net,tftp=$TEST_TFTP,bootfile=boot/grub/x86_64-efi/core.efi" \
	-device virtio-net-pci,netdev=net,romfile=,bootindex=0
e2e_expect 'NBP filename is boot/grub/x86_64-efi/core\.efi' "OVMF's PXE client fetches GRUB's image"
e2e_expect "Booting .ramsift: one pass, serial \+ screen'" 'GRUB boots the default entry'
e2e_expect_pass
e2e_expect_loader 'GRUB [^,]*' multiboot2
e2e_expect '^firmware: UEFI ' 'ramsift knows the machine booted through UEFI'
