#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# docs/badram.md's advice for /etc/default/grub, through Debian's own update-grub:
# the GRUB_BADRAM= line pasted as ramsift printed it, and for Linux
# GRUB_CMDLINE_LINUX="memmap=..." with every $ of the printed memmap= line
# written \\\$. ramsift finds a fault set in a 256 MiB guest and prints its
# lines; each recipe is appended to Debian's default /etc/default/grub
# (/usr/share/grub/default/grub) and turned into a grub.cfg by the real
# grub-mkconfig, 00_header and 10_linux of grub-common, run as update-grub
# runs them (grub-mkconfig -o /boot/grub/grub.cfg) in a chroot that holds
# only what they need, an empty /boot/vmlinuz-VERSION and a grub-probe that
# describes a plain BIOS disk (the real one cannot probe a container's
# overlay root, and would make the output depend on the machine). GRUB then
# boots that grub.cfg unchanged, Debian's kernel and the test initramfs at
# the paths 10_linux wrote, with the faults held: with GRUB_BADRAM the
# grub.cfg has `badram` and exactly the printed pairs, and the kernel keeps
# every bad page out of its map; with memmap= the kernel's /proc/cmdline
# shows memmap= exactly as ramsift printed it (so GRUB's own parser took the
# escaping as docs/badram.md says), and the kernel reserves every bad page.
# A good Linux boot takes 10-20 s; a command line GRUB mangled hangs it.
: "${E2E_TIMEOUT:=120}"
. "$(dirname "$0")/lib-faults.sh"
. "$(dirname "$0")/../lib-grub.sh"

rt_ram 256M
klog=$E2E_LINUX_ARGS
# The kernel's name in /boot, as Debian installs it; any version will do.
version=6.1.0-ramsift-amd64

# gd_tree_linux: the chroot (tests/e2e/lib-grub.sh), with an empty kernel and
# initrd in /boot for 10_linux to find.
gd_tree_linux() {
	gd_tree
	: >"$GD_BOOT/vmlinuz-$version"
	: >"$GD_BOOT/initrd.img-$version"
}

# gd_recipe STEP: /etc/default/grub is Debian's default, the serial console
# for the test, the kernel on COM1, then the lines read from stdin; run
# update-grub's command in the chroot (GD_CFG: the grub.cfg it wrote), which
# must find the kernel.
gd_recipe() {
	{
		echo "GRUB_CMDLINE_LINUX_DEFAULT=\"$klog\""
		echo '# What docs/badram.md says to write'
		cat
	} | gd_default_grub
	gd_mkconfig "$1"
	grep -qxF "Found linux image: /boot/vmlinuz-$version" "$GD_CFG.log" ||
		{ cat "$GD_CFG.log" >&2; e2e_fail "10_linux did not find /boot/vmlinuz-$version"; }
	rm -f "$GD_CFG.log"
}

# gd_linux STEP: GRUB boots $GD_CFG as it is, with the kernel and initrd
# where 10_linux said; the default entry must reach the init and reserve
# every bad page, with KASLR's placement kept.
gd_linux() {
	local iso=$E2E_DIR/$E2E_NAME.iso
	rt_iso "$iso" linux "$version" <"$GD_CFG"
	rt_boot "$1" "${RT_MEM[@]}" -cdrom "$iso"
	rt_want_linux
	e2e_expect_no 'not marked as E820_TYPE_RAM!$' 'the kernel placed clear of the reserved pages'
	rt_check linux "$RT_FAULTS" "$RT_LOG"
}

# The lines of a real run: 3 cells and a row, found with own-address. They
# lie above 80 MiB: GRUB on BIOS loads Debian's kernel at 16 MiB and its
# decompressor works up to 16 MiB + init_size (64 MiB), before the kernel
# has read memmap= (docs/badram.md: a bad page there stops the boot silently).
rt_faults small --ram 0x5000000-0xe000000 --seed 9 cells:3 row
rt_hold
rt_boot find "${RT_MEM[@]}" -kernel "$ELF" -append "$RT_ARGS tests=own-address"
rt_want FAIL
rt_check found "$RT_FAULTS" "$RT_LOG" --exact
pairs=$(rt_line badram=)
grub_badram=GRUB_BADRAM=$(rt_line GRUB_BADRAM=)
memmap=$(rt_line memmap=)
gd_tree_linux

# GRUB: the GRUB_BADRAM= line pasted as printed.
gd_recipe badram <<<"$grub_badram"
[ "$(grep -c badram "$GD_CFG")" -eq 1 ] && grep -qxF "badram $pairs" "$GD_CFG" ||
	e2e_fail "$GD_CFG: want the one line 'badram $pairs', got:" \
		"$(grep badram "$GD_CFG" || echo none)"
gd_linux badram

# Linux: GRUB_CMDLINE_LINUX="memmap=..." with every $ written \\\$.
gd_recipe memmap <<<"GRUB_CMDLINE_LINUX=\"memmap=${memmap//\$/\\\\\\\$}\""
# In grub.cfg GRUB needs each $ as \$ (docs/badram.md); the boot below proves it.
want="memmap=${memmap//\$/\\\$}"
line=$(grep -m1 -E '^\s*linux\s' "$GD_CFG") || true
[[ "$line " == *" $want "* ]] ||
	e2e_fail "$GD_CFG: want the first linux line to carry $want, got: ${line:-none}"
gd_linux memmap
grep -qxF "BOOT_IMAGE=/boot/vmlinuz-$version root=/dev/sda1 ro memmap=$memmap $klog" "$RT_LOG" ||
	e2e_fail "the kernel's command line lacks memmap=$memmap as printed"
rm -rf "$GD_TREE"
