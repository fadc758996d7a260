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

rt_ram 256M
klog="console=ttyS0,115200 panic=-1"
# The kernel's name in /boot, as Debian installs it; any version will do.
version=6.1.0-ramsift-amd64
tree=$E2E_DIR/$E2E_NAME.chroot
# What grub-mkconfig, 00_header and 10_linux run; gettext only if the host
# has it (grub-mkconfig_lib falls back to printf).
gd_tools="sh basename dirname id sed grep fgrep cat rm chmod uname readlink tr cut head
sort stat grub-mkconfig grub-mkrelpath grub-script-check"

# gd_put FILE: copy FILE into the chroot at the same path.
gd_put() {
	mkdir -p "$tree${1%/*}"
	cp -L "$1" "$tree$1" || e2e_fail "cannot copy $1 into the chroot $tree"
}

# gd_tree: the chroot: the programs and their libraries (as ldd finds them;
# /bin, /lib... linked to /usr as on the host), Debian's scripts, the stub
# grub-probe and an empty kernel and initrd in /boot.
gd_tree() {
	local d t p lib
	rm -rf "$tree"
	for d in bin sbin lib lib64; do
		mkdir -p "$tree/usr/$d"
		[ ! -L "/$d" ] || ln -s "$(readlink "/$d")" "$tree/$d"
	done
	for t in $gd_tools gettext; do
		p=$(command -v "$t") || { [ "$t" = gettext ] && continue; e2e_fail "no $t on this host"; }
		gd_put "$p"
		for lib in $(ldd "$p" 2>/dev/null | grep -oE '/[^ ]+'); do gd_put "$lib"; done
	done
	gd_put /etc/ld.so.cache
	gd_put /usr/share/grub/grub-mkconfig_lib
	gd_put /etc/grub.d/00_header
	gd_put /etc/grub.d/10_linux
	mkdir -p "$tree/etc/default" "$tree/boot/grub" "$tree/tmp"
	: >"$tree/boot/vmlinuz-$version"
	: >"$tree/boot/initrd.img-$version"
	# /dev/sda1 holds / and /boot: ext2 on an msdos partition, no UUID, so
	# the entries carry no `search` and GRUB keeps the medium it booted from.
	cat >"$tree/usr/sbin/grub-probe" <<-'PROBE'
		#!/bin/sh
		for a; do case $a in --target=*) t=${a#--target=} ;; esac; done
		case $t in
		device) echo /dev/sda1 ;;
		fs) echo ext2 ;;
		partmap) echo msdos ;;
		abstraction | compatibility_hint) ;;
		*) exit 1 ;;
		esac
	PROBE
	chmod +x "$tree/usr/sbin/grub-probe"
}

# gd_chroot COMMAND...: run COMMAND in the chroot with a /dev/null: as
# root, a device node of its own; otherwise as root of a user namespace,
# with the host's /dev/null bound on a placeholder.
gd_chroot() {
	rm -f "$tree/dev/null"
	mkdir -p "$tree/dev"
	if [ "$(id -u)" = 0 ]; then
		mknod -m 666 "$tree/dev/null" c 1 3 || e2e_fail "mknod $tree/dev/null"
		chroot "$tree" "$@"
	else
		: >"$tree/dev/null"
		unshare -rm sh -c 'mount --bind /dev/null "$0/dev/null" && exec chroot "$0" "$@"' \
			"$tree" "$@"
	fi
}

# gd_mkconfig STEP: /etc/default/grub is Debian's default, a serial console
# for the test, then the lines read from stdin; run update-grub's command in
# the chroot and keep the grub.cfg as build/test/<scenario>-STEP.cfg
# (GD_CFG).
gd_mkconfig() {
	{
		cat /usr/share/grub/default/grub
		echo '# The test boot: the serial console, no wait, the kernel on COM1'
		echo 'GRUB_TIMEOUT=0'
		echo 'GRUB_TERMINAL=serial'
		echo 'GRUB_SERIAL_COMMAND="serial --unit=0 --speed=115200"'
		echo "GRUB_CMDLINE_LINUX_DEFAULT=\"$klog\""
		echo '# What docs/badram.md says to write'
		cat
	} >"$tree/etc/default/grub"
	GD_CFG=$E2E_DIR/$E2E_NAME-$1.cfg
	rm -f "$tree/boot/grub/grub.cfg" "$GD_CFG"
	gd_chroot /usr/sbin/grub-mkconfig -o /boot/grub/grub.cfg \
		>"$GD_CFG.log" 2>&1 || { cat "$GD_CFG.log" >&2; e2e_fail "grub-mkconfig in $tree"; }
	! grep -i 'not found' "$GD_CFG.log" >&2 ||
		e2e_fail "grub-mkconfig in $tree: a program is missing from the chroot"
	grep -qxF "Found linux image: /boot/vmlinuz-$version" "$GD_CFG.log" ||
		{ cat "$GD_CFG.log" >&2; e2e_fail "10_linux did not find /boot/vmlinuz-$version"; }
	cp "$tree/boot/grub/grub.cfg" "$GD_CFG"
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
gd_tree

# GRUB: the GRUB_BADRAM= line pasted as printed.
gd_mkconfig badram <<<"$grub_badram"
[ "$(grep -c badram "$GD_CFG")" -eq 1 ] && grep -qxF "badram $pairs" "$GD_CFG" ||
	e2e_fail "$GD_CFG: want the one line 'badram $pairs', got:" \
		"$(grep badram "$GD_CFG" || echo none)"
gd_linux badram

# Linux: GRUB_CMDLINE_LINUX="memmap=..." with every $ written \\\$.
gd_mkconfig memmap <<<"GRUB_CMDLINE_LINUX=\"memmap=${memmap//\$/\\\\\\\$}\""
# In grub.cfg GRUB needs each $ as \$ (docs/badram.md); the boot below proves it.
want="memmap=${memmap//\$/\\\$}"
line=$(grep -m1 -E '^\s*linux\s' "$GD_CFG") || true
[[ "$line " == *" $want "* ]] ||
	e2e_fail "$GD_CFG: want the first linux line to carry $want, got: ${line:-none}"
gd_linux memmap
grep -qxF "BOOT_IMAGE=/boot/vmlinuz-$version root=/dev/sda1 ro memmap=$memmap $klog" "$RT_LOG" ||
	e2e_fail "the kernel's command line lacks memmap=$memmap as printed"
rm -rf "$tree"
