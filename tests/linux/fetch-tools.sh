#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Fetch Debian's own user-space tools for an initramfs, without installing
# them: each PACKAGE is fetched with `apt-get download` into DIR (kept there
# as a cache: a second run does not download again) and unpacked with
# `dpkg-deb -x` into DIR/root; then every shared library its programs need, as
# this machine's ldd finds them (the same Debian release; tools/deps.sh
# installs the packages that hold them), is copied into DIR/root at the same
# path, the loader too. DIR/root then runs the programs with no other file.
# Works as any user with Debian's package lists; as root it fetches the
# lists when a package is unknown.
# usage: fetch-tools.sh DIR PACKAGE...
set -eu

[ $# -ge 2 ] || { echo "usage: $0 DIR PACKAGE..." >&2; exit 2; }
dir=$1
shift
mkdir -p "$dir"
# Built aside and renamed at the end: a failed run leaves no DIR/root that
# make would take as done.
root=$dir/root.tmp
rm -rf "$root" "$dir/root"
mkdir -p "$root"

for pkg; do
	deb=$(ls "$dir/${pkg}"_*.deb 2>/dev/null | tail -n 1) || true
	if [ -z "$deb" ]; then
		if ! apt-cache show "$pkg" >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
			apt-get update -q >/dev/null
		fi
		# apt-get download writes to the current directory.
		(cd "$dir" && apt-get download -q "$pkg" 2>&1 |
			grep -v '^W: Download is performed unsandboxed') || true
		deb=$(ls "$dir/${pkg}"_*.deb 2>/dev/null | tail -n 1) || true
		[ -n "$deb" ] || {
			echo "fetch-tools.sh: apt-get download $pkg failed (run apt-get update?)" >&2
			exit 1
		}
	fi
	dpkg-deb -x "$deb" "$root"
	echo "fetch-tools.sh: $(basename "$deb") unpacked into $dir/root"
done

# The libraries: ldd prints "name => /path (addr)" and the loader's path.
for prog in "$root"/usr/bin/* "$root"/usr/sbin/*; do
	[ -f "$prog" ] || continue
	ldd "$prog" >"$dir/ldd.out" 2>&1 || continue   # not dynamic: nothing to copy
	if grep 'not found' "$dir/ldd.out" >&2; then
		echo "fetch-tools.sh: $prog needs the libraries above, which this machine lacks:" \
			"install the packages that hold them" >&2
		exit 1
	fi
	for lib in $(grep -oE '/[^ ]+' "$dir/ldd.out"); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
done
rm -f "$dir/ldd.out"
rm -rf "$root/usr/share"   # manuals and copyrights: not for the initramfs
# Merged /usr, as on the host: /lib64/ld-linux-x86-64.so.2 is where the
# programs look for their loader.
for d in lib lib64; do
	if [ -d "$root/$d" ] && [ ! -L "$root/$d" ]; then
		mkdir -p "$root/usr/$d"
		cp -a "$root/$d/." "$root/usr/$d/"
		rm -rf "${root:?}/$d"
	fi
	[ ! -d "$root/usr/$d" ] || ln -s "usr/$d" "$root/$d"
done
mv "$root" "$dir/root"
