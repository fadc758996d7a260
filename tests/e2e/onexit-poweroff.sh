#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# onexit=poweroff: after the result line ramsift powers the machine off
# through ACPI S5 (the FADT's PM1a control block, SLP_TYP from the DSDT's
# \_S5), and QEMU, started without isa-debug-exit and without -no-reboot,
# exits by itself with status 0: a reset would boot ramsift again instead,
# a halt would run into the time limit. On the pc and q35 machines, under
# SeaBIOS (QEMU -kernel, Multiboot 1) and OVMF (GRUB from an ISO,
# Multiboot 2). One log per boot: build/test/onexit-poweroff-<boot>.log.
. "$(dirname "$0")/lib.sh"

args="console=ttyS0,115200 onexit=poweroff bitfade=0 tests=address-walk"
iso=$E2E_DIR/$E2E_NAME.iso
sh iso/mkiso.sh -t 0 -a "$args" "$ELF" "$iso" || e2e_fail "iso/mkiso.sh $iso"

# boot NAME QEMU_ARGS...: QEMU alone, the serial log in build/test/
# onexit-poweroff-NAME.log; it must end by itself, powered off.
boot() {
	local name=$1 raw status=0 t0=$SECONDS
	shift
	E2E_LOG=$E2E_DIR/$E2E_NAME-$name.log
	raw=$E2E_LOG.serial
	timeout 120 qemu-system-x86_64 -accel tcg -display none -monitor none -serial "file:$raw" "$@" \
		2>"$E2E_DIR/$E2E_NAME.stderr" || status=$?
	sed -e 's/\r//g' -e 's/\x1b\[[0-9;=?]*[A-Za-z]//g' "$raw" >"$E2E_LOG"
	rm -f "$raw"
	[ "$status" -eq 0 ] || e2e_fail "$name: QEMU exit status: want 0 (the guest powered off), got $status" \
		"$([ "$status" -eq 124 ] && echo '(the time limit)')"
	[ "$(e2e_results 'PASS ')" -eq 1 ] ||
		e2e_fail "$name: want one run that passed (a reset would have started another)"
	e2e_expect '^power: ACPI S5 through PM1a control at I/O port 0x[0-9a-f]+ \(SLP_TYP [0-7]\)' \
		"$name: the FADT's S5 registers named at start-up"
	e2e_expect '^ramsift: powering off$' "$name: power-off announced"
	e2e_expect_no '^(warning|error): ' "$name: a clean run and power-off"
	e2e_expect_no '^ramsift: halted' "$name: powered off, not halted"
	e2e_check_json
	printf '          %-34s %4d s\n' "$E2E_NAME/$name" $((SECONDS - t0))
}

for machine in pc q35; do
	boot "$machine-bios" -machine "$machine" -m 64M -kernel "$ELF" -append "$args"
	e2e_expect_loader qemu multiboot
	e2e_uefi	# a fresh variable store: the other machine's boot entries would not do
	boot "$machine-uefi" -machine "$machine" -m 256M "${E2E_UEFI[@]}" -cdrom "$iso"
	e2e_expect_loader 'GRUB [^,]*' multiboot2
	e2e_expect '^firmware: UEFI ' "$machine-uefi: booted through UEFI"
done
rm -f "$iso"
