#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Fill DIR with what a TFTP server needs to boot ramsift over the network
# (make netboot: build/tftp/), laid out as on the ramsift ISO ISO: GRUB's PXE
# image boot/grub/i386-pc/core.0 (BIOS) and network image
# boot/grub/x86_64-efi/core.efi (UEFI) from grub-mknetdir, each with its
# modules; the ISO's menu boot/grub/grub.cfg, which both read from the
# server; the image boot/ramsift.elf; and ramsift.ipxe for iPXE, which loads
# ramsift itself on BIOS. ARGS (-a) are appended to the iPXE script's kernel
# line, as iso/mkiso.sh -a appends them to the menu's entries.
# usage: mknetboot.sh [-a 'KERNEL ARGS'] ISO DIR
set -eu

usage() {
	echo "usage: $0 [-a 'KERNEL ARGS'] ISO DIR" >&2
	exit 2
}

args=
while getopts a: opt; do
	case $opt in
	a) args=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage
iso=$1 dir=$2

rm -rf "$dir"
mkdir -p "$dir"
for platform in i386-pc x86_64-efi; do
	# No fonts, themes or locales: the menu is plain text, as on the ISO.
	grub-mknetdir --fonts= --themes= --locales= --net-directory="$dir" \
		--subdir=boot/grub -d "/usr/lib/grub/$platform" >"$dir.log" 2>&1 ||
		{ cat "$dir.log" >&2; exit 1; }
done
rm -f "$dir.log"
for image in boot/grub/i386-pc/core.0 boot/grub/x86_64-efi/core.efi; do
	[ -s "$dir/$image" ] || { echo "$0: grub-mknetdir made no $dir/$image" >&2; exit 1; }
done

xorriso -osirrox on -indev "$iso" -extract /boot/grub/grub.cfg "$dir/boot/grub/grub.cfg" \
	-extract /boot/ramsift.elf "$dir/boot/ramsift.elf" >"$dir.log" 2>&1 ||
	{ cat "$dir.log" >&2; exit 1; }
rm -f "$dir.log"
chmod 644 "$dir/boot/grub/grub.cfg" "$dir/boot/ramsift.elf"

args=$(printf '%s' "$args" | sed 's/[\\|&]/\\&/g')
sed "s|^kernel .*|&${args:+ $args}|" "$(dirname "$0")/ramsift.ipxe" >"$dir/ramsift.ipxe"
