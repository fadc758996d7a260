#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Debian's own kernel (RT_LINUX: lib-faults.sh), booted by GRUB (RT_GRUB)
# under BIOS and UEFI, keeps off the bad pages ramsift printed: `badram
# PAIRS`, the memmap= line, and both. The init (tests/linux/init.c) prints
# /proc/iomem: no faulty page may be System RAM or usable in the kernel's
# e820 map, and every page the line keeps must be System RAM. Two sets in 1
# GiB: cells and a row with an exact cover (one cell in the kernel's load
# window, 16 to about 80 MiB: KNOWN with memmap= alone, known() below); a
# column over 64 MiB that ramsift must fold within 48 holes. Last, that
# column's 1024-hole exact line under UEFI.
. "$(dirname "$0")/lib-faults.sh"

rt_ram 1G

# known FW SET LINE: why LINE alone fails today with this GRUB, kernel and
# firmware (docs/badram.md), or nothing. GRUB 2.12 on UEFI starts Linux
# (6.1 and 6.12 alike) through its EFI stub, which sees memmap=, turns KASLR
# off and decompresses the kernel at its fixed address (16 MiB up) before
# the kernel reads memmap=: onto the small set's bad page at 0x2815000. Seen
# both ways: the decompression failed (back to GRUB), or the kernel ran
# with the bad page in its rodata. GRUB 2.06 fills the kernel's e820 map
# itself, 128 entries at most.
known() {
	case $1-$2-$3-$RT_GRUB in
	uefi-small-memmap-2.12)
		echo "Linux's EFI stub, started by GRUB $RT_GRUB on UEFI, puts the kernel" \
			"on bad pages before it reads memmap=" ;;
	uefi-many-badram-2.06)
		echo "Linux booted by GRUB $RT_GRUB on UEFI loses RAM past the first e820" \
			"entries of a map with 1024 holes" ;;
	esac
}

# linux STEP LINE GRUB_LINES KERNEL_ARGS [KNOWN]: boot the kernel through
# GRUB with the badram or memmap LINE (or both) of the finding run $found; it
# must keep KASLR's placement (no "not marked as E820_TYPE_RAM": with more
# than 4 memmap= ranges Linux 6.1 turns KASLR off and runs from 16 MiB
# whatever memmap= says, which is why ramsift keeps to 4 ranges when a
# failing page lies below 272 MiB), reserve every bad page and keep every
# other page. A kernel that returns to GRUB (its EFI stub failed) ends the
# boot through GRUB's fallback entry. KNOWN: the checks fail today for that
# reason (rt_known), which then stands for them all.
linux() {
	local iso=$E2E_DIR/$E2E_NAME.iso
	rt_linux_iso "$iso" "$3" "$4"
	rt_boot_iso "$1" "$iso"
	if [ -n "${5-}" ]; then
		known_linux "$5" "$2"
		return
	fi
	rt_want_linux
	e2e_expect "^Linux version ${RT_LINUX/./\\.}\." "Linux $RT_LINUX reached the init (/proc/version)"
	e2e_expect_no 'not marked as E820_TYPE_RAM!$' 'the kernel placed clear of the reserved pages'
	rt_check linux "$RT_FAULTS" "$RT_LOG" "$found" "$2"
}

# known_linux WHY LINE: the boot shows the KNOWN defect WHY: the kernel
# went back to GRUB, or reached its init with a bad page usable or RAM lost.
known_linux() {
	if grep -qxF "$RT_BACK" "$RT_LOG"; then
		e2e_expect '^EFI stub: ERROR: ' 'the EFI stub said why the kernel went back to GRUB'
		grep -E '^EFI stub: (ERROR|WARNING)' "$RT_LOG" | sed 's/^/          /'
		echo "          KNOWN: $1"
		return
	fi
	rt_want_linux
	rt_known "$1" linux "$RT_FAULTS" "$RT_LOG" "$found" "$2"
}

# roundtrip FW SET CHECK_ARGS: find, then the Linux boots: badram, memmap=,
# both (as ramsift advises on UEFI).
roundtrip() {
	local fw=$1 set=$2
	rt_firmware "$fw"
	rt_find "$fw-$set-find" $3
	found=$RT_LOG
	[ "$set" = small ] ||
		e2e_expect '^fold: .*: limited by holes=48 ' 'a column folded into a safe line'
	linux "$fw-$set-badram" badram "badram $RT_BADRAM" ""
	linux "$fw-$set-memmap" memmap "" "memmap=$RT_MEMMAP" "$(known "$fw" "$set" memmap)"
	[ -n "$(known "$fw" "$set" memmap)" ] ||
		grep -qxF "BOOT_IMAGE=/boot/vmlinuz $E2E_LINUX_ARGS memmap=$RT_MEMMAP" "$RT_LOG" ||
		e2e_fail "the kernel's command line lacks memmap=$RT_MEMMAP as printed"
	linux "$fw-$set-both" both "badram $RT_BADRAM" "memmap=$RT_MEMMAP"
}

rt_faults small --ram 0x1000000-0x3c000000 --seed 9 cells:3 'cells:1@0x2000000-0x4000000' row
roundtrip bios small --exact
roundtrip uefi small --exact
# RT_SETS=small stops here (mk/roundtrip.mk: the GRUB and kernel pairs for
# which only the small set's bad page, where the kernel is loaded, matters).
[ "${RT_SETS-}" != small ] || exit 0
rt_faults scattered --ram 0x1000000-0x3c000000 --seed 10 'column@0x10000000-0x14000000'
roundtrip bios scattered ""
roundtrip uefi scattered ""

# Why holes=48 holds on UEFI too: the scattered set's exact cover (1024
# one-page holes, from `ramsift-fold --uefi --holes 4096`), which GRUB
# on UEFI applies whole (grub-roundtrip.sh), leaves the kernel GRUB 2.06
# boots with a fraction of its RAM (GRUB 2.12's EFI stub path keeps it all).
rt_exact_pairs "$found"
sed "s/^badram=.*/badram=$RT_PAIRS/" "$found" >"$E2E_DIR/$E2E_NAME-uefi-many.expected"
found=$E2E_DIR/$E2E_NAME-uefi-many.expected
linux uefi-many badram "badram $RT_PAIRS" "" "$(known uefi many badram)"
