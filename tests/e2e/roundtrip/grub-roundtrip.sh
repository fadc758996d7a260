#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The GRUB round trip, under BIOS (SeaBIOS) and UEFI
# (OVMF). With a seeded fault set held in a 256 MiB guest, GRUB boots
# ramsift (multiboot2), which must find exactly the faulty words and print
# its lines. Then a GRUB medium whose grub.cfg runs `badram` with exactly
# the printed pairs boots ramsift again, once with multiboot and once with
# multiboot2, the faults still held: the map ramsift gets must be the first
# one minus exactly the pages the pairs match (none survives GRUB, none
# else is lost), the run must pass, and its tested bytes must have shrunk
# by exactly the excluded pages. Two sets: cells and a row (an exact
# cover), and a column over 64 MiB (a coarse cover within 48 holes, the
# kind most exposed to GRUB's defect on UEFI).
# Then many holes: the column's exact cover (8 interleaved pairs, 1024
# one-page holes, from `ramsift-fold --uefi --holes 4096`) under UEFI, where
# GRUB grows the map to over 2000 entries and ramsift must still pass; and
# the same line under BIOS, where GRUB skips most of it (the defect
# ramsift's pair order avoids). GRUB 2.06 and 2.12 (RT_GRUB, lib-faults.sh)
# show the same two defects, KNOWN.
. "$(dirname "$0")/lib-faults.sh"

rt_ram 256M
tests="tests=own-address"
iso=$E2E_DIR/$E2E_NAME.iso

# GRUB (2.06 and 2.12) on UEFI cuts each chunk of a pair (an aligned block of 2^N
# bytes, N the mask's trailing zero bits) with FreePages + AllocatePages at
# its address; a chunk partly free and partly allocated (here GRUB's own
# allocation, 2.06's at 0x86a1000-0xbb75000) fails both, silently, and
# stays usable.
# The column's coarse 16 MiB pair at 0x8000000 straddles 0x86a1000. The
# same pairs split into one-page chunks make GRUB free heap pages it still
# uses (OVMF scrubs them) and crash: no line survives, ramsift's UEFI finding
# runs must say so (summary: UEFI boot: ...) and point to memmap=.
uefi_straddle="GRUB $RT_GRUB on UEFI leaves usable a chunk partly inside its own allocations"
bios_order="GRUB $RT_GRUB on BIOS skips a pattern's matches after the first region it cut"

# boot_badram STEP PROTO PAIRS: boot ramsift through GRUB after `badram PAIRS`.
boot_badram() {
	rt_iso "$iso" <<-CFG
		set timeout=0
		badram $3
		menuentry $2 {
			$2 /boot/ramsift.elf $RT_ARGS $tests
		}
	CFG
	rt_boot "$1" "${RT_MEM[@]}" "${RT_FW[@]}" -cdrom "$iso"
	e2e_expect_loader "$RT_LOADER" "$2"
}

# roundtrip FW SET CHECK_ARGS [KNOWN]: the three boots for one firmware and
# the set in $RT_FAULTS (FW-SET-find, FW-SET-multiboot, FW-SET-multiboot2).
# KNOWN: pages survive GRUB today for that reason (rt_known). Leaves the
# finding run's log in $found.
roundtrip() {
	local fw=$1 set=$2 check=$3 known=${4-} pairs excluded usable proto
	rt_firmware "$fw"
	rt_hold
	rt_iso "$iso" <<-CFG
		set timeout=0
		menuentry find {
			multiboot2 /boot/ramsift.elf $RT_ARGS $tests
		}
	CFG
	rt_boot "$fw-$set-find" "${RT_MEM[@]}" "${RT_FW[@]}" -cdrom "$iso"
	rt_want FAIL
	e2e_expect_loader "$RT_LOADER" multiboot2
	rt_check found "$RT_FAULTS" "$RT_LOG" $check
	if [ "$fw" = uefi ]; then
		e2e_expect '^summary: UEFI boot: .* memmap= ' 'the advice for GRUB on UEFI'
	else
		e2e_expect_no '^(firmware|summary): UEFI' 'no UEFI advice on a BIOS boot'
	fi
	found=$RT_LOG
	pairs=$(rt_line badram=)
	excluded=$(sed -nE 's/^fold: .* excluded_pages=([0-9]+) .*/\1/p' "$found")
	usable=$(rt_bytes usable_bytes "$found")
	[ "$(rt_bytes tested_bytes "$found")" = "$usable" ] ||
		e2e_fail "$fw: the finding run did not test all usable RAM"

	for proto in multiboot multiboot2; do
		boot_badram "$fw-$set-$proto" "$proto" "$pairs"
		if [ -n "$known" ]; then
			rt_known "$known" roundtrip "$found" "$RT_LOG"
			continue
		fi
		rt_want PASS
		e2e_expect_no '^ERROR ' 'no fault left in the map'
		rt_check roundtrip "$found" "$RT_LOG"
		[ "$(rt_bytes tested_bytes)" = $((usable - excluded * 4096)) ] ||
			e2e_fail "$fw $proto: want tested_bytes = $usable - $excluded pages," \
				"got $(rt_bytes tested_bytes)"
	done
}

rt_faults exact --ram 0x1000000-0xe000000 --seed 6 cells:6 row
roundtrip bios exact --exact
roundtrip uefi exact --exact

rt_faults column --ram 0x1000000-0xe000000 --seed 8 'column@0x6000000-0xa000000'
roundtrip bios column ''
roundtrip uefi column '' "$uefi_straddle"

# Many holes: the exact cover of the column, as the host CLI folds the UEFI
# finding run's log with the hole budget lifted. The round trip compares
# each firmware's finding run, its badram= line replaced by these pairs,
# with the run after GRUB applied them.
rt_exact_pairs "$found"
pairs=$RT_PAIRS

# many FW: boot with the exact pairs; leaves the expected log in $expected.
many() {
	expected=$E2E_DIR/$E2E_NAME-$1-many.expected
	sed "s/^badram=.*/badram=$pairs/" "$E2E_DIR/$E2E_NAME-$1-column-find.log" >"$expected"
	rt_firmware "$1"
	boot_badram "$1-many" multiboot2 "$pairs"
}

many uefi
rt_want PASS
rt_check roundtrip "$expected" "$RT_LOG"
e2e_expect '^memory map from the loader \(multiboot2, [0-9]{4} entries\):' 'a map of thousands of entries'

many bios
rt_known "$bios_order" roundtrip "$expected" "$RT_LOG"
