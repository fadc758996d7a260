#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# ramsift-reserve.efi under OVMF, with faults held in a 256 MiB guest. GRUB
# (from a grub-mkrescue medium) boots ramsift, which finds the faults and
# prints its efi-reserve: line. That line, and loader= naming the medium's
# own GRUB EFI image, become badpages.txt on a FAT ESP (mtools) whose
# \EFI\BOOT\BOOTX64.EFI is the pre-loader, booted first. The set is
# grub-roundtrip.sh's column, whose coarse pair straddles GRUB 2.06's own
# allocation: first GRUB's badram alone leaves it usable (KNOWN there, and
# asserted here still to happen), then the pre-loader reserves it before
# GRUB runs and ramsift's rerun through GRUB must pass, short by exactly the
# excluded pages.
. "$(dirname "$0")/lib-faults.sh"

rt_ram 256M
rt_firmware uefi
tests="tests=own-address"
iso=$E2E_DIR/$E2E_NAME.iso
esp=$E2E_DIR/$E2E_NAME-esp.img
uefi_straddle="GRUB's badram on UEFI leaves usable pages in or beside GRUB's own allocations"

# medium CFG_LINES: the GRUB medium $iso booting ramsift (multiboot2) after CFG_LINES.
medium() {
	rt_iso "$iso" <<-CFG
		set timeout=0
		$1
		menuentry ramsift {
			multiboot2 /boot/ramsift.elf $RT_ARGS $tests
		}
	CFG
}

# esp WORDS [FOLDER]: rt_esp for this scenario's medium and ESP.
esp() {
	rt_esp "$iso" "$esp" "$@"
}

# Every boot starts with fresh UEFI variables: the boot entries OVMF saved
# name the drives of the boot before, and it would try those first.
# boot_cd STEP: boot the GRUB medium $iso.
boot_cd() {
	rt_firmware uefi
	rt_boot "$1" "${RT_MEM[@]}" "${RT_FW[@]}" -cdrom "$iso"
}

# boot_esp STEP: boot from the ESP alone, with no NIC to try.
boot_esp() {
	rt_firmware uefi
	rt_boot "$1" "${RT_MEM[@]}" "${RT_FW[@]}" -drive "format=raw,file=$esp" -net none
}

rt_faults column --ram 0x1000000-0xe000000 --seed 8 'column@0x6000000-0xa000000'
rt_hold
medium ""
boot_cd find
rt_want FAIL
rt_check found "$RT_FAULTS" "$RT_LOG"
found=$RT_LOG
pairs=$(rt_line badram=)
words=$(rt_line 'efi-reserve: ')
[ "$words" = "badram=$pairs" ] || e2e_fail "efi-reserve: want badram=$pairs, got $words"
excluded=$(sed -nE 's/^fold: .* excluded_pages=([0-9]+) .*/\1/p' "$found")
usable=$(rt_bytes usable_bytes "$found")

# GRUB's badram alone: the pages it cannot cut stay usable.
medium "badram $pairs"
boot_cd badram
rt_known "$uefi_straddle" roundtrip "$found" "$RT_LOG"

# The pre-loader first: every matched page reserved, none refused.
medium ""
esp "$(grep '^efi-reserve: ' "$found")"
boot_esp reserve
e2e_expect "^ramsift-reserve: $excluded pages reserved as EfiUnusableMemory, 0 pages already " \
	"the pre-loader took all $excluded pages the pairs match"
e2e_expect '^ramsift-reserve: starting \\EFI\\BOOT\\grubx64.efi' 'the pre-loader chained to GRUB'
rt_want PASS
e2e_expect_no '^ERROR ' 'no fault left in the map'
rt_check roundtrip "$found" "$RT_LOG"
[ "$(rt_bytes tested_bytes)" = $((usable - excluded * 4096)) ] ||
	e2e_fail "want tested_bytes = $usable - $excluded pages, got $(rt_bytes tested_bytes)"

# chain STEP LOADER_LINE: boot a GRUB CD whose one entry finds the ESP
# and runs LOADER_LINE (a chainloader of the pre-loader), the ESP next.
chain() {
	rt_iso "$E2E_DIR/$E2E_NAME-$1.iso" <<-CFG
		set timeout=0
		menuentry chain {
			insmod fat
			search --no-floppy --file --set=root /EFI/ramsift/ramsift-reserve.efi
			$2
		}
	CFG
	rt_firmware uefi
	# OVMF connects only the devices with a boot index: the ESP needs one too.
	rt_boot "$1" "${RT_MEM[@]}" "${RT_FW[@]}" -net none \
		-drive "if=none,id=cd,media=cdrom,format=raw,file=$E2E_DIR/$E2E_NAME-$1.iso" -device ide-cd,drive=cd,bootindex=0 \
		-drive "if=none,id=esp,format=raw,file=$esp" -device ide-hd,drive=esp,bootindex=1
}

