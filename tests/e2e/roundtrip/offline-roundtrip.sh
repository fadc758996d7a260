#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A running Linux takes away the pages ramsift's offline: lines name. Three
# faulty cells held in a 1 GiB guest's RAM (above where the kernel and the
# initramfs go with nokaslr) are found by ramsift (QEMU -kernel), whose
# offline: lines, the "offline: " cut as a user would before piping them to
# sh, go into the initramfs as /offline.sh; Debian's kernel boots with it,
# the faults released (a running system would meet them only by chance),
# and tests/linux/init.c carries out each line's write to
# /sys/devices/system/memory/hard_offline_page. Then each write must have
# succeeded, the kernel must have said "Memory failure: 0xPFN" for each
# page, and /proc/meminfo's HardwareCorrupted must count exactly those
# pages. The same lines as ramsift-fold --format offline writes from the
# log's ERROR lines.
. "$(dirname "$0")/lib-faults.sh"

rt_ram 1G
rt_faults cells --ram 0x1000000-0x3c000000 --seed 14 'cells:3@0x30000000-0x34000000'
rt_hold
rt_boot find "${RT_MEM[@]}" -kernel "$ELF" -append "$RT_ARGS tests=own-address"
rt_want FAIL
rt_check found "$RT_FAULTS" "$RT_LOG" --exact
found=$RT_LOG

script=$E2E_DIR/$E2E_NAME.offline.sh
sed -n 's/^offline: //p' "$found" >"$script"
pages=$(wc -l <"$script")
[ "$pages" -eq 3 ] || e2e_fail "want an offline: line for each of the 3 faulty pages, got $pages"
"$B/ramsift-fold" --format offline "$found" | cmp -s - "$script" ||
	e2e_fail "ramsift-fold --format offline on the log writes other lines than the log's offline: lines"

# The initramfs: the round trips' /init and the script.
root=$E2E_DIR/$E2E_NAME.root
rm -rf "$root" && mkdir -p "$root"
cp "$B/linux/init" "$root/init"
cp "$script" "$root/offline.sh"
(cd "$root" && printf 'init\noffline.sh\n' | cpio --quiet -o -H newc -R 0:0) >"$E2E_DIR/$E2E_NAME.cpio" ||
	e2e_fail "cpio"
rm -rf "$root"

rt_release
rt_boot linux "${RT_MEM[@]}" -kernel "$RT_KERNEL" -initrd "$E2E_DIR/$E2E_NAME.cpio" \
	-append "$E2E_LINUX_ARGS nokaslr"
rt_want_linux
e2e_expect '^ramsift-init: end offline$' 'the init carried out the lines'
while read -r _ addr _ file; do
	pfn=$(printf '0x%x' $((addr >> 12)))
	e2e_expect "^ramsift-init: offline $addr > $file: ok$" "the write of $addr"
	e2e_expect "Memory failure: $pfn: " "the kernel took page $pfn away"
done <"$script"
corrupted=$(sed -n 's/^HardwareCorrupted: *\([0-9]*\) kB$/\1/p' "$E2E_LOG")
[ "$corrupted" = $((pages * 4)) ] ||
	e2e_fail "HardwareCorrupted: want $((pages * 4)) kB (the $pages pages), got '${corrupted}' kB"
rm -f "$E2E_DIR/$E2E_NAME.cpio"
