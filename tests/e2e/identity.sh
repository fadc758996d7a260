#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The machine's identity: what QEMU's -smbios type=1 and type=17 options set
# (a comma, double quotes and a backslash among them) appears in the
# machine: and dimm: lines at the start of the log and in the json: line
# (e2e_boot's check holds the JSON to the lines; this asserts both against
# the values given). The SMBIOS entry point found by the BIOS scan (pc,
# SeaBIOS's 2.x; q35 with smbios-entry-point-type=64, 3.0) and, under UEFI
# (OVMF, GRUB from the test ISO, which gives no SMBIOS tag), through the EFI
# system table's configuration table (SMBIOS_TABLE_GUID's 2.8, and
# SMBIOS3_TABLE_GUID's 3.0 with smbios-entry-point-type=64). One log per boot:
# build/test/identity-<boot>.log.
. "$(dirname "$0")/lib.sh"

type1='type=1,manufacturer=Fleet Lab,product=Rack 7,, Node "B",version=v2\3,serial=SN-0042,uuid=6f1a7c2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b'
type17='type=17,loc_pfx=SLOT,bank=Bank A,manufacturer=ACME,serial=D-1,part=PN-64,speed=3200'
machine='machine: manufacturer="Fleet Lab" product="Rack 7, Node \"B\"" version="v2\\3" serial="SN-0042" uuid=6f1a7c2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b'

# boot NAME QEMU_ARGS...: e2e_boot with its own log, the identity given.
boot() {
	E2E_LOG=$E2E_DIR/$E2E_NAME-$1.log
	shift
	e2e_boot -smbios "$type1" -smbios "$type17" "$@"
}

# want VERSION ENTRY DIMMS: the lines and the JSON say what was set; the
# SMBIOS version and where the entry point came from; DIMMS lines of
# size_mib=SIZE each (QEMU describes at most 16 GiB a device).
want() {
	local json dimms
	e2e_expect_pass
	grep -qxF "$machine smbios=$1 entry=$2" "$E2E_LOG" ||
		e2e_fail "want the line: $machine smbios=$1 entry=$2"
	dimms=$(grep -c '^dimm: ' "$E2E_LOG") || true
	[ "$dimms" -eq "$3" ] || e2e_fail "want $3 dimm: lines, got $dimms"
	e2e_expect '^dimm: locator="SLOT 0" bank="Bank A" installed=yes size_mib=[0-9]+ speed_mts=3200 manufacturer="ACME" serial="D-1" part_number="PN-64"$' \
		'the memory device as set'
	json=$E2E_DIR/$E2E_NAME.json
	sed -n 's/^json: //p' "$E2E_LOG" >"$json"
	for kv in 'machine.manufacturer=Fleet Lab' 'machine.product=Rack 7, Node "B"' 'machine.version=v2\3' \
		'machine.serial=SN-0042' 'machine.uuid=6f1a7c2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b' \
		"machine.smbios=$1" "machine.entry=$2" "dimms=array $3"; do
		got=$("$E2E_JSONCHECK" --get "${kv%%=*}" "$json") || got='(none)'
		[ "$got" = "${kv#*=}" ] || e2e_fail "JSON ${kv%%=*}: want '${kv#*=}', got '$got'"
	done
	rm -f "$json"
}

boot pc -machine pc -m 64M -kernel "$ELF" -append "console=ttyS0,115200 $E2E_ARGS tests=address-walk"
want 2.8 scan 1
boot q35-v3 -machine q35,smbios-entry-point-type=64 -m 64M -kernel "$ELF" \
	-append "console=ttyS0,115200 $E2E_ARGS tests=address-walk"
want 3.0 scan 1
for v3 in 0 1; do
	e2e_uefi
	if [ "$v3" = 1 ]; then
		boot q35-uefi-v3 -machine q35,smbios-entry-point-type=64 -m 256M "${E2E_UEFI[@]}" \
			-cdrom "$TEST_ISO"
	else
		boot q35-uefi -machine q35 -m 256M "${E2E_UEFI[@]}" -cdrom "$TEST_ISO"
	fi
	e2e_expect '^firmware: UEFI ' 'booted through UEFI'
	want "$([ "$v3" = 1 ] && echo 3.0 || echo 2.8)" efi 1
done

# Without the options: QEMU's own identity, still in both.
E2E_LOG=$E2E_DIR/$E2E_NAME-default.log
e2e_boot -m 64M -kernel "$ELF" -append "console=ttyS0,115200 $E2E_ARGS tests=address-walk"
e2e_expect_pass
e2e_expect '^machine: manufacturer="QEMU" product="Standard PC \(i440FX \+ PIIX, 1996\)" .* uuid=unknown smbios=2\.8 entry=scan$' \
	"QEMU's own identity"
e2e_expect '^dimm: locator="DIMM 0" bank="" installed=yes size_mib=64 ' "QEMU's one memory device"
