#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `make check-fresh`: `make run`, then `bash .ci/run`, as a fresh Debian 12
# machine runs them. A minimal bookworm root (debootstrap's base system, then
# gcc and git) is built once into build/fresh/base; each run copies it to
# build/fresh/root and clones the committed HEAD into it twice (uncommitted
# changes are not seen, as by CI). make run must install deps.sh run's
# packages and no others and PASS; .ci/run must install the rest and pass.
# Prints the time .ci/run took, installs included. As root only. /proc, /sys
# and /dev are mounted in a mount namespace of the chroot's own, so a killed
# run never leaves the host's /dev under build/ for `make clean` to delete.
# usage: dev/check-fresh.sh
set -euo pipefail
cd "$(dirname "$0")/.."

top=$PWD
dir=$top/build/fresh
base=$dir/base
root=$dir/root
suite=bookworm

die() { echo "check-fresh: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "debootstrap and chroot need root: run as root: make check-fresh"
command -v debootstrap >/dev/null ||
	die "no debootstrap: run as root: sh tools/deps.sh (it installs it)"

# in_root ROOT COMMAND...: COMMAND in the chroot ROOT with an empty
# environment but for PATH, HOME and CI (as CI runs .ci/run), and /proc,
# /sys, /dev (with /dev/pts and /dev/shm) of the host, mounted in a private
# mount namespace.
in_root() {
	unshare --mount --propagation private sh -eu -c '
		r=$1
		shift
		# The root a mount point of its own, as on a machine: unshare -m
		# in the tests (lib-grub.sh) cannot make a non-mount-point / private.
		mount --bind "$r" "$r"
		mount -t proc proc "$r/proc"
		mount --rbind /sys "$r/sys"
		mount --rbind /dev "$r/dev"
		exec chroot "$r" "$@"' in_root "$1" env -i HOME=/root TERM=dumb CI=true LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "${@:2}"
}

# no_mounts DIR: nothing is mounted under DIR (before it is deleted).
no_mounts() {
	! awk '{ print $2 }' /proc/self/mounts | grep -q "^$1\(/\|$\)" ||
		die "something is still mounted under $1: unmount it (umount -R $1), then rerun"
}

# The base root, once: what a fresh machine has before a user clones.
if [ ! -e "$base/.fresh-ok" ]; then
	m=$(dev/debian-mirror.sh "$suite")
	[ -n "$m" ] || die "no Debian mirror for $suite in /etc/apt/sources.list(.d)"
	echo "check-fresh: building the base root $base from $m (debootstrap, once)"
	no_mounts "$base"
	rm -rf "$base"
	mkdir -p "$dir"
	debootstrap --arch=amd64 "$suite" "$base" "$m" >"$dir/debootstrap.log" 2>&1 ||
		{ tail -n 30 "$dir/debootstrap.log" >&2; die "debootstrap failed (log: $dir/debootstrap.log)"; }
	# The same sources as this machine (its mirror, updates, security).
	if ls /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources \
		>/dev/null 2>&1; then
		rm -f "$base/etc/apt/sources.list"
		cp /etc/apt/sources.list "$base/etc/apt/" 2>/dev/null || true
		cp /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources \
			"$base/etc/apt/sources.list.d/" 2>/dev/null || true
	fi
	in_root "$base" sh -c 'apt-get update -q && DEBIAN_FRONTEND=noninteractive \
		apt-get install -q -y --no-install-recommends gcc git && apt-get clean &&
		rm -rf /var/lib/apt/lists/*' >"$dir/base-install.log" 2>&1 ||
		{ tail -n 30 "$dir/base-install.log" >&2; die "installing gcc and git in $base failed"; }
	touch "$base/.fresh-ok"
fi

echo "check-fresh: a fresh copy of $base in $root"
no_mounts "$root"
rm -rf "$root"
cp -a "$base" "$root"
[ -z "$(git status --porcelain --untracked-files=no)" ] ||
	echo "check-fresh: warning: uncommitted changes are not part of the run (it clones HEAD)" >&2
head=$(git rev-parse HEAD)
for clone in ramsift ramsift-run; do
	git clone -q --no-local "$top" "$root/root/$clone"
	git -C "$root/root/$clone" checkout -q --detach "$head"
done
echo "check-fresh: cloned $(git log -1 --format='%h %s' "$head")"

# installed: the packages of deps.sh's list that dpkg has installed in the root.
installed() {
	in_root "$root" sh -c 'cd /root/ramsift && dpkg-query -W -f="\${Package} \${db:Status-Status}\n" \
		$(sh tools/deps.sh --list) 2>/dev/null | awk "\$2 == \"installed\" { print \$1 }"' || true
}
pkgs=$(in_root "$root" sh -c 'cd /root/ramsift && sh tools/deps.sh --list')
before=$(installed)
absent=$(comm -23 <(tr ' ' '\n' <<<"$pkgs" | sort -u) <(sort -u <<<"$before"))
echo "check-fresh: absent from the root before .ci/run:" $absent
grep -qx grub2-common <<<"$absent" ||
	die "grub2-common is installed in the fresh root: the base is not fresh; rm -rf $base and rerun"

# make run first, in a clone of its own: it installs what building and
# booting need, no more, and boots to PASS.
run_pkgs=$(in_root "$root" sh -c 'cd /root/ramsift && sh tools/deps.sh --list run')
echo "check-fresh: sh tools/deps.sh run; make run MEM=64M ARGS=bitfade=0 in the root (log: $dir/run.log)"
# A fresh Debian has no make: deps.sh run installs it, as README says.
in_root "$root" sh -c 'cd /root/ramsift-run && sh tools/deps.sh run && make run MEM=64M ARGS=bitfade=0' \
	</dev/null >"$dir/run.log" 2>&1 ||
	die "make run failed in the fresh root (log: $dir/run.log, the root: $root)"
tail -n 1 "$dir/run.log" | grep -q '^ramsift: result=PASS ' ||
	die "make run did not end with result=PASS (log: $dir/run.log)"
after_run=$(installed)
# Of the checks' packages, only those a package of make run depends on
# (apt marks them automatic, as libaio1 for QEMU) may be there now.
manual=$(in_root "$root" apt-mark showmanual)
extra=$(comm -13 <(printf '%s\n' $before $run_pkgs | sort -u) <(sort -u <<<"$after_run") |
	grep -Fx -f <(printf '%s\n' $manual) || true)
[ -z "$extra" ] || die "make run installed packages only the checks need:" $extra
lacking=$(comm -23 <(printf '%s\n' $run_pkgs | sort -u) <(sort -u <<<"$after_run"))
[ -z "$lacking" ] || die "after make run these packages of deps.sh --list run are absent:" $lacking
echo "check-fresh: make run installed only deps.sh run's packages and passed"

echo "check-fresh: bash .ci/run in the root (log: $dir/ci-run.log)"
t0=$SECONDS
status=0
in_root "$root" bash -c 'cd /root/ramsift && bash .ci/run' 2>&1 | tee "$dir/ci-run.log" || status=$?
took=$((SECONDS - t0))
echo "check-fresh: .ci/run took $((took / 60)) min $((took % 60)) s (exit status $status)"
[ "$status" = 0 ] || die ".ci/run failed in the fresh root; its log: $dir/ci-run.log, the root: $root"

missing=$(comm -23 <(tr ' ' '\n' <<<"$pkgs" | sort -u) <(installed | sort -u))
[ -z "$missing" ] || die "after .ci/run these packages of deps.sh --list are still absent:" $missing
echo "check-fresh: PASS: .ci/run installed" $absent "and passed in a fresh $suite root"
no_mounts "$root"
rm -rf "$root"
