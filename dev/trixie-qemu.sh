#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Run QEMU 10 from Debian 13 (trixie) on this Debian 12 machine, for what
# QEMU 7.2 cannot do: TCG's x2APIC (tests/e2e/smp-x2apic.sh). A minimal
# trixie root holding qemu-system-x86 is built by debootstrap from the mirror
# this machine's apt uses, once, into build/trixie-qemu (about 370 MB); QEMU
# then runs in it by chroot, in a mount namespace of its own where the
# current directory is bound to the same path inside, so
# QEMU_ARGS name files as they are here (under the current directory only).
# QEMU is the command's own process (exec all the way): a time limit's
# signal reaches it. As root only.
# usage: dev/trixie-qemu.sh QEMU_ARGS...  (as qemu-system-x86_64 QEMU_ARGS)
#        dev/trixie-qemu.sh --build       (only make the root when missing)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)/build/trixie-qemu

die() { echo "trixie-qemu: $*" >&2; exit 3; }

if [ "${1-}" = --inside ]; then
	# In the namespace: bind the caller's directory, enter the root.
	here=$2
	shift 2
	mkdir -p "$root$here"
	mount --bind "$here" "$root$here"
	exec chroot "$root" /bin/sh -c 'cd "$0" && exec qemu-system-x86_64 "$@"' "$here" "$@"
fi

[ "$(id -u)" = 0 ] || die "debootstrap, mount and chroot need root: run as root"
if [ ! -e "$root/.trixie-ok" ]; then
	command -v debootstrap >/dev/null ||
		die "no debootstrap: run as root: sh tools/deps.sh (it installs it)"
	mkdir -p "$(dirname "$root")"
	# One build at a time; a scenario that waited finds it made.
	exec 9>"$root.lock"
	flock 9
	if [ ! -e "$root/.trixie-ok" ]; then
		m=$("$(dirname "$0")/debian-mirror.sh" bookworm)
		[ -n "$m" ] || die "no Debian mirror for bookworm in /etc/apt/sources.list(.d)"
		echo "trixie-qemu: building $root from $m (debootstrap, once)" >&2
		rm -rf "$root.tmp"
		debootstrap --variant=minbase --arch=amd64 --include=qemu-system-x86 trixie \
			"$root.tmp" "$m" >"$root.log" 2>&1 ||
			{ tail -n 30 "$root.log" >&2; die "debootstrap failed (log: $root.log)"; }
		rm -rf "$root"
		mv "$root.tmp" "$root"
		touch "$root/.trixie-ok"
	fi
	exec 9>&-
fi
[ "${1-}" != --build ] || exit 0
exec unshare --mount --propagation private "$0" --inside "$PWD" "$@"
