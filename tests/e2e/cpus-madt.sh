#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The CPUs from the ACPI MADT: at -smp 4, ramsift names the 4 APIC IDs that
# SeaBIOS's MADT lists, on the pc and q35 machines, with the RSDP found by
# the BIOS scan (QEMU -kernel, Multiboot 1) and from GRUB's ACPI tag (the
# test ISO, Multiboot 2); under UEFI (OVMF's ACPI 2.0 RSDP in GRUB's tag 15,
# through the XSDT) at -smp 2; without ACPI tables (acpi=off) it says the
# BSP tests alone, and the pass still passes. One log per boot:
# build/test/cpus-madt-<boot>.log.
. "$(dirname "$0")/lib.sh"

# boot NAME QEMU_ARGS...: e2e_boot with its own log.
boot() {
	E2E_LOG=$E2E_DIR/$E2E_NAME-$1.log
	shift
	e2e_boot "$@"
}

for machine in pc q35; do
	boot "$machine" -machine "$machine" -smp 4 -m 64M -kernel "$ELF" \
		-append "console=ttyS0,115200 $E2E_ARGS"
	e2e_expect_pass
	e2e_expect '^cpus: 4 found in the MADT, 4 started \(APIC IDs 0 1 2 3\)$' "$machine: the MADT's 4 CPUs"
done

boot q35-grub -machine q35 -smp 4 -m 128M -cdrom "$TEST_ISO"
e2e_expect_pass
e2e_expect_loader 'GRUB [^,]*' multiboot2
e2e_expect '^cpus: 4 found in the MADT, 4 started \(APIC IDs 0 1 2 3\)$' "q35 under GRUB: the MADT's 4 CPUs"

e2e_uefi
boot q35-uefi -machine q35 -smp 2 -m 256M "${E2E_UEFI[@]}" -cdrom "$TEST_ISO"
e2e_expect_pass
e2e_expect '^firmware: UEFI ' 'booted through UEFI'
e2e_expect '^cpus: 2 found in the MADT, 2 started \(APIC IDs 0 1\)$' "q35 under UEFI: the MADT's 2 CPUs"

# No ACPI: a warning, the one allowed.
boot no-acpi -machine pc,acpi=off -smp 2 -m 64M -kernel "$ELF" \
	-append "console=ttyS0,115200 $E2E_ARGS"
e2e_expect '^warning: cpus: no MADT found \(no ACPI RSDP in the loader.s tags or the BIOS areas\); the BSP tests alone$' \
	'no ACPI: the BSP alone, said'
e2e_expect_no '^cpus: ' 'no ACPI: no CPU list'
[ "$(grep -c '^warning: ' "$E2E_LOG")" -eq 1 ] || e2e_fail 'no ACPI: want exactly one warning'
e2e_expect '^ramsift: result=PASS ' 'no ACPI: the pass passes'
[ "$E2E_RESULT" -eq 0 ] || e2e_fail "no ACPI: want PASS, got ${E2E_RESULTS[$E2E_RESULT]}"
