#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# QEMU loads the image itself (-kernel: Multiboot 1 through the a.out kludge)
# into a 64 MiB machine; one pass of the default tests must pass, and the
# nvram: line say that a BIOS keeps no result.
. "$(dirname "$0")/lib.sh"

e2e_boot -m 64M -kernel "$ELF" -append "console=ttyS0,115200 $E2E_ARGS"
e2e_expect_pass
e2e_expect_loader qemu multiboot
e2e_expect_no '^firmware: UEFI' 'QEMU -kernel is a BIOS boot'
e2e_expect '^nvram: BIOS boot: there is no UEFI variable store to keep the result in' \
	'a BIOS boot says nothing was kept'
