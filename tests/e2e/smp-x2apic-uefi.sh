#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# CPUs that UEFI firmware left in x2APIC mode (memtest86+'s issues 70, 140
# and 445: all but one CPU idle there). smp-x2apic.sh's machine, q35 with
# APIC IDs 0, 1, 256 and 257, booted by OVMF from the test ISO through
# GRUB's x86_64-efi and Multiboot 2: OVMF turns every CPU's x2APIC on for
# the IDs above 255 and leaves it on at ExitBootServices. Debian 13's QEMU
# 10 (dev/trixie-qemu.sh) runs it. Expected: the four CPUs named, x2APIC
# mode on all of them as the firmware left it, a clean PASS.
. "$(dirname "$0")/lib.sh"

E2E_ACCEL=tcg,thread=multi
E2E_QEMU=dev/trixie-qemu.sh
e2e_uefi
e2e_x2apic
e2e_boot "${E2E_X2APIC[@]}" -m 256M "${E2E_UEFI[@]}" -cdrom "$TEST_ISO"
e2e_expect '^firmware: UEFI ' 'booted through UEFI'
e2e_expect '^cpus: 4 found in the MADT, 4 started \(APIC IDs 0 1 256 257\)$' \
	'x2APIC IDs: the four CPUs started'
e2e_expect '^apic: x2APIC mode on all 4 CPUs started, as the firmware left it$' 'every CPU in x2APIC mode'
e2e_expect_pass
