#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Fetch Debian's own kernel for the Linux round trip, without installing it:
# the linux-image-<version>-amd64 package that linux-image-amd64 depends on
# today is fetched with `apt-get download` into DIR (kept there as a cache: a
# second run does not download again), and only its /boot/vmlinuz-* is
# unpacked (as `dpkg -x` would, without the 400 MB of modules the test does
# not need) to DIR/vmlinuz. APT_OPTION...: options for apt-get and apt-cache
# (tests/linux/fetch-debian13.sh --kernel gives a private sources list for
# Debian 13); without them the system's, Debian 12's. Works as any user with
# the package lists; as root it fetches the lists when they are missing.
# usage: fetch-kernel.sh DIR [APT_OPTION...]
set -eu

[ $# -ge 1 ] || { echo "usage: $0 DIR [APT_OPTION...]" >&2; exit 2; }
dir=$1
shift
mkdir -p "$dir"

kernel_package() {
	apt-cache "$@" depends linux-image-amd64 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*-amd64\)$/\1/p' | head -n 1
}
pkg=$(kernel_package "$@")
# A fresh system (a CI container) may have no package lists yet.
if [ -z "$pkg" ] && [ "$(id -u)" = 0 ]; then
	apt-get "$@" update -q >/dev/null
	pkg=$(kernel_package "$@")
fi
if [ -z "$pkg" ]; then
	echo "fetch-kernel.sh: apt-cache knows no linux-image-*-amd64 that linux-image-amd64" \
		"depends on; run apt-get update" >&2
	exit 1
fi
deb=$(ls "$dir/${pkg}"_*.deb 2>/dev/null | tail -n 1) || true
if [ -z "$deb" ]; then
	# apt-get download writes to the current directory.
	(cd "$dir" && apt-get "$@" download -q "$pkg" 2>&1 |
		grep -v '^W: Download is performed unsandboxed') || true
	deb=$(ls "$dir/${pkg}"_*.deb 2>/dev/null | tail -n 1) || true
	[ -n "$deb" ] || { echo "fetch-kernel.sh: apt-get download $pkg failed" >&2; exit 1; }
fi

rm -rf "$dir/unpacked"
mkdir -p "$dir/unpacked"
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir/unpacked" --wildcards './boot/vmlinuz-*'
mv "$dir"/unpacked/boot/vmlinuz-* "$dir/vmlinuz"
touch "$dir/vmlinuz"   # newer than this script: make keeps it
rm -rf "$dir/unpacked"
echo "fetch-kernel.sh: $dir/vmlinuz is $(basename "$deb")"
