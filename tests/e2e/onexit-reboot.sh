#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# onexit=reboot: after the result line ramsift resets the machine. With
# -no-reboot QEMU turns the reset into a clean exit (status 0) instead of a
# new boot, so status 0 plus the "rebooting" line prove the reset happened
# (a halt would run into the time limit instead). The first way that works
# is the one logged last: on q35, whose FADT has a reset register (I/O port
# 0xcf9, value 0xf), that register; on pc, whose FADT (ACPI 1.0) has none,
# the keyboard controller. Under SeaBIOS (QEMU -kernel) on both, and under
# OVMF on q35 (GRUB from an ISO). One log per boot:
# build/test/onexit-reboot-<boot>.log.
. "$(dirname "$0")/lib.sh"

args="console=ttyS0,115200 onexit=reboot bitfade=0 tests=address-walk"

# boot NAME WAY QEMU_ARGS...: QEMU alone with -no-reboot; it must exit by
# the reset, which WAY (the end of the power: line) made.
boot() {
	local name=$1 way=$2 raw status=0
	shift 2
	E2E_LOG=$E2E_DIR/$E2E_NAME-$name.log
	raw=$E2E_LOG.serial
	timeout 120 qemu-system-x86_64 -accel tcg -no-reboot -display none -monitor none \
		-serial "file:$raw" "$@" 2>"$E2E_DIR/$E2E_NAME.stderr" || status=$?
	sed -e 's/\r//g' -e 's/\x1b\[[0-9;=?]*[A-Za-z]//g' "$raw" >"$E2E_LOG"
	rm -f "$raw"
	e2e_expect '^ramsift: result=PASS ' "$name: result line"
	e2e_expect '^ramsift: rebooting$' "$name: reboot announced"
	[ "$(grep '^power: reset through ' "$E2E_LOG" | tail -n 1)" = "power: reset through $way" ] ||
		e2e_fail "$name: want the reset through $way, the last way tried"
	e2e_expect_no '^(warning|error): ' "$name: a clean run and reset"
	[ "$status" -eq 0 ] || e2e_fail "$name: QEMU exit status: want 0 (the guest reset itself), got $status"
	e2e_check_json
}

boot pc 'the keyboard controller' -machine pc -m 64M -kernel "$ELF" -append "$args"
boot q35 'the ACPI reset register (I/O port 0xcf9, value 0xf)' -machine q35 -m 64M -kernel "$ELF" \
	-append "$args"
iso=$E2E_DIR/$E2E_NAME.iso
sh iso/mkiso.sh -t 0 -a "$args" "$ELF" "$iso" || e2e_fail "iso/mkiso.sh $iso"
e2e_uefi
boot q35-uefi 'the ACPI reset register (I/O port 0xcf9, value 0xf)' -machine q35 -m 256M \
	"${E2E_UEFI[@]}" -cdrom "$iso"
e2e_expect '^firmware: UEFI ' 'q35-uefi: booted through UEFI'
rm -f "$iso"
