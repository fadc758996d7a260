#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Smoke test of build/host/ramsift-mkrecord and so of lib/record from the
# outside: descriptions of a passing run, a failing one and one whose pages
# do not all fit are encoded, decoded back to the same description and
# encoded again to the same bytes; each broken record (a flipped byte, cut
# short, too long, slack before the CRC, a range out of order, a field no
# run writes, a pair no fold writes, a PASS with pages) is refused with its
# error and offset.
# Usage: tests/record/record-smoke.sh path/to/ramsift-mkrecord
set -u
mk=$1
fails=0
tmp=${TMPDIR:-/tmp}/record-smoke.$$
trap 'rm -f "$tmp".*' EXIT

broke() {
	echo "FAIL record-smoke: $*"
	fails=1
}

# roundtrip NAME: $tmp.in is a description; its record must decode to
# $tmp.want (when given) and re-encode to the same bytes.
roundtrip() {
	name=$1
	if ! "$mk" <"$tmp.in" >"$tmp.rec"; then
		broke "$name: not encoded"
		return
	fi
	"$mk" --decode <"$tmp.rec" >"$tmp.out" || broke "$name: not decoded: $(cat "$tmp.out")"
	if [ -f "$tmp.want" ] && ! diff -u "$tmp.want" "$tmp.out"; then
		broke "$name: decoded to another description"
	fi
	"$mk" <"$tmp.out" | cmp -s - "$tmp.rec" || broke "$name: the decoded description encodes to other bytes"
	rm -f "$tmp.want"
}

# refused NAME WANT OPTIONS...: the record of $tmp.in with OPTIONS is
# refused with the line WANT.
refused() {
	name=$1 want=$2
	shift 2
	"$mk" "$@" <"$tmp.in" >"$tmp.bad" || { broke "$name: not written"; return; }
	refused_bytes "$name" "$want" <"$tmp.bad"
}

refused_bytes() {
	out=$("$mk" --decode)
	rc=$?
	[ "$rc" = 1 ] && [ "$out" = "$2" ] || broke "$1: exit $rc, '$out' (want 1, '$2')"
}

cat >"$tmp.in" <<'IN'
result PASS
passes 2
tested_bytes 267386880
usable_bytes 268042240
elapsed_ms 395123
version 0.2-g1a2b3c4
seed 0x5eed
date 2026-12-02 00:11:57
manufacturer QEMU
product Standard PC (i440FX + PIIX, 1996)
serial
uuid unknown
budget 20 48 1024
ram 0x0-0x9f000
ram 0x100000-0xffe0000
failing_pages 0
IN
{ echo '# ramsift: result=PASS passes=2 errors=0 tested_bytes=267386880 usable_bytes=268042240 elapsed_s=395.123 version=0.2-g1a2b3c4'
  sed 's/^result PASS$/&/; /^passes/a errors 0' "$tmp.in"; } >"$tmp.want"
roundtrip pass
# 96 fixed, 4 + 49 of strings, RAM 2 + 3 + 4, ranges 2, pairs 1, CRC 4.
[ "$(wc -c <"$tmp.rec")" -eq 165 ] || broke "pass: $(wc -c <"$tmp.rec") bytes, want 165"

cat >"$tmp.in" <<'IN'
result FAIL
passes 1
errors 4
tested_bytes 267386880
usable_bytes 268042240
elapsed_ms 5123
version 0.2-g1a2b3c4
seed 0x5eed
date 2028-02-29 23:59:59
manufacturer QEMU
product Standard PC (Q35 + ICH9, 2009)
serial S123
uuid 12345678-9abc-def0-1234-56789abcdef0
budget 8 100000 2047 uefi
ram 0x0-0x9f000
ram 0x100000-0xffe0000
page 0x2001000
page 0x1234567
page 0x2000000
page 0x2001fff
IN
cat >"$tmp.want" <<'OUT'
# ramsift: result=FAIL passes=1 errors=4 tested_bytes=267386880 usable_bytes=268042240 elapsed_s=5.123 version=0.2-g1a2b3c4
result FAIL
passes 1
errors 4
tested_bytes 267386880
usable_bytes 268042240
elapsed_ms 5123
version 0.2-g1a2b3c4
seed 0x5eed
date 2028-02-29 23:59:59
manufacturer QEMU
product Standard PC (Q35 + ICH9, 2009)
serial S123
uuid 12345678-9abc-def0-1234-56789abcdef0
budget 8 100000 2047 uefi
ram 0x0-0x9f000
ram 0x100000-0xffe0000
failing_pages 3
range 0x1234000-0x1235000
range 0x2000000-0x2002000
OUT
roundtrip fail
cp "$tmp.in" "$tmp.fail"

