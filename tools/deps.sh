#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Install the Debian packages that building and checking ramsift need, and only
# those that are missing: one dpkg-query to find them, one apt-get to install
# them. A no-op when everything is there. Not root and something missing: print
# the command to run and fail. Runs under plain sh (the Makefile's `deps`).
set -eu

# libc6-dev is only a Recommends of gcc, but the host builds need its headers.
# console-setup-linux ships the console font the build turns into ramsift's
# (mk/screen.mk); socat talks to QEMU's monitor in the screen scenarios.
PKGS="gcc libc6-dev make qemu-system-x86 grub-pc-bin grub-efi-amd64-bin
grub-common xorriso mtools ovmf libcmocka-dev cpio memtest86+
zbar-tools qrencode
console-setup-linux socat"

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
