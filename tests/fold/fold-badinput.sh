#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# build/ramsift-fold on input a new user or an adversary gives it: a ramsift
# log whose ERROR lines errors= capped (tests/fold/logs/: real logs of 40
# stuck cells, tests=march-c with errors=5 and errors=0), its RAM map, a
# directory, addresses beyond 2^52 or outside --ram, a --ram with no whole
# page, an empty input. Each case once passed silently with exit 0.
# Usage: tests/fold/fold-badinput.sh path/to/ramsift-fold path/to/ramsift-jsoncheck
set -u
fold=$1 jsoncheck=$2
logs=$(dirname "$0")/logs
fails=0
tmp=${TMPDIR:-/tmp}/fold-badinput.$$
trap 'rm -rf "$tmp" "$tmp".*' EXIT

fail() { echo "FAIL fold-badinput: $*"; cat "$tmp.out" "$tmp.err"; fails=1; }
# run WANT_STATUS ARGS...: stdout to $tmp.out, stderr to $tmp.err.
run() {
	want=$1
	shift
	"$fold" "$@" >"$tmp.out" 2>"$tmp.err"
	rc=$?
	[ "$rc" = "$want" ] || fail "$*: exit $rc, want $want"
}
# said REGEX WHAT: standard error says it.
said() { grep -Eq "$1" "$tmp.err" || fail "$2: standard error does not match /$1/"; }

# The image's own fold of the 40 pages, which a refold must reproduce.
image_fold=$(grep -a '^fold: ' "$logs/march-c-40cells-errors5.log" | tr -d '\r')
for cap in 5 0; do
	log=$logs/march-c-40cells-errors$cap.log
	run 0 "$log"
	[ "$(grep '^fold: ' "$tmp.out")" = "$image_fold" ] ||
		fail "errors=$cap log: the refold differs from the image's: $image_fold"
	said 'ERROR lines were not printed .*folding the 40 failing pages its offline: lines list' \
		"errors=$cap log: the capped ERROR lines named"
done
# Without its offline: lines a capped log lists some pages only: nothing
# on standard output, exit 3.
grep -av '^offline: ' "$logs/march-c-40cells-errors5.log" >"$tmp.log"
run 3 "$tmp.log"
[ -s "$tmp.out" ] && fail "capped log without offline: lines: printed a fold of some pages"
said '435 ERROR lines were not printed .*would exclude too little' 'capped log refused'
# The log's usable lines are the RAM map: 32639 pages, not 0-1 GiB.
run 0 --format json "$logs/march-c-40cells-errors5.log"
got=$("$jsoncheck" --get ram_pages "$tmp.out")
[ "$got" = 32639 ] || fail "the log's RAM map: ram_pages $got, want 32639"

mkdir -p "$tmp"
run 2 "$tmp"
said 'Is a directory' 'a directory as input'

printf '0x10000000000000\nERROR addr=0x0010000000000008 expected=0x0 actual=0x1 test=x pass=1 cpu=0\n' >"$tmp.in"
run 1 "$tmp.in"
[ "$(grep -c 'beyond 2\^52, the x86-64 physical address limit' "$tmp.err")" = 2 ] ||
	fail 'addresses at 2^52: want both lines named as beyond the physical address limit'

# A line of bad input is shown escaped: it cannot drive the terminal.
printf '0x1000\n\033[2Jx\n' >"$tmp.in"
run 1 "$tmp.in"
said ':2: not an address.*: \\x1b\[2Jx$' 'a bad line shown escaped'

printf '0x1000\n0x5000000000\n' >"$tmp.in"
run 1 --ram 0-1G --format memmap "$tmp.in"
[ "$(cat "$tmp.out")" = 'memmap=4K$0x1000' ] || fail 'an address outside --ram: memmap='
said 'outside the RAM ranges: 1 \(the first 0x5000000000\)' 'an address outside --ram named'
printf '0x5000000000\n' >"$tmp.in"
run 1 --ram 0-1G "$tmp.in"
grep -q '^memmap=' "$tmp.out" && fail 'no failing page in RAM: an empty memmap= line'

printf '0x1000\n' >"$tmp.in"
run 2 --ram 1-2 "$tmp.in"
said 'whole 4 KiB page' '--ram 1-2 refused'

: >"$tmp.in"
run 0 --format json "$tmp.in"
said 'names no failing address: nothing to exclude' 'empty input explained'

[ $fails = 0 ] && echo "  SMOKE   ramsift-fold on bad input: all cases passed"
exit $fails
