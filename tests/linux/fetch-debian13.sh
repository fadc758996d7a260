#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Fetch Debian 13 (trixie) packages on a Debian 12 machine without touching
# its apt configuration: apt-get runs with a private sources list for trixie
# (the archive this machine's own sources name, Debian's keyring) and
# private lists and caches in DIR/../apt. Each PKG's .deb is kept in
# DIR/../apt/debs and unpacked into DIR as `dpkg -x` would; DIR/versions
# names them. --kernel fetches Debian 13's kernel to DIR/vmlinuz, as
# tests/linux/fetch-kernel.sh does Debian 12's. A second run downloads
# nothing but lists that are missing or name a .deb gone from the archive.
# usage: fetch-debian13.sh DIR PKG...
#        fetch-debian13.sh --kernel DIR
set -eu

usage() {
	echo "usage: $0 DIR PKG... | $0 --kernel DIR" >&2
	exit 2
}
kernel=
[ "${1-}" != --kernel ] || { kernel=1; shift; }
[ $# -ge 1 ] || usage
if [ -n "$kernel" ]; then [ $# -eq 1 ] || usage; else [ $# -ge 2 ] || usage; fi
mkdir -p "$1"
dir=$(cd "$1" && pwd)
shift
state=${dir%/*}/apt
# The GRUB and the kernel share the apt state: one fetch at a time (make -j).
mkdir -p "$state"
exec 9>"$state.lock"
flock 9

# The archive this machine fetches Debian from: the first URI of its one-line
# (deb URI ...) or deb822 (URIs: URI) sources, and its security archive.
archives() {
	cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources \
		2>/dev/null | sed -nE 's/^deb (\[[^]]*\] )?([^ ]+) .*/\2/p; s/^URIs: *([^ ]+).*/\1/p'
}
main=$(archives | grep -m 1 '/debian/*$') || true
security=$(archives | grep -m 1 '/debian-security/*$') || true
[ -n "$main" ] || {
	echo "fetch-debian13.sh: no Debian archive (a URI ending in /debian) in" \
		"/etc/apt/sources.list*; add the one this machine uses" >&2
	exit 1
}

mkdir -p "$state/lists/partial" "$state/cache/archives/partial" "$state/debs"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
{
	echo "deb [signed-by=$keyring] $main trixie main"
	echo "deb [signed-by=$keyring] $main trixie-updates main"
	[ -z "$security" ] || echo "deb [signed-by=$keyring] $security trixie-security main"
} >"$state/sources.list"
apt_options=(-o "Dir::Etc::SourceList=$state/sources.list" -o Dir::Etc::SourceParts=/dev/null
	-o "Dir::State::Lists=$state/lists" -o "Dir::Cache=$state/cache" -o APT::Sandbox::User=root)

update() {
	apt-get "${apt_options[@]}" update -q >"$state/update.log" 2>&1 || {
		cat "$state/update.log" >&2
		echo "fetch-debian13.sh: apt-get update for trixie from $main failed" >&2
		exit 1
	}
}
compgen -G "$state/lists/*_Packages*" >/dev/null || update

if [ -n "$kernel" ]; then
	fetch_kernel=(sh "$(dirname "$0")/fetch-kernel.sh" "$dir" "${apt_options[@]}")
	"${fetch_kernel[@]}" && exit 0
	update   # the lists may name a kernel the archive no longer has
	exec "${fetch_kernel[@]}"
fi

# kept PKG: the .deb of PKG in the cache, if any.
kept() {
	local debs
	debs=$(compgen -G "$state/debs/${1}_*.deb") && printf '%s\n' "$debs" | tail -n 1
}
# download PKG...: apt-get download into the cache (it writes to the
# current directory).
download() {
	(cd "$state/debs" && apt-get "${apt_options[@]}" download -q "$@")
}
missing=()
for p; do kept "$p" >/dev/null || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ] && ! download "${missing[@]}"; then
	update   # the lists may name versions the archive no longer has
	download "${missing[@]}" || {
		echo "fetch-debian13.sh: apt-get download ${missing[*]} from trixie failed" >&2
		exit 1
	}
fi

: >"$dir/versions"
for p; do
	deb=$(kept "$p") || { echo "fetch-debian13.sh: no .deb of $p in $state/debs" >&2; exit 1; }
	dpkg-deb -x "$deb" "$dir"
	basename "$deb" >>"$dir/versions"
done
echo "fetch-debian13.sh: $dir holds $(tr '\n' ' ' <"$dir/versions")"
