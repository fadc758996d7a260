#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Debian's own kernel (build/linux/vmlinuz, fetched by
# tests/linux/fetch-kernel.sh) keeps off the bad pages ramsift printed. In a
# 1 GiB guest with a fault set held, GRUB boots ramsift (multiboot2), which
# prints its lines; then GRUB boots the kernel with the initramfs of
# tests/linux/init.c, once after `badram PAIRS` and once with the memmap=
# line on its command line (escaped for grub.cfg as docs/badram.md says: every $
# as \$). The kernel must reach the init, which prints /proc/iomem, no
# faulty page may be System RAM there or usable in the e820 map the kernel
# printed, and every page the line keeps must be System RAM (but for 1 MiB
# the kernel keeps for itself). Under BIOS and UEFI, with two sets: cells
# and a row (one cell in the kernel's preferred load window, 16 MiB to
# about 80 MiB, where GRUB 2.06 on a small UEFI guest fails `linux` with
# "out of memory"), with an exact cover; and a column over 64 MiB, which
# ramsift must fold into a safe line within 48 holes ("limited by
# holes=48"). Last, that column's 1024-hole exact line under UEFI.
. "$(dirname "$0")/lib-faults.sh"

rt_ram 1G
klog="console=ttyS0,115200 panic=-1"

# linux STEP LINE CFG_LINES KERNEL_ARGS: boot the kernel through GRUB with
# the badram or memmap LINE of the finding run $found; it must keep KASLR's
# placement (no "not marked as E820_TYPE_RAM": with more than 4 memmap=
# ranges Linux 6.1 turns KASLR off and runs from 16 MiB whatever memmap=
# says, which is why ramsift keeps to 4 ranges when a failing page lies
# below 272 MiB), reserve every bad page and keep every other page.
# KNOWN: the checks fail today for that reason (rt_known), which then
# stands for them all.
linux() {
	local iso=$E2E_DIR/$E2E_NAME.iso
	rt_iso "$iso" linux <<-CFG
		set timeout=0
		$3
		menuentry linux {
			linux /boot/vmlinuz $klog $4
			initrd /boot/initrd
		}
	CFG
	rt_boot "$1" "${RT_MEM[@]}" "${RT_FW[@]}" -cdrom "$iso"
	rt_want_linux
	if [ -n "${5-}" ]; then
		rt_known "$5" linux "$RT_FAULTS" "$RT_LOG" "$found" "$2"
		return
	fi
	e2e_expect_no 'not marked as E820_TYPE_RAM!$' 'the kernel placed clear of the reserved pages'
	rt_check linux "$RT_FAULTS" "$RT_LOG" "$found" "$2"
}

# roundtrip FW SET CHECK_ARGS: find, then the two Linux boots.
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
	linux "$fw-$set-memmap" memmap "" "memmap=${memmap//\$/\\\$}"
	grep -qxF "BOOT_IMAGE=/boot/vmlinuz $klog memmap=$memmap" "$RT_LOG" ||
		e2e_fail "the kernel's command line lacks memmap=$memmap as printed"
}

rt_faults small --ram 0x1000000-0x3c000000 --seed 9 cells:3 'cells:1@0x2000000-0x4000000' row
roundtrip bios small --exact
roundtrip uefi small --exact
rt_faults scattered --ram 0x1000000-0x3c000000 --seed 10 'column@0x10000000-0x14000000'
roundtrip bios scattered ""
roundtrip uefi scattered ""

# Why holes=48 holds on UEFI too: the scattered set's exact cover (1024
# one-page holes, from `ramsift-fold --uefi --holes 4096`), which GRUB
# on UEFI applies whole (grub-roundtrip.sh), leaves the kernel GRUB boots
# with a fraction of its RAM.
rt_exact_pairs "$found"
sed "s/^badram=.*/badram=$RT_PAIRS/" "$found" >"$E2E_DIR/$E2E_NAME-uefi-many.expected"
found=$E2E_DIR/$E2E_NAME-uefi-many.expected
linux uefi-many badram "badram $RT_PAIRS" "" \
	"Linux booted by GRUB 2.06 on UEFI loses RAM past the first e820 entries of a map with 1024 holes"