# After a chained boot: ramsift ran through the ESP's GRUB, and what the
# first GRUB still held could not be taken: every page the rerun finds
# must have been named so.
chained_ran() {
	e2e_expect '^ramsift-reserve: starting \\EFI\\BOOT\\grubx64.efi' 'the pre-loader chained to the ESP'"'"'s GRUB'
	e2e_expect '^ramsift: result=' 'ramsift ran'
	declare -A named
	while read -r start end; do
		for ((p = 16#$start >> 12; p <= 16#$end >> 12; p++)); do named[$p]=1; done
	done < <(sed -nE 's/^ramsift-reserve: cannot take 0x([0-9A-F]+)-0x([0-9A-F]+) .*/\1 \2/p' "$RT_LOG")
	for page in $(sed -nE 's/^ERROR addr=0x([0-9a-f]+) .*/\1/p' "$RT_LOG" | sort -u); do
		[ -n "${named[$((16#$page >> 12))]-}" ] ||
			e2e_fail "page 0x$page failed again but the pre-loader did not name it"
	done
}

# Started by GRUB's chainloader from a CD (docs/badram.md's entry to try
# it): the pre-loader finds badpages.txt in its own folder (GRUB names it
# in two file nodes) and starts the ESP's GRUB, which boots ramsift.
esp "$(grep '^efi-reserve: ' "$found")" ramsift
chain chain 'chainloader /EFI/ramsift/ramsift-reserve.efi'
e2e_expect '^ramsift-reserve: reading \\EFI\\ramsift\\badpages.txt' 'the file next to the chainloaded pre-loader'
chained_ran

# The load options alone, no badpages.txt: the words GRUB's chainloader
# passes after the file name (UCS-2) are the pairs and the loader; the
# pages the pre-loader took and those it could not are all the pairs match.
esp "" ramsift
chain options "chainloader /EFI/ramsift/ramsift-reserve.efi $words 'loader=\\EFI\\BOOT\\grubx64.efi'"
e2e_expect '^ramsift-reserve: no \\EFI\\ramsift\\badpages.txt on my partition: the load options alone' \
	'the pre-loader said the file is missing'
counts=$(sed -nE 's/^ramsift-reserve: ([0-9]+) pages reserved as EfiUnusableMemory, ([0-9]+) pages already .*/\1 \2/p' "$RT_LOG")
[ -n "$counts" ] && [ $((${counts% *} + ${counts#* })) = "$excluded" ] ||
	e2e_fail "want the $excluded pages the pairs match reserved or named, got '$counts'"
chained_ran

# A page the firmware holds when the pre-loader runs (OVMF's boot-services
# memory below the top of a 256 MiB guest, usable once the OS has booted):
# the pre-loader must name it and its type, and the rerun still finds it.
rt_faults held --ram 0xf800000-0xfe00000 --seed 11 cells:1
rt_hold
medium ""
boot_cd held-find
rt_want FAIL
rt_check found "$RT_FAULTS" "$RT_LOG" --exact
page=$(sed -nE 's/^ERROR .*addr=0x0*([0-9a-f]*)[0-9a-f]{3} .*/\1/p' "$RT_LOG" | sort -u)
[ "$(echo "$page" | wc -w)" = 1 ] || e2e_fail "want one failing page, got: $page"
esp "$(grep '^efi-reserve: ' "$RT_LOG")"
boot_esp held-reserve
e2e_expect "^ramsift-reserve: cannot take 0x${page^^}000-0x${page^^}FFF \(1 pages\): already in use as EfiBootServices(Code|Data); the OS uses it after boot" \
	"the pre-loader named the page the firmware holds"
e2e_expect '^ramsift-reserve: 0 pages reserved as EfiUnusableMemory, 1 pages already in use ' \
	'the pre-loader counted the page it could not take'
rt_want FAIL

# A mistyped file (address and mask swapped): the pre-loader says what is
# wrong, waits (30 s, no key comes) and returns; OVMF goes on to the next
# boot entry, the GRUB medium, and ramsift runs with nothing reserved.
esp "$(grep '^efi-reserve: ' "$E2E_DIR/$E2E_NAME-held-find.log" | sed -E 's/badram=([^,]+),([^,]+)/badram=\2,\1/')"
rt_firmware uefi
rt_boot mistyped "${RT_MEM[@]}" "${RT_FW[@]}" -net none \
	-drive "if=none,id=esp,format=raw,file=$esp" -device ide-hd,drive=esp,bootindex=0 \
	-drive "if=none,id=cd,media=cdrom,format=raw,file=$iso" -device ide-cd,drive=cd,bootindex=1
e2e_expect '^ramsift-reserve: badpages.txt, at byte 34: a badram= address has bits its mask does not fix' \
	'the pre-loader named the mistake'
e2e_expect '^ramsift-reserve: press a key to return to the firmware' 'the pause'
e2e_expect_no '^ramsift-reserve: starting ' 'nothing started after the mistake'
rt_want FAIL

# Debian's Linux through the pre-loader and GRUB, neither badram nor
# memmap=: linux-roundtrip.sh's small set in 1 GiB (one cell in the
# kernel's load window, where GRUB 2.12 with memmap= alone fails); the
# kernel must reach its init with no faulty page System RAM, and every page
# the pairs leave must stay System RAM.
rt_ram 1G
rt_faults small --ram 0x1000000-0x3c000000 --seed 9 cells:3 'cells:1@0x2000000-0x4000000' row
rt_hold
medium ""
boot_cd linux-find
rt_want FAIL
rt_check found "$RT_FAULTS" "$RT_LOG" --exact
found=$RT_LOG
rt_iso "$iso" linux <<-CFG
	set timeout=0
	menuentry linux {
		linux /boot/vmlinuz $E2E_LINUX_ARGS
		initrd /boot/initrd
	}
CFG
esp "$(grep '^efi-reserve: ' "$found")"
boot_esp linux
e2e_expect '^ramsift-reserve: [1-9][0-9]* pages reserved as EfiUnusableMemory, 0 pages already ' \
	'the pre-loader took every page'
rt_want_linux
e2e_expect_no 'memmap=' 'no memmap= on the command line'
rt_check linux "$RT_FAULTS" "$RT_LOG" "$found" badram
