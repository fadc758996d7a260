# SPDX-License-Identifier: GPL-2.0-or-later
# Debian's update-grub in a chroot, for the scenarios that check what it
# writes (tests/e2e/roundtrip/grub-default.sh, tests/e2e/deb-*.sh); sourced
# after tests/e2e/lib.sh. The chroot, build/test/<scenario>.chroot (GD_TREE),
# holds only what grub-mkconfig, 00_header and 10_linux run (and what a
# scenario adds), copied from this machine with their libraries: Debian's
# grub-mkconfig, grub-mkconfig_lib and scripts as grub-common and
# grub2-common installed them, and a grub-probe that describes a plain BIOS
# disk (the real one cannot probe a container's overlay root, and would make
# the output depend on the machine). As root the chroot is entered directly;
# otherwise as root of a user namespace.
#
# The disk grub-probe describes: / on /dev/sda1, ext2 on an msdos partition
# with no UUID, so that entries carry no `search` and GRUB keeps the medium
# it booted from. With GD_BOOT_UUID set before gd_tree, /boot is a partition
# of its own, /dev/sda2 (ext2, that file-system UUID): a tmpfs mounted on the
# chroot's /boot for each command (so grub-mkrelpath sees a mount point),
# whose files live in GD_BOOT between commands.

GD_TREE=$E2E_DIR/$E2E_NAME.chroot
GD_BOOT=$GD_TREE/boot
GD_BOOT_UUID=${GD_BOOT_UUID-}
# What grub-mkconfig, 00_header and 10_linux run; gettext only if the host
# has it (grub-mkconfig_lib falls back to printf).
GD_TOOLS="sh basename dirname id sed grep fgrep cat rm chmod uname readlink tr cut head
sort stat grub-mkconfig grub-mkrelpath grub-script-check"

# gd_put FILE: copy FILE into the chroot at the same path.
gd_put() {
	mkdir -p "$GD_TREE${1%/*}"
	cp -L "$1" "$GD_TREE$1" || e2e_fail "cannot copy $1 into the chroot $GD_TREE"
}

