#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Network boot under SeaBIOS through iPXE, the e1000's option ROM: QEMU's
# DHCP and TFTP server (user networking) offers ramsift.ipxe from the test's
# TFTP tree (make netboot's, from the test ISO); iPXE runs the script, which
# loads boot/ramsift.elf from the server as a Multiboot 1 image with the
# script's options; one pass must pass.
. "$(dirname "$0")/lib.sh"

e2e_boot -m 64M -netdev "user,id=net,tftp=$TEST_TFTP,bootfile=ramsift.ipxe" \
	-device e1000,netdev=net -boot n
e2e_expect_pass
e2e_expect_loader 'iPXE [^,]*' multiboot
e2e_expect "command line: 'tftp://10\.0\.2\.2/boot/ramsift\.elf console=ttyS0,115200 console=tty0 $E2E_ARGS'\$" \
	"iPXE loads boot/ramsift.elf from the TFTP server with the script's options"
