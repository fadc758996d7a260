#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Smoke test of dev/check-deps.sh, on a copy of the scripts it reads: it
# must fail, naming the file and the package, when tools/deps.sh no longer
# lists grub2-common (whose /usr/share/grub/default/grub grub-default.sh
# reads) or lists console-setup-linux (the font the build reads) for the
# checks only, not for make run; naming the script, when a test calls a
# program (rev) that tools/deps.files does not list; and pass on the copy.
set -u
cd "$(dirname "$0")/../.."
tmp=${TMPDIR:-/tmp}/deps-smoke.$$
trap 'rm -rf "$tmp"' EXIT
fails=0

# expect NAME WANT_STATUS WANT_TEXT: run the copy's check-deps.
expect() {
	bash "$tmp/dev/check-deps.sh" >"$tmp.out" 2>&1
	rc=$?
	if [ "$rc" != "$2" ] || ! grep -qF -- "$3" "$tmp.out"; then
		echo "FAIL deps-smoke: $1: exit $rc (want $2), want a line with: $3; got:"
		cat "$tmp.out"
		fails=1
	fi
}

mkdir -p "$tmp"
cp -R Makefile mk tools dev tests bench iso dist .ci "$tmp/"
expect "the copy as it is" 0 "  DEPS    "

sed -i 's/ grub2-common / /' "$tmp/tools/deps.sh"
expect "grub2-common unlisted" 1 \
	"check-deps: /usr/share/grub/default/grub, used by grub-default.sh: Debian's /etc/default/grub, comes from grub2-common (priority optional), which tools/deps.sh does not install"
cp tools/deps.sh "$tmp/tools/deps.sh"

sed -i '/^RUN_PKGS=/,/"$/s/ console-setup-linux//; /^RUN_PKGS=/,/"$/s/^console-setup-linux"/"/' \
	"$tmp/tools/deps.sh"
sed -i 's/^PKGS="$RUN_PKGS/PKGS="$RUN_PKGS console-setup-linux/' "$tmp/tools/deps.sh"
expect "console-setup-linux only in the checks' packages" 1 \
	"check-deps: /usr/share/consolefonts/FullGreek-VGA16.psf.gz, used by mk/screen.mk: the font (console-setup-linux), comes from console-setup-linux (priority optional), which tools/deps.sh run (make run) does not install"
cp tools/deps.sh "$tmp/tools/deps.sh"

printf 'rev "$1"\n' >>"$tmp/tests/e2e/lib.sh"
expect "rev unlisted" 1 "check-deps: tests/e2e/lib.sh:$(($(wc -l <tests/e2e/lib.sh) + 1)) calls rev ("

rm -f "$tmp.out"
[ $fails = 0 ] && echo "  SMOKE   check-deps: an unlisted package, a package make run lacks and an unlisted program fail"
exit $fails