# gd_tree [PROGRAM...]: a fresh chroot: GD_TOOLS and the PROGRAMs and their
# libraries (as ldd finds them; /bin, /lib... linked to /usr as on the host),
# grub-mkconfig_lib, 00_header, 10_linux and the stub grub-probe, an empty
# /etc/default and /boot/grub.
gd_tree() {
	local d t p lib
	rm -rf "$GD_TREE" "$GD_TREE.boot"
	for d in bin sbin lib lib64; do
		mkdir -p "$GD_TREE/usr/$d"
		[ ! -L "/$d" ] || ln -s "$(readlink "/$d")" "$GD_TREE/$d"
	done
	for t in $GD_TOOLS "$@" gettext; do
		p=$(command -v "$t") || { [ "$t" = gettext ] && continue; e2e_fail "no $t on this host"; }
		gd_put "$p"
		for lib in $(ldd "$p" 2>/dev/null | grep -oE '/[^ ]+'); do gd_put "$lib"; done
	done
	gd_put /etc/ld.so.cache
	gd_put /usr/share/grub/grub-mkconfig_lib
	gd_put /etc/grub.d/00_header
	gd_put /etc/grub.d/10_linux
	mkdir -p "$GD_TREE/etc/default" "$GD_TREE/boot/grub" "$GD_TREE/tmp"
	if [ -n "$GD_BOOT_UUID" ]; then
		GD_BOOT=$GD_TREE.boot
		mv "$GD_TREE/boot" "$GD_BOOT"
		mkdir "$GD_TREE/boot"
	fi
	sed "s/@BOOT_UUID@/$GD_BOOT_UUID/" >"$GD_TREE/usr/sbin/grub-probe" <<-'PROBE'
		#!/bin/sh
		# The test's disk: / on /dev/sda1; /boot on /dev/sda2 when it has a UUID.
		uuid=@BOOT_UUID@ t= boot=
		for a; do
			case $a in
			--target=*) t=${a#--target=} ;;
			/boot | /boot/* | /dev/sda2) [ -z "$uuid" ] || boot=1 ;;
			esac
		done
		case $t in
		device) if [ -n "$boot" ]; then echo /dev/sda2; else echo /dev/sda1; fi ;;
		fs) echo ext2 ;;
		partmap) echo msdos ;;
		fs_uuid) if [ -n "$boot" ]; then echo "$uuid"; else exit 1; fi ;;
		abstraction | compatibility_hint) ;;
		*) exit 1 ;;
		esac
	PROBE
	chmod +x "$GD_TREE/usr/sbin/grub-probe"
}

# gd_chroot COMMAND...: run COMMAND in the chroot with a /dev/null: as root,
# a device node of its own; otherwise as root of a user namespace, with the
# host's /dev/null bound on a placeholder. With a /boot partition, in a mount
# namespace that mounts it (GD_BOOT's files copied in, and back afterwards).
gd_chroot() {
	local ns=(unshare -m) dev=node
	rm -f "$GD_TREE/dev/null"
	mkdir -p "$GD_TREE/dev"
	if [ "$(id -u)" = 0 ]; then
		mknod -m 666 "$GD_TREE/dev/null" c 1 3 || e2e_fail "mknod $GD_TREE/dev/null"
		if [ -z "$GD_BOOT_UUID" ]; then
			chroot "$GD_TREE" "$@"
			return
		fi
	else
		: >"$GD_TREE/dev/null"
		ns=(unshare -rm) dev=bind
	fi
	# $0 the chroot, $1 how /dev/null comes, $2 the /boot files or nothing.
	"${ns[@]}" sh -c '
		tree=$0 dev=$1 boot=$2
		shift 2
		[ "$dev" = node ] || mount --bind /dev/null "$tree/dev/null" || exit 125
		if [ -n "$boot" ]; then
			mount -t tmpfs ramsift-test-boot "$tree/boot" &&
				cp -a "$boot/." "$tree/boot/" || exit 125
		fi
		chroot "$tree" "$@"
		status=$?
		if [ -n "$boot" ]; then
			rm -rf "$boot" && cp -a "$tree/boot" "$boot" || exit 125
		fi
		exit $status
	' "$GD_TREE" "$dev" "${GD_BOOT_UUID:+$GD_BOOT}" "$@"
}

# gd_default_grub: /etc/default/grub is Debian's default, then a serial
# console and no wait for the test boots, then the lines read from stdin.
gd_default_grub() {
	{
		cat /usr/share/grub/default/grub
		echo '# The test boot: the serial console, no wait'
		echo 'GRUB_TIMEOUT=0'
		echo 'GRUB_TERMINAL=serial'
		echo 'GRUB_SERIAL_COMMAND="serial --unit=0 --speed=115200"'
		echo '# The scenario'
		cat
	} >"$GD_TREE/etc/default/grub"
}

# gd_mkconfig STEP: run update-grub's command in the chroot and keep the
# grub.cfg it wrote as build/test/<scenario>-STEP.cfg (GD_CFG), what it said
# on stderr as GD_CFG.log. Fails when it fails, or when a program it ran is
# missing from the chroot.
gd_mkconfig() {
	GD_CFG=$E2E_DIR/$E2E_NAME-$1.cfg
	rm -f "$GD_BOOT/grub/grub.cfg" "$GD_CFG"
	gd_chroot /usr/sbin/grub-mkconfig -o /boot/grub/grub.cfg >"$GD_CFG.log" 2>&1 ||
		{ cat "$GD_CFG.log" >&2; e2e_fail "$1: grub-mkconfig in $GD_TREE"; }
	! grep -i 'not found' "$GD_CFG.log" >&2 ||
		e2e_fail "$1: grub-mkconfig in $GD_TREE: a program is missing from the chroot"
	cp "$GD_BOOT/grub/grub.cfg" "$GD_CFG"
}

# gd_dpkg_tree: gd_tree, plus dpkg with what it runs and a database in which
# the packages a Debian system with GRUB has and ramsift's package may depend
# on are installed (their entries and file lists copied from this machine's),
# and a first grub.cfg, as the GRUB package's own postinst leaves one.
GD_PACKAGES="libc6 grub-common grub2-common grub-pc-bin grub-efi-amd64-bin"
gd_dpkg_tree() {
	local admin=$GD_TREE/var/lib/dpkg p n
	gd_tree dpkg dpkg-deb dpkg-split tar diff ldconfig start-stop-daemon update-grub
	mkdir -p "$admin/info" "$admin/updates" "$admin/triggers"
	dpkg-query -s $GD_PACKAGES >"$admin/status" || e2e_fail "dpkg-query -s $GD_PACKAGES"
	for p in /var/lib/dpkg/info/*.list; do
		n=${p##*/} n=${n%.list}
		case " $GD_PACKAGES " in
		*" ${n%%:*} "*) cp "$p" "$admin/info/" ;;
		esac
	done
	: >"$admin/available"
	gd_default_grub </dev/null
	gd_mkconfig before
}

