#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `make demo`, the walkthrough of docs/testing.md: a 256 MiB QEMU guest whose RAM has a
# realistic fault set held in it (one DRAM row with a bad byte lane and two
# single cells, seeded), ramsift's default pass finding it, the lines it
# prints, and the reboot through GRUB (BIOS) with `badram` and the printed
# pairs, where the same faulty RAM passes. Shows the logs (ERROR lines
# after the first five are counted, not shown).
. "$(dirname "$0")/lib-faults.sh"

args="console=ttyS0,115200 onexit=qemu bitfade=0"

# show LOG: the serial log, without firmware noise, ERROR lines shortened.
show() {
	sed -n '/^ramsift [0-9]/,$p' "$1" | awk '
		/^ERROR / { if (++n > 5) next }
		/^summary: / && n > 5 && !told { print "  | (" n - 5 " more ERROR lines not shown here)"; told = 1 }
		{ print "  | " $0 }'
}

echo "== 1. A 256 MiB PC with bad RAM: one DRAM row (bad byte lane) and two cells"
rt_ram 256M
rt_faults faults --ram 0x1000000-0xe000000 --seed 2024 row cells:2
sed -n 's/^# /   /p' "$RT_FAULTS"
echo "   $(grep -vc '^#' "$RT_FAULTS") faulty bits held by ramsift-inject in QEMU's RAM ($RT_FAULTS)"
rt_hold
echo
echo "== 2. ramsift boots (QEMU -kernel, default pass, bit-fade wait skipped)"
rt_boot find "${RT_MEM[@]}" -kernel "$ELF" -append "$args"
rt_want FAIL
show "$RT_LOG"
pairs=$(rt_line badram=)

echo
echo "== 3. GRUB with the printed pairs: grub.cfg says"
cfg="badram $pairs"
echo "   $cfg"
echo "   multiboot2 /boot/ramsift.elf $args"
rt_iso "$E2E_DIR/demo.iso" <<-CFG
	set timeout=0
	$cfg
	menuentry ramsift {
		multiboot2 /boot/ramsift.elf $args
	}
CFG
echo
echo "== 4. The same faulty RAM, booted through GRUB (BIOS): the bad pages are gone"
rt_boot grub "${RT_MEM[@]}" -cdrom "$E2E_DIR/demo.iso"
rt_want PASS
show "$RT_LOG"
rt_check roundtrip "$E2E_DIR/demo-find.log" "$RT_LOG"
