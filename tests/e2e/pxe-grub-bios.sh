#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Network boot under SeaBIOS through GRUB's PXE image: the e1000's option ROM
# (iPXE, as the NIC's PXE firmware) fetches boot/grub/i386-pc/core.0, the
# bootfile QEMU's DHCP server offers from the test's TFTP tree; GRUB reads
# boot/grub/grub.cfg and boot/ramsift.elf from the same server over PXE and
# boots the default entry (Multiboot 2); one pass must pass.
. "$(dirname "$0")/lib.sh"

e2e_boot -m 128M -netdev "user,id=net,tftp=$TEST_TFTP,bootfile=boot/grub/i386-pc/core.0" \
	-device e1000,netdev=net -boot n
e2e_expect "Booting .ramsift: one pass, serial \+ screen'" 'GRUB boots the default entry'
e2e_expect_pass
e2e_expect_loader 'GRUB [^,]*' multiboot2
e2e_expect "command line: 'console=ttyS0,115200 console=tty0 $E2E_ARGS'\$" "the menu's command line"
