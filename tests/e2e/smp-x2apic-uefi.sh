#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# CPUs that UEFI firmware left in x2APIC mode (memtest86+'s issues 70, 140
# and 445: all but one CPU idle there). smp-x2apic.sh's machine, q35 with
# APIC IDs 0, 1, 256 and 257, booted by OVMF from the test ISO through
# GRUB's x86_64-efi and Multiboot 2: OVMF turns every CPU's x2APIC on for
# the IDs above 255 and leaves it on at ExitBootServices. Debian 13's QEMU
# 10 (tools/trixie-qemu.sh) runs it, with this machine's OVMF copied under
# build/test, where that QEMU sees files. Expected: the four CPUs named,
# x2APIC mode on all of them as the firmware left it, a clean PASS.
. "$(dirname "$0")/lib.sh"

E2E_ACCEL=tcg,thread=multi
E2E_QEMU=tools/trixie-qemu.sh
cpu() { echo "-device max-x86_64-cpu,x2apic=on,socket-id=$1,core-id=$2,thread-id=0"; }

e2e_uefi
code=$E2E_DIR/$E2E_NAME-code.fd
cp /usr/share/OVMF/OVMF_CODE_4M.fd "$code"
E2E_UEFI[1]="if=pflash,format=raw,readonly=on,file=$code"
# shellcheck disable=SC2046 # cpu's words are separate options
e2e_boot -machine q35 -cpu max,+x2apic -smp 2,maxcpus=512,sockets=2,cores=256,threads=1 \
	$(cpu 1 0) $(cpu 1 1) -m 256M "${E2E_UEFI[@]}" -cdrom "$TEST_ISO"
e2e_expect '^firmware: UEFI ' 'booted through UEFI'
e2e_expect '^cpus: 4 found in the MADT, 4 started \(APIC IDs 0 1 256 257\)$' \
	'x2APIC IDs: the four CPUs started'
e2e_expect '^apic: x2APIC mode on all 4 CPUs started, as the firmware left it$' 'every CPU in x2APIC mode'
e2e_expect_pass
