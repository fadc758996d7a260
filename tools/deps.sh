#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Install the Debian packages ramsift needs, and only those that are missing:
# one dpkg-query to find them, one apt-get to install them; not root and
# something missing: print the command to run and fail. `run`: what building
# the image and booting it in QEMU need (make run); else everything the
# checks, make bench and make demo use. dev/check-deps.sh proves that every
# program and file of tools/deps.files comes from these packages (those
# tagged [run] from RUN_PKGS) or from Debian's base system.
# usage: deps.sh [--list] [run]   (--list: print the packages, one a line)
set -eu

# make run: libc6-dev is only a Recommends of gcc, but the host builds need
# its headers. binutils comes with gcc today; the build and the tests call it
# directly (binutils-x86-64-linux-gnu holds the programs binutils names,
# addr2line too). qemu-system-x86 depends on qemu-system-data, seabios and
# ipxe-qemu: listed for the Multiboot loader, the BIOS and the NIC's option
# ROM that every boot loads. console-setup-linux ships the console font the
# build turns into ramsift's (mk/screen.mk).
RUN_PKGS="gcc libc6-dev binutils binutils-x86-64-linux-gnu make qemu-system-x86 qemu-system-data seabios ipxe-qemu
console-setup-linux"

# The checks, make bench and make demo besides: grub2-common has Debian's
# /etc/default/grub and update-grub (tests/e2e/roundtrip/grub-default.sh).
# debootstrap and git: `make check-fresh` builds a Debian root and clones the
# repository into it;
# debootstrap also builds the Debian 13 root whose QEMU 10 runs the x2APIC
# scenario (dev/trixie-qemu.sh: Debian 12's QEMU has no TCG x2APIC).
# zbar-tools and qrencode: make check-qr holds lib/qr against both.
# socat talks to QEMU's monitor and COM1 in the scenarios.
# dpkg-dev (dpkg-shlibdeps, dpkg-gencontrol) builds the package of make deb,
# and lintian checks it (check-deb). libc6, libgcc-s1, libstdc++6 and libaio1:
# the libraries of Debian's stressapptest and mbw, which
# tests/linux/fetch-tools.sh copies from this machine into make
# bench-consumer's initramfs.
# gnu-efi: the headers, crt0 and linker script ramsift-reserve.efi is built with (mk/efi.mk).
# clang and libclang-rt-14-dev (libFuzzer and the sanitizers' runtimes, only
# a Recommends of clang) build the fuzz harnesses that make check runs;
# libzbar-dev lets the QR harness decode every symbol (mk/fuzz.mk).
PKGS="$RUN_PKGS
grub-pc-bin grub-efi-amd64-bin grub-common grub2-common xorriso mtools ovmf
libcmocka-dev cpio memtest86+ debootstrap git zbar-tools qrencode
socat dpkg-dev lintian libc6 libgcc-s1 libstdc++6 libaio1 gnu-efi
clang libclang-rt-14-dev libzbar-dev"

list=
[ "${1-}" != --list ] || { list=1; shift; }
case ${1-} in
run) PKGS=$RUN_PKGS ;;
'') ;;
*)
	echo "usage: $0 [--list] [run]" >&2
	exit 2
	;;
esac
if [ -n "$list" ]; then
	printf '%s\n' $PKGS
	exit 0
fi

# dpkg-query lists the packages it knows with their state; the ones it does not
# know (never installed) are simply absent, hence the `|| true`.
installed=$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' $PKGS 2>/dev/null |
	awk '$2 == "installed" { print $1 }') || true
missing=
for p in $PKGS; do
	printf '%s\n' "$installed" | grep -qx "$p" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

install="apt-get install -y --no-install-recommends$missing"
echo "deps.sh: missing packages:$missing" >&2
if [ "$(id -u)" != 0 ]; then
	echo "deps.sh: run as root: $install" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
# A fresh system (a CI container) may have no package lists yet; fetch them
# only when the install fails, so the usual case stays offline.
$install || { apt-get update && $install; }
