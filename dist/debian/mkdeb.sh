#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Turn a tree that `make install DESTDIR=ROOT PREFIX=/usr` filled into
# ramsift's Debian package, with dpkg-deb (no debian/rules, no debhelper):
# ramsift-fold and ramsift-apply stripped and the manual pages compressed as
# policy asks (10.1, 12.1), /usr/share/doc/ramsift/copyright and changelog.gz (policy
# 12.7: the name for a native package, which ramsift's is: no upstream apart),
# the lintian overrides, and DEBIAN/ (the maintainer scripts, conffiles:
# everything under /etc, md5sums, and the control file that dpkg-gencontrol
# writes from dist/debian/control with the programs' library dependencies
# from dpkg-shlibdeps). Files are owned by root (dpkg-deb --root-owner-group);
# their dates are clamped to SOURCE_DATE_EPOCH when it is set.
# usage: mkdeb.sh VERSION COMMIT ROOT OUT.deb
#   VERSION  the Debian version;  COMMIT  what the changelog says it was built from
set -eu

[ $# -eq 4 ] || { echo "usage: $0 VERSION COMMIT ROOT OUT.deb" >&2; exit 2; }
version=$1 commit=$2 root=$(realpath "$3") out=$4
here=$(realpath "$(dirname "$0")")
# dpkg-shlibdeps and dpkg-gencontrol read a source tree's debian/: a small
# one beside ROOT holds the control file and the changelog.
src=$(dirname "$root")/src
umask 022

strip --strip-unneeded --remove-section=.comment --remove-section=.note \
	"$root/usr/bin/ramsift-fold" "$root/usr/sbin/ramsift-apply"
find "$root/usr/share/man" -type f -name '*.[1-9]' -exec gzip -9n {} +

date=$(date -u -R ${SOURCE_DATE_EPOCH:+-d "@$SOURCE_DATE_EPOCH"})
maintainer=$(sed -n 's/^Maintainer: //p' "$here/control")
rm -rf "$src"
mkdir -p "$src/debian"
cp "$here/control" "$src/debian/control"
sed -e "s/@VERSION@/$version/" -e "s/@COMMIT@/$commit/" \
	-e "s/@MAINTAINER@/$maintainer/" -e "s/@DATE@/$date/" \
	"$here/changelog" >"$src/debian/changelog"

doc=$root/usr/share/doc/ramsift
mkdir -p "$doc" "$root/usr/share/lintian/overrides"
# The GRUB inside the ISO is the one installed here (iso/mkiso.sh).
grub=$(dpkg-query -W -f='${Version}' grub-pc-bin)
sed "s/@GRUB_VERSION@/$grub/" "$here/copyright" >"$doc/copyright"
gzip -9n -c "$src/debian/changelog" >"$doc/changelog.gz"
cp "$here/lintian-overrides" "$root/usr/share/lintian/overrides/ramsift"

mkdir -p "$root/DEBIAN"
cp "$here/postinst" "$here/postrm" "$root/DEBIAN/"
chmod 755 "$root/DEBIAN/postinst" "$root/DEBIAN/postrm"
(cd "$root" && find etc -type f | sed 's|^|/|' | sort) >"$root/DEBIAN/conffiles"
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -print | sed 's|^\./||' | sort |
	xargs md5sum) >"$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/conffiles" "$root/DEBIAN/md5sums"

(
	cd "$src"
	dpkg-shlibdeps -Tdebian/substvars "$root/usr/bin/ramsift-fold" "$root/usr/sbin/ramsift-apply"
	dpkg-gencontrol -v"$version" -Tdebian/substvars -P"$root"
)
dpkg-deb --root-owner-group --build "$root" "$out" >/dev/null
