#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the ramsift ISO with grub-mkrescue: GRUB for BIOS (grub-pc-bin) and UEFI
# (grub-efi-amd64-bin), hybrid, so the same file boots as a CD and, written to a
# USB stick or a disk with dd, as a disk. The menu is iso/grub.cfg; the options
# rewrite it for unattended test ISOs:
#   -t SECONDS  menu timeout          -e ID    default entry (its --id)
#   -a ARGS     kernel options appended to every entry
#   -g MODE     `set gfxpayload=MODE` (e.g. 1920x1080x32) after each
#               multiboot2 line: the graphics mode GRUB sets instead of the
#               one ramsift's header asks for
# Fails if the ISO lacks the BIOS or the UEFI boot image (grub-mkrescue leaves
# out, without an error, a platform whose GRUB package is missing).
set -eu

usage() {
	echo "usage: $0 [-t SECONDS] [-e ENTRY_ID] [-a 'KERNEL ARGS'] [-g MODE] IMAGE.elf OUT.iso" >&2
	exit 2
}

timeout= entry= args= mode=
while getopts t:e:a:g: opt; do
	case $opt in
	t) timeout=$OPTARG ;;
	e) entry=$OPTARG ;;
	a) args=$OPTARG ;;
	g) mode=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage
elf=$1 out=$2

root=$out.root
rm -rf "$root"
mkdir -p "$root/boot/grub"
trap 'rm -rf "$root"' EXIT
cp "$elf" "$root/boot/ramsift.elf"
cfg=$root/boot/grub/grub.cfg
cp "$(dirname "$0")/grub.cfg" "$cfg"

# edit LINE_REGEX REPLACEMENT: rewrite the lines of grub.cfg matching the basic
# regex, which must match (a renamed line in grub.cfg then breaks the build
# instead of giving a test ISO that waits at its menu). '|' only escaped.
edit() {
	if ! grep -q "$1" "$cfg"; then
		echo "mkiso.sh: no line of grub.cfg matches '$1'" >&2
		exit 1
	fi
	sed "s|$1|$2|" "$cfg" >"$cfg.new"
	mv "$cfg.new" "$cfg"
}
[ -z "$timeout" ] || edit '^set timeout=.*' "set timeout=$timeout"
[ -z "$entry" ] || edit '^set default=.*' "set default=$entry"
if [ -n "$args" ]; then
	args=$(printf '%s' "$args" | sed 's/[\\|&]/\\&/g')
	edit '^\([[:space:]]*multiboot2\{0,1\} /boot/ramsift\.elf.*\)' "\\1 $args"
fi
# After the multiboot2 command, which sets gfxpayload to the mode the
# image's header asks for.
case $mode in
*[!0-9x]*) usage ;;
esac
[ -z "$mode" ] || edit '^\([[:space:]]*\)\(multiboot2 /boot/ramsift\.elf.*\)' "\\1\\2\\n\\1set gfxpayload=$mode"
if [ -n "$entry" ] && ! grep -q -- "--id $entry {" "$cfg"; then
	echo "mkiso.sh: no menu entry with --id $entry" >&2
	exit 1
fi

log=$out.log
# No fonts, themes or locales: the menu is plain text (serial or console).
if ! grub-mkrescue --fonts= --themes= --locales= -o "$out" "$root" >"$log" 2>&1; then
	cat "$log" >&2
	exit 1
fi
rm -f "$log"

# El Torito: platform 0x00 is the BIOS boot image, 0xef the UEFI one.
boot=$(xorriso -indev "$out" -report_el_torito plain 2>/dev/null)
for plat in BIOS UEFI; do
	if ! printf '%s\n' "$boot" | grep -q "^El Torito boot img :.* $plat "; then
		echo "mkiso.sh: $out has no $plat boot image" >&2
		rm -f "$out"
		exit 1
	fi
done