# Every other page of 24 MiB: 3000 ranges do not fit 4 KiB.
{ echo 'result FAIL'; echo 'errors 3000'; echo 'ram 0x0-0x10000000'
  echo 'pairs 0x1000000,0x7fffffffff001000,0x2000000,0x7fffffffff801000'
  awk 'BEGIN { for (i = 0; i < 3000; i++) printf "page 0x%x\n", 16777216 + 8192 * i }'; } >"$tmp.in"
roundtrip cut
grep -qx cut "$tmp.out" || broke "cut: no cut line"
grep -qx 'failing_pages 3000' "$tmp.out" || broke "cut: failing_pages is not 3000"
grep -qx 'pairs 0x1000000,0x7fffffffff001000,0x2000000,0x7fffffffff801000' "$tmp.out" ||
	broke "cut: not the fold's pairs"
[ "$(wc -c <"$tmp.rec")" -le 4096 ] || broke "cut: $(wc -c <"$tmp.rec") bytes"
# 2 bytes a range: every one but the last that fit is listed.
n=$(grep -c '^range ' "$tmp.out")
[ "$(wc -c <"$tmp.rec")" -gt $((4096 - 2)) ] || broke "cut: $n ranges leave room for one more"

cp "$tmp.fail" "$tmp.in"
"$mk" <"$tmp.in" >"$tmp.rec"
"$mk" --efivarfs <"$tmp.in" >"$tmp.efi"
head -c 4 "$tmp.efi" | od -An -tx1 | grep -q '07 00 00 00' || broke "efivarfs: not the attributes"
"$mk" --efivarfs --decode <"$tmp.efi" | "$mk" | cmp -s - "$tmp.rec" || broke "efivarfs: not the record"
refused_bytes "efivarfs read raw" "bad record: not a ramsift record (no RSFT) at offset 0" <"$tmp.efi"

len=$(wc -c <"$tmp.rec")
crc=$((len - 4))
refused "magic" "bad record: not a ramsift record (no RSFT) at offset 1" --flip 1
refused "format" "bad record: a record format this ramsift does not read at offset 4" --flip 5
refused "length" "bad record: the record's length is not its size at offset 8" --flip 9
refused "flags" "bad record: the record's CRC does not match: it changed since it was written at offset $crc" --flip 6
refused "a string" "bad record: the record's CRC does not match: it changed since it was written at offset $crc" --flip 100
refused "the CRC" "bad record: the record's CRC does not match: it changed since it was written at offset $crc" --flip $((len - 1))
head -c 50 "$tmp.rec" | refused_bytes "cut short" "bad record: the record's length is not its size at offset 8"
head -c 7 "$tmp.rec" | refused_bytes "cut in its header" "bad record: the record is cut short at offset 7"
refused "too long" "bad record: the record is longer than 4096 bytes at offset 4096" --pad 4097
refused "slack" "bad record: the record's length is not its size at offset $crc" --pad 4096
refused "overlapping" "bad record: a page range is out of order, empty, beyond 2^52 or too many at offset $((crc - 1))" \
	--raw-range 0x2001000-0x2003000
refused "beyond 2^52" "bad record: a page range is out of order, empty, beyond 2^52 or too many at offset $((crc - 1))" \
	--raw-range 0x10000000000000-0x10000000001000
refused "result" "bad record: a field holds a value no run writes at offset 12" --poke 12:4
refused "flags bit" "bad record: a field holds a value no run writes at offset 6" --poke 6:8
refused "month" "bad record: a field holds a value no run writes at offset 67" --poke 67:13
refused "pairs budget" "bad record: a field holds a value no run writes at offset 89" --poke 89:65
# Outside RAM, yet a range a run may list: accepted.
"$mk" --raw-range 0x20000000-0x20001000 <"$tmp.in" | "$mk" --decode >"$tmp.out" ||
	broke "outside RAM: refused: $(cat "$tmp.out")"
grep -qx 'range 0x20000000-0x20001000' "$tmp.out" || broke "outside RAM: not listed"

printf 'result PASS\n' >"$tmp.in"
# Its failing range list's count follows the fixed part (96 bytes), four
# empty strings and an empty RAM list.
refused "PASS with pages" "bad record: the record contradicts itself (its result, pages and pairs) at offset 102" \
	--raw-range 0x2000000-0x2001000
"$mk" --poke 17:1 <"$tmp.in" | refused_bytes "PASS with errors" \
	"bad record: the record contradicts itself (its result, pages and pairs) at offset 17"
{ echo 'result FAIL'; echo 'pairs 0x1000,0x7ffffffffffff000'; echo cut; } >"$tmp.in"
len=$("$mk" <"$tmp.in" | wc -c)
refused "pair" "bad record: a pair is not one a fold writes at offset $((len - 20))" --poke $((len - 20)):1
printf 'result FAIL\n' >"$tmp.in"
"$mk" <"$tmp.in" >/dev/null 2>&1 && broke "FAIL with no pages: encoded"

[ "$fails" -eq 0 ] && echo "  RECORD  ramsift-mkrecord: round trips and broken records"
exit "$fails"