# gd_dpkg STEP ARGS...: run dpkg ARGS in the chroot, which must succeed and
# (through the package's maintainer script) run update-grub; GD_CFG is then
# the grub.cfg it wrote, kept as build/test/<scenario>-STEP.cfg, and
# GD_CFG.log what dpkg said.
gd_dpkg() {
	GD_CFG=$E2E_DIR/$E2E_NAME-$1.cfg
	shift
	gd_chroot dpkg "$@" >"$GD_CFG.log" 2>&1 ||
		{ cat "$GD_CFG.log" >&2; e2e_fail "dpkg $* in $GD_TREE"; }
	grep -q '^Generating grub configuration file' "$GD_CFG.log" ||
		{ cat "$GD_CFG.log" >&2; e2e_fail "dpkg $*: no update-grub ran"; }
	! grep -i 'not found' "$GD_CFG.log" >&2 ||
		e2e_fail "dpkg $* in $GD_TREE: a program is missing from the chroot"
	cp "$GD_BOOT/grub/grub.cfg" "$GD_CFG"
}

# gd_iso OUT: a GRUB medium (grub-mkrescue, BIOS and UEFI) that boots GD_CFG
# as it is, as its /boot/grub/grub.cfg, with the chroot's /boot files where
# GRUB looks for them: under /boot or, with a /boot partition, at the
# medium's root, the medium then standing for that partition. Its UUID (ISO
# 9660's, from the moment grub-mkrescue ran) then replaces GD_BOOT_UUID in
# the image's grub.cfg, in place and of the same length, so that the
# entries' `search --fs-uuid` finds it.
gd_iso() {
	local root=$E2E_DIR/$E2E_NAME.root dest uuid off
	rm -rf "$root"
	dest=$root/boot
	[ -z "$GD_BOOT_UUID" ] || dest=$root
	mkdir -p "$dest" "$root/boot/grub"
	cp -a "$GD_BOOT/." "$dest/"
	cp "$GD_CFG" "$root/boot/grub/grub.cfg"
	grub-mkrescue --fonts= --themes= --locales= -o "$1" "$root" >"$1.log" 2>&1 ||
		{ cat "$1.log" >&2; e2e_fail "grub-mkrescue $1"; }
	rm -rf "$root" "$1.log"
	[ -n "$GD_BOOT_UUID" ] || return 0
	uuid=$(xorriso -indev "$1" -pvd_info 2>/dev/null | sed -nE \
		's/^Modif\. Time *: *(....)(..)(..)(..)(..)(..)(..)$/\1-\2-\3-\4-\5-\6-\7/p')
	[ ${#uuid} -eq ${#GD_BOOT_UUID} ] || e2e_fail "$1: no ISO 9660 UUID of GRUB's form: '$uuid'"
	for off in $(grep -obUaF -- "$GD_BOOT_UUID" "$1" | cut -d: -f1); do
		printf '%s' "$uuid" | dd of="$1" bs=1 seek="$off" conv=notrunc status=none
	done
	grep -qaF -- "--set=root $uuid" "$1" || e2e_fail "$1: the UUID $uuid is not in its grub.cfg"
}
