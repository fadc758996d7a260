#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Smoke test of build/ramsift-fold: each input format, each --format, the
# exit statuses. Usage: tests/fold-smoke.sh path/to/ramsift-fold
set -u
fold=$1
fails=0
tmp=${TMPDIR:-/tmp}/fold-smoke.$$
trap 'rm -f "$tmp".*' EXIT

# expect NAME WANT_STATUS WANT_STDOUT_FILE -- ARGS... (stdin from $tmp.in)
expect() {
	name=$1 want_rc=$2 want=$3
	shift 4
	"$fold" "$@" <"$tmp.in" >"$tmp.out" 2>"$tmp.err"
	rc=$?
	if [ "$rc" != "$want_rc" ] || ! cmp -s "$want" "$tmp.out"; then
		echo "FAIL fold-smoke: $name: exit $rc (want $want_rc), output:"
		cat "$tmp.out" "$tmp.err"
		echo "wanted:"
		cat "$want"
		fails=1
	fi
}

printf '0x1234000\n1235008\n' >"$tmp.in"
cat >"$tmp.want" <<'OUT'
badram=0x1234000,0x7fffffffffffe000
GRUB_BADRAM="0x1234000,0x7fffffffffffe000"
memmap=8K$0x1234000
fold: failing_pages=2 pairs=1 holes=1 excluded_pages=2 sacrificed_pages=0 (0 B): exact
OUT
expect "bare addresses" 0 "$tmp.want" --

# A ramsift log: ERROR lines among other output, which is ignored.
cat >"$tmp.in" <<'IN'
ramsift 0.1 starting
ERROR addr=0x0000000012345678 expected=0x0000000000000000 actual=0x0000000000000100 test=march pass=1 cpu=0
progress 50%
ERROR addr=0x0000000012345ff8 expected=0x0000000000000000 actual=0x0000000000000100 test=march pass=1 cpu=1
ERROR addr=0x0000000080000000 expected=0x0000000000000000 actual=0x0000000000000001 test=march pass=2 cpu=0
IN
printf 'badram=0x12345000,0x7ffffffffffff000,0x80000000,0x7ffffffffffff000\n' >"$tmp.want"
expect "ramsift log" 0 "$tmp.want" -- --format badram

# memtest86+ 6.x error rows under their header.
cat >"$tmp.in" <<'IN'
pCPU  Pass  Test  Failing Address        Expected          Found
----  ----  ----  ---------------------  ----------------  ----------------
  0      1    7   00012345678c (291.2MB)  ffffffffffffffff  fffffffffffbffff
  3     12   10   0001f0000008 (7.7GB)  0000000000000000  0000000000000400
IN
printf 'memmap=4K$0x123456000,4K$0x1f0000000\n' >"$tmp.want"
expect "memtest86+ rows" 0 "$tmp.want" -- --format memmap

printf '0x2000\n0x1000\n0x2fff\n' >"$tmp.in"
printf '0x1000\n0x2000\n' >"$tmp.want"
expect "pages" 0 "$tmp.want" -- --format pages

# A bad line: reported with its line number, skipped, exit status 1.
printf '0x1000\nnot-an-address\n' >"$tmp.in"
printf 'GRUB_BADRAM="0x1000,0x7ffffffffffff000"\n' >"$tmp.want"
expect "bad line" 1 "$tmp.want" -- --format grub
grep -q '^<stdin>:2: ' "$tmp.err" || { echo "FAIL fold-smoke: bad line not reported"; fails=1; }

# Budgets and RAM: two far pages, one pair, RAM given.
printf '0x0\n0x3ff000\n' >"$tmp.in"
printf 'badram=0x0,0x7fffffffffc00000\n' >"$tmp.want"
expect "patterns=1" 0 "$tmp.want" -- --patterns 1 --ram 0-4M --format badram

: >"$tmp.in"
: >"$tmp.want"
expect "nothing failed" 0 "$tmp.want" --
expect "bad option" 2 "$tmp.want" -- --patterns 65
"$fold" --help | grep -q '^Usage: ramsift-fold' || { echo "FAIL fold-smoke: --help"; fails=1; }

printf '0x1234000\n' >"$tmp.in"
"$fold" --format json <"$tmp.in" >"$tmp.out" || fails=1
if command -v python3 >/dev/null; then
	python3 -m json.tool "$tmp.out" >/dev/null || { echo "FAIL fold-smoke: json"; fails=1; }
fi
grep -q '"limit": "none"' "$tmp.out" || { echo "FAIL fold-smoke: json limit"; fails=1; }
grep -q '"memmap_kaslr": false' "$tmp.out" || { echo "FAIL fold-smoke: json memmap_kaslr"; fails=1; }
# Five scattered pages below 272 MiB: memmap= is kept to Linux's 4 ranges.
printf '0x1234000\n0x2345000\n0x3456000\n0x4567000\n0x5678000\n' >"$tmp.in"
"$fold" --format json <"$tmp.in" >"$tmp.out" || fails=1
grep -q '"memmap_kaslr": true' "$tmp.out" || { echo "FAIL fold-smoke: json memmap_kaslr 5 pages"; fails=1; }

[ $fails = 0 ] && echo "  SMOKE   ramsift-fold: all cases passed"
exit $fails
