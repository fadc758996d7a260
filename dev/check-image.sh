#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Checks a freshly linked ramsift.elf: both Multiboot headers are accepted by
# GRUB's own checker, and the loadable bytes form one linear run in the file
# (the Multiboot 1 a.out kludge that QEMU -kernel and iPXE use loads the file
# as a flat range from the header's position).
set -eu
elf=$1
fail() { echo "check-image: $elf: $*" >&2; exit 1; }

if command -v grub-file >/dev/null 2>&1; then
	grub-file --is-x86-multiboot "$elf" || fail "GRUB does not accept the Multiboot 1 header"
	grub-file --is-x86-multiboot2 "$elf" || fail "GRUB does not accept the Multiboot 2 header"
fi
# Every PT_LOAD must have the same (file offset - physical address).
deltas=$(readelf -lW "$elf" | while read -r kind off virt phys rest; do
	[ "$kind" = LOAD ] && echo $((off - phys))
done | sort -u | wc -l)
[ "$deltas" = 1 ] || fail "PT_LOAD segments are not one linear run in the file"
