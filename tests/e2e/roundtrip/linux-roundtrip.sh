#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Debian's own kernel (Debian 12's 6.1, build/linux/vmlinuz, or with
# RT_LINUX=6.12 Debian 13's: lib-faults.sh) keeps off the bad pages ramsift
# printed. In a 1 GiB guest with a fault set held, GRUB (2.06, or RT_GRUB)
# boots ramsift (multiboot2), which prints its lines; then GRUB boots the
# kernel with the initramfs of tests/linux/init.c, once after `badram
# PAIRS`, once with the memmap= line on its command line (escaped for
# grub.cfg as docs/badram.md says: every $ as \$), and once with both. The
# kernel must reach the init, which prints /proc/iomem, no faulty page may
# be System RAM there or usable in the e820 map the kernel printed, and
# every page the line keeps must be System RAM (but for 1 MiB the kernel
# keeps for itself). Under BIOS and UEFI, with two sets: cells and a row
# (one cell in the kernel's preferred load window, 16 MiB to about 80 MiB,
# where GRUB 2.06 on a small UEFI guest fails `linux` with "out of memory"
# and Linux 6.12's EFI stub decompresses the kernel: KNOWN with memmap=
# alone), with an exact cover; and a column over 64 MiB, which ramsift must
# fold into a safe line within 48 holes ("limited by holes=48"). Last, that
# column's 1024-hole exact line under UEFI.
. "$(dirname "$0")/lib-faults.sh"

rt_ram 1G
klog=$E2E_LINUX_ARGS
# What GRUB's fallback entry prints when the kernel went back to GRUB.
back="ramsift-test: the kernel returned to GRUB"

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

# linux STEP LINE CFG_LINES KERNEL_ARGS [KNOWN]: boot the kernel through
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
	rt_iso "$iso" linux <<-CFG
		set timeout=0
		set fallback=1
		$3
		menuentry linux {
			linux /boot/vmlinuz $klog $4
			initrd /boot/initrd
		}
		menuentry back {
			echo "$back"
			halt
		}
	CFG
	rt_boot "$1" "${RT_MEM[@]}" "${RT_FW[@]}" -cdrom "$iso"
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
	if grep -qxF "$back" "$RT_LOG"; then
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
	local fw=$1 set=$2 iso=$E2E_DIR/$E2E_NAME.iso pairs memmap
	rt_firmware "$fw"
	rt_hold
	rt_iso "$iso" <<-CFG
		set timeout=0
		menuentry find {
			multiboot2 /boot/ramsift.elf $RT_ARGS tests=own-address
		}
	CFG
	rt_boot "$fw-$set-find" "${RT_MEM[@]}" "${RT_FW[@]}" -cdrom "$iso"
	rt_want FAIL
	rt_check found "$RT_FAULTS" "$RT_LOG" $3
	found=$RT_LOG
	[ "$set" = small ] ||
		e2e_expect '^fold: .*: limited by holes=48 ' 'a column folded into a safe line'
	pairs=$(rt_line badram=)
	memmap=$(rt_line memmap=)
	linux "$fw-$set-badram" badram "badram $pairs" ""
	linux "$fw-$set-memmap" memmap "" "memmap=${memmap//\$/\\\$}" "$(known "$fw" "$set" memmap)"
	[ -n "$(known "$fw" "$set" memmap)" ] ||
		grep -qxF "BOOT_IMAGE=/boot/vmlinuz $klog memmap=$memmap" "$RT_LOG" ||
		e2e_fail "the kernel's command line lacks memmap=$memmap as printed"
	linux "$fw-$set-both" both "badram $pairs" "memmap=${memmap//\$/\\\$}"
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
