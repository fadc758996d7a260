#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Faults at the edges of what ramsift tests, found
# exactly (QEMU -kernel, own-address):
# - 256 MiB: a word inside the first MiB; a word of ramsift's own image
#   (QEMU's Multiboot 1 loads it at 2 MiB), which it finds only after moving
#   itself away; the last usable word, which holds its working memory (after
#   its page tables) until it moves them.
# - 3.5 GiB: the first and the last word above 4 GiB, and the last usable
#   word below the PCI hole (page tables again).
# - 16 MiB with no fault-free block to move to: the summary names
#   ramsift's own memory as untested.
# The image word is far inside the boot information's memory-map table
# (kmain.c's bootinfo: 4096 entries, of which QEMU's map fills 7) and stuck
# at 0, the page-table words lose bit 62, which no entry uses: the faults
# cannot crash ramsift before it finds them, as a stuck code byte would.
. "$(dirname "$0")/lib-faults.sh"

kernel_vma=0xffffffff80000000 load=0x200000
bootinfo=$(nm "$ELF" | awk '$3 == "bootinfo" { print $1 }')
[ -n "$bootinfo" ] || e2e_fail "no symbol 'bootinfo' in $ELF"
image_word=$(( (0x$bootinfo - kernel_vma + load + 0x10000) & ~7 ))

# edge NAME MEM FAULT...: hold the faults, boot, all must be found exactly.
edge() {
	local name=$1 mem=$2
	shift 2
	RT_FAULTS=$E2E_DIR/$E2E_NAME-$name.faults
	printf '%s\n' "$@" >"$RT_FAULTS"
	rt_ram "$mem"
	rt_hold
	rt_boot "$name" "${RT_MEM[@]}" -kernel "$ELF" -append "$RT_ARGS tests=own-address"
	rt_want FAIL
	rt_check found "$RT_FAULTS" "$RT_LOG" --exact
	e2e_expect_no '^summary: untested' 'every range tested'
	e2e_expect '^ramsift moved itself to ' 'ramsift moved to test its own memory'
}

edge low 256M 0x50000:9:1 "$(printf '0x%x' "$image_word"):17:0" 0xffdfff8:62:0
e2e_expect "^  ramsift occupies 0x0000000000200000-.*image" 'loaded at 2 MiB'
sed -n '/^ramsift moved itself/,$p' "$RT_LOG" | grep -q "^ERROR addr=$(printf '0x%016x' "$image_word") " ||
	e2e_fail "the image word is found after ramsift moved away from it"

edge high 3584M 0x100000000:63:0 0x11ffffff0:0:1 0xbffdfff8:62:0

# Nowhere to move: in 16 MiB, faults every 3 MiB between ramsift's image and
# its page tables and working memory leave no fault-free block as large as
# ramsift itself. It must say so, report its own memory as untested, and
# tested_bytes must fall short of usable_bytes by exactly that memory.
RT_FAULTS=$E2E_DIR/$E2E_NAME-nowhere.faults
printf '%s\n' 0x400000:5:1 0x700000:5:1 0xa00000:5:1 >"$RT_FAULTS"
rt_ram 16M
rt_hold
rt_boot nowhere "${RT_MEM[@]}" -kernel "$ELF" -append "$RT_ARGS tests=own-address"
rt_want FAIL
rt_check found "$RT_FAULTS" "$RT_LOG" --exact
e2e_expect '^warning: no free block of [0-9]+ KiB to move ramsift to; the memory it occupies is not tested$' \
	'the failed move reported'
untested=$(sed -nE 's/^summary: untested: ramsift.s own memory 0x([0-9a-f]+)-0x([0-9a-f]+) and 0x([0-9a-f]+)-0x([0-9a-f]+)$/\1 \2 \3 \4/p' "$RT_LOG")
[ -n "$untested" ] || e2e_fail "no 'summary: untested: ramsift's own memory A-B and C-D' line"
read -r a b c d <<<"$untested"
[ $(( $(rt_bytes usable_bytes) - $(rt_bytes tested_bytes) )) = $(( 0x$b - 0x$a + 1 + 0x$d - 0x$c + 1 )) ] ||
	e2e_fail "usable_bytes - tested_bytes is not the untested ranges' size"
