#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Smoke test of build/ramsift-fold: each input format, each --format, the
# exit statuses. --format json is held to the strict reader of tests/json
# (build/host/ramsift-jsoncheck: one valid text, no key twice) and, when
# python3 is there, to its json module too.
# Usage: tests/fold/fold-smoke.sh path/to/ramsift-fold path/to/ramsift-jsoncheck
set -u
fold=$1 jsoncheck=$2
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

# JSON: one strict text, the lines' keys once each (the memmap= line's
# text under "memmap", its ranges under "memmap_ranges"), what the text
# formats print.
printf '0x1234000\n' >"$tmp.in"
"$fold" --format json <"$tmp.in" >"$tmp.out" || fails=1
"$jsoncheck" --valid "$tmp.out" || { echo "FAIL fold-smoke: json is not one strict JSON text"; fails=1; }
if command -v python3 >/dev/null; then
	python3 -c 'import json, sys
def once(pairs):
    keys = [k for k, _ in pairs]
    assert len(keys) == len(set(keys)), "a key twice: %s" % keys
    return dict(pairs)
json.load(open(sys.argv[1]), object_pairs_hook=once)' "$tmp.out" ||
		{ echo "FAIL fold-smoke: json (python3)"; fails=1; }
fi
# get PATH WANT: the value at PATH in $tmp.out.
get() {
	got=$("$jsoncheck" --get "$1" "$tmp.out") || got="(none)"
	[ "$got" = "$2" ] || { echo "FAIL fold-smoke: json $1: want $2, got $got"; fails=1; }
}
get limit none
get memmap_kaslr false
get memmap 'memmap=4K$0x1234000'
get memmap_ranges 'array 1'
get badram "$("$fold" --format badram <"$tmp.in")"
get summary "$("$fold" --format all <"$tmp.in" | sed -n 's/^fold: /fold: /p')"
get mode bios
"$fold" --format json --uefi <"$tmp.in" >"$tmp.out" || fails=1
get mode uefi
# Five scattered pages below 272 MiB: memmap= is kept to Linux's 4 ranges.
printf '0x1234000\n0x2345000\n0x3456000\n0x4567000\n0x5678000\n' >"$tmp.in"
"$fold" --format json <"$tmp.in" >"$tmp.out" || fails=1
get memmap_kaslr true
# Nothing failed: the lines are null.
: >"$tmp.in"
"$fold" --format json <"$tmp.in" >"$tmp.out" 2>/dev/null || fails=1
get badram null
get pairs 'array 0'

# Windows and a running Linux, checked by hand: page frame numbers are the
# addresses >> 12, each page once, ascending.
printf '0x7000010\n0x5a5a5a8\n0x5a5aff8\n0x123456789abc\n' >"$tmp.in"
cat >"$tmp.want" <<'OUT'
bcdedit /set {badmemory} badmemorylist 0x5a5a 0x7000 0x123456789
bcdedit /set {badmemory} badmemoryaccess no
OUT
expect "windows" 0 "$tmp.want" -- --format windows
cat >"$tmp.want" <<'OUT'
echo 0x5a5a000 > /sys/devices/system/memory/hard_offline_page
echo 0x7000000 > /sys/devices/system/memory/hard_offline_page
echo 0x123456789000 > /sys/devices/system/memory/hard_offline_page
OUT
expect "offline" 0 "$tmp.want" -- --format offline
: >"$tmp.in"
: >"$tmp.want"
expect "windows, nothing failed" 0 "$tmp.want" -- --format windows
# More pages than one cmd.exe command holds: the first 905 (38 + 905 * 9 =
# 8183 characters), the rest named on standard error.
for i in $(seq 0 999); do printf '0x%x\n' $((4294967296 + i * 4096)); done >"$tmp.in"
"$fold" --format windows <"$tmp.in" >"$tmp.out" 2>"$tmp.err" || fails=1
[ "$(head -n 1 "$tmp.out" | wc -c)" -eq 8184 ] && [ "$(head -n 1 "$tmp.out" | wc -w)" -eq 909 ] ||
	{ echo "FAIL fold-smoke: windows: want one command of 905 pages in 8183 characters"; fails=1; }
grep -q '^ramsift-fold: 95 failing pages from 0x100389000 on do not fit' "$tmp.err" ||
	{ echo "FAIL fold-smoke: windows: the pages left out are not named"; cat "$tmp.err"; fails=1; }

[ $fails = 0 ] && echo "  SMOKE   ramsift-fold: all cases passed"
exit $fails
