#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# ramsift-varstore on copies of OVMF's empty 4 MiB VARS file and of two
# that OVMF wrote (tests/nvram/ovmf-*.fd.gz): set, get,
# replace, delete, fill, reclaim and list give the exact bytes and sizes the
# format makes (a variable of N data bytes named RamsiftResult takes
# 60 + 28 + N bytes, rounded up to 4), every edit leaves the bytes outside
# the store as they were, and malformed files (truncated, a bad StartId, a
# data size beyond the store, and more) exit 2 with a message, as do 120
# copies with a random byte changed, never a crash; a store whose FTW
# working block logs a write half done is read but not edited. No QEMU.
# Usage: tests/nvram/varstore-smoke.sh path/to/ramsift-varstore
set -u
tool=$1
empty=/usr/share/OVMF/OVMF_VARS_4M.fd
tmp=${TMPDIR:-/tmp}/varstore-smoke.$$
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"
vars=$tmp/vars.fd
fails=0
checks=0
# A sanitizer's report must not pass for exit status 1 or 2.
ASAN_OPTIONS=exitcode=99
UBSAN_OPTIONS=exitcode=99
export ASAN_OPTIONS UBSAN_OPTIONS

fail() { echo "FAIL check-varstore: $*"; fails=$((fails + 1)); }

# want STATUS WHAT COMMAND...: COMMAND exits with STATUS.
want() {
	status=$1 what=$2
	shift 2
	checks=$((checks + 1))
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	[ "$got" = "$status" ] || fail "$what: want exit $status, got $got: $(cat "$tmp/err")"
}

# equal WHAT GOT WANT
equal() {
	checks=$((checks + 1))
	[ "$2" = "$3" ] || fail "$1: want $3, got $2"
}

vs() { "$tool" "$vars" "$@"; }
free_bytes() { "$tool" "$vars" free; }
# entry DATA_BYTES: what RamsiftResult takes in the store.
entry() { echo $(((60 + 28 + $1 + 3) / 4 * 4)); }

# patch FILE OFFSET HEXBYTE...: overwrite bytes in place.
patch() {
	file=$1 at=$2
	shift 2
	# shellcheck disable=SC2059 # the format is the bytes
	printf "$(printf '\\%03o' "$@")" | dd of="$file" bs=1 seek=$((at)) conv=notrunc 2>/dev/null
}

# outside_same WHAT: the volume header and the FTW areas are untouched.
outside_same() {
	checks=$((checks + 1))
	cmp -s -n 72 "$empty" "$vars" && cmp -s -i 262144 "$empty" "$vars" ||
		fail "$1: bytes outside the variable store changed"
}

cp "$empty" "$vars"
want 0 'list an empty store' vs list
space=$(sed -n 's/^free: \([0-9]*\) of \([0-9]*\) bytes .*/\2/p' "$tmp/out")
equal 'the empty store: free is all its space' "$(free_bytes)" "$space"
grep -q '^store: .* 262072 bytes at 0x48, authenticated variable headers of 60 bytes$' "$tmp/out" ||
	fail 'the empty store: want 262072 bytes at 0x48, authenticated headers'

# Set, get back byte for byte, then replace.
printf 'a ramsift record\000\377\n' >"$tmp/rec1"
want 0 'set RamsiftResult' sh -c '"$0" "$1" set RamsiftResult ramsift 7 <"$2"' "$tool" "$vars" "$tmp/rec1"
want 0 'get RamsiftResult' vs get RamsiftResult 7ae28629-a6cc-4876-b74d-186249b7a3d3
cmp -s "$tmp/out" "$tmp/rec1" || fail 'get RamsiftResult: not the bytes set'
equal 'free after one set' "$(free_bytes)" $((space - $(entry 19)))
vs list >"$tmp/list"
grep -q '^0x000064 added     0x00000007     19 7ae28629-a6cc-4876-b74d-186249b7a3d3 RamsiftResult$' "$tmp/list" ||
	fail "list: no line of the added RamsiftResult at 0x64: $(cat "$tmp/list")"
outside_same 'set'

awk 'BEGIN { for (i = 0; i < 3000; i++) printf "%c", 65 + i % 26 }' >"$tmp/rec2"
want 0 'replace RamsiftResult' sh -c '"$0" "$1" set RamsiftResult ramsift 0x7 <"$2"' "$tool" "$vars" "$tmp/rec2"
want 0 'get the replaced RamsiftResult' vs get RamsiftResult ramsift
cmp -s "$tmp/out" "$tmp/rec2" || fail 'get after replace: not the new bytes'
equal 'free after replace' "$(free_bytes)" $((space - $(entry 3000)))
vs list >"$tmp/list"
equal 'list after replace: one deleted copy, one added' \
	"$(grep -c ' deleted .* RamsiftResult$' "$tmp/list") $(grep -c ' added .* RamsiftResult$' "$tmp/list")" '1 1'

# Another GUID, the same name: a variable of its own.
printf 'x' | want 0 'set under the global GUID' vs set RamsiftResult global 6
want 0 'get ramsift'"'"'s after another GUID'"'"'s set' vs get RamsiftResult ramsift
cmp -s "$tmp/out" "$tmp/rec2" || fail 'another GUID replaced ramsift'"'"'s variable'
want 0 'delete the global one' vs delete RamsiftResult 8be4df61-93ca-11d2-aa0d-00e098032b8c

# Delete: gone, its space free again.
want 0 'delete RamsiftResult' vs delete RamsiftResult ramsift
want 1 'get a deleted variable' vs get RamsiftResult ramsift
grep -q 'no variable RamsiftResult' "$tmp/err" || fail "get absent: no message: $(cat "$tmp/err")"
want 1 'delete it again' vs delete RamsiftResult ramsift
equal 'free after delete' "$(free_bytes)" "$space"
outside_same 'delete'

# Fill: exactly KIB KiB remain, in fillers of at most 8 KiB; a second
# fill replaces the first.
want 0 'fill 16' vs fill 16
equal 'free after fill 16' "$(free_bytes)" 16384
vs list >"$tmp/list"
fillers=$(grep -c ' added .* RamsiftFiller[0-9][0-9]$' "$tmp/list")
equal 'fillers of at most 8 KiB' "$fillers" $(((space - 16384 + 8191) / 8192))
awk '$2 == "added" && $6 ~ /^RamsiftFiller/ && $4 + 60 + 32 > 8192 { exit 1 }' "$tmp/list" ||
	fail 'a filler is larger than 8 KiB'
want 0 'fill 20 over fill 16' vs fill 20
equal 'free after fill 20' "$(free_bytes)" 20480
head -c 4096 /dev/zero >"$tmp/rec4k"
want 0 'a 4 KiB record fits in 20 KiB' sh -c '"$0" "$1" set RamsiftResult ramsift 7 <"$2"' "$tool" "$vars" "$tmp/rec4k"
equal 'free after the record' "$(free_bytes)" $((20480 - $(entry 4096)))
want 1 'fill to more than remains without fillers' vs fill 255
want 0 'fill 0' vs fill 0
equal 'free after fill 0' "$(free_bytes)" 0
cp "$vars" "$tmp/full"
want 1 'set in a full store' sh -c 'printf x | "$0" "$1" set RamsiftOther ramsift 7' "$tool" "$vars"
grep -q 'does not fit' "$tmp/err" || fail "set in a full store: no message: $(cat "$tmp/err")"
cmp -s "$vars" "$tmp/full" || fail 'a set that did not fit changed the file'
want 1 'set more data than any store holds' sh -c 'head -c 300000 /dev/zero | "$0" "$1" set RamsiftOther ramsift 7' "$tool" "$vars"
grep -q 'more than [0-9]* bytes of data on standard input: they cannot fit the store' "$tmp/err" ||
	fail "set more data than any store holds: no message: $(cat "$tmp/err")"
cmp -s "$vars" "$tmp/full" || fail 'a set of too much data changed the file'
want 0 'get from a full store' vs get RamsiftResult ramsift
cmp -s "$tmp/out" "$tmp/rec4k" || fail 'get from a full store: not the record'
outside_same 'fill'

# Reclaim: 40 replacements of 8000 bytes need more than the store's
# 256 KiB; the store is compacted on the way and the last one stays.
cp "$empty" "$vars"
i=0
while [ $i -lt 40 ]; do
	awk -v i=$i 'BEGIN { for (n = 0; n < 8000; n++) printf "%c", 97 + (n + i) % 26 }' >"$tmp/big"
	"$tool" "$vars" set RamsiftBig ramsift 7 <"$tmp/big" || fail "set $i of RamsiftBig"
	i=$((i + 1))
done
want 0 'get after reclaims' vs get RamsiftBig ramsift
cmp -s "$tmp/out" "$tmp/big" || fail 'get after reclaims: not the last data'
equal 'free after reclaims' "$(free_bytes)" $((space - (60 + 22 + 8000 + 3) / 4 * 4))
want 0 'reclaim' vs reclaim
vs list >"$tmp/list"
equal 'list after reclaim: one variable, nothing dead' "$(grep -c '^0x' "$tmp/list")" 1
outside_same 'reclaim'

# A store of plain variable headers (EFI_VARIABLE_GUID's signature):
# 32-byte headers, the same edits.
cp "$empty" "$vars" && patch "$vars" 0x48 0x16 0x36 0xcf 0xdd 0x75 0x32 0x64 0x41 0x98 0xb6 0xfe 0x85 0x70 0x7f 0xfe 0x7d
want 0 'list a plain store' vs list
grep -q '^store: .* plain variable headers of 32 bytes$' "$tmp/out" || fail "a plain store: $(head -1 "$tmp/out")"
want 0 'set in a plain store' sh -c '"$0" "$1" set RamsiftResult ramsift 7 <"$2"' "$tool" "$vars" "$tmp/rec1"
want 0 'get from a plain store' vs get RamsiftResult ramsift
cmp -s "$tmp/out" "$tmp/rec1" || fail 'get from a plain store: not the bytes set'
equal 'free in a plain store' "$(free_bytes)" $((space - (32 + 28 + 19 + 3) / 4 * 4))
want 0 'fill 16 in a plain store' vs fill 16
equal 'free after fill 16 in a plain store' "$(free_bytes)" 16384

# Stores OVMF wrote (tests/nvram/varstore-ovmf.sh's, after its boots 1 and
# 2): free is what QueryVariableInfo said in that boot, the firmware's own
# variables and the shell's read back; the fillers (29 of at most 8 KiB for
# 250088 - 16384 bytes) kept, the garbage reclaimed; and they take edits.
fixtures=$(dirname "$0")
gzip -dc "$fixtures/ovmf-set.fd.gz" >"$vars"
want 0 'list the store OVMF wrote' vs list
grep -q '^variables: 31 live in 11956 bytes, 29 dead in 5468 bytes' "$tmp/out" ||
	fail "OVMF's store: want 31 live and 29 dead variables: $(grep '^variables' "$tmp/out")"
equal "free in OVMF's store" "$(free_bytes)" 250088
equal "OVMF's Lang" "$(vs get Lang global | od -An -tx1 | tr -d ' ')" 656e6700
equal "the shell's RamsiftFromShell" "$(vs get RamsiftFromShell ramsift | od -An -tx1 | tr -d ' ')" 0011aaff
printf 'x' | want 0 "set in OVMF's store" vs set RamsiftResult ramsift 7
equal "free after a set in OVMF's store" "$(free_bytes)" $((250088 + $(entry 209) - $(entry 1)))
gzip -dc "$fixtures/ovmf-full.fd.gz" >"$vars"
want 0 'list the full store OVMF reclaimed' vs list
grep -q '^variables: 60 live in 245660 bytes, 0 dead in 0 bytes' "$tmp/out" ||
	fail "OVMF's full store: want 60 live variables, none dead: $(grep '^variables' "$tmp/out")"
equal "fillers in OVMF's full store" "$(grep -c ' added .* RamsiftFiller[0-9][0-9]$' "$tmp/out")" 29
equal "free in OVMF's full store" "$(free_bytes)" 16384
grep -q '^ftw: working block at 0x41000, no write pending$' "$tmp/out" ||
	fail "OVMF's full store: its reclaim's FTW write is not done: $(grep '^ftw' "$tmp/out")"
want 0 "fill 8 in OVMF's full store" vs fill 8
equal "free after fill 8 in OVMF's full store" "$(free_bytes)" 8192

# Malformed files: exit 2, a message naming the offset, the file unchanged.
# malformed WHAT GREP: $tmp/bad is rejected by list, get and set.
malformed() {
	want 2 "$1: list" "$tool" "$tmp/bad" list
	grep -q "at offset 0x[0-9a-f]*: .*$2" "$tmp/err" || fail "$1: want a message with /$2/, got: $(cat "$tmp/err")"
	want 2 "$1: get" "$tool" "$tmp/bad" get RamsiftResult ramsift
	cp "$tmp/bad" "$tmp/bad.before"
	want 2 "$1: set" sh -c 'printf x | "$0" "$1" set RamsiftResult ramsift 7' "$tool" "$tmp/bad"
	cmp -s "$tmp/bad" "$tmp/bad.before" || fail "$1: set changed a malformed file"
}
cp "$empty" "$vars"
printf 'a ramsift record' | vs set RamsiftResult ramsift 7
printf 'another' | vs set RamsiftOther ramsift 7

head -c 300000 "$vars" >"$tmp/bad"
malformed 'truncated' 'truncated'
head -c 40 "$vars" >"$tmp/bad"
malformed 'a stub' 'shorter than a firmware volume header'
: >"$tmp/bad"
malformed 'empty' 'shorter than'
cp "$vars" "$tmp/bad" && patch "$tmp/bad" 0x64 0x34 0x12
malformed 'bad StartId' 'StartId 0x1234'
cp "$vars" "$tmp/bad" && patch "$tmp/bad" $((0x64 + 40)) 0x00 0x00 0x10 0x00
malformed 'a data size beyond the store' 'runs past the store'
cp "$vars" "$tmp/bad" && patch "$tmp/bad" $((0x64 + 36)) 0x00 0x00 0x00 0x01
malformed 'a name size beyond the store' 'runs past the store'
cp "$vars" "$tmp/bad" && patch "$tmp/bad" $((0x64 + 36)) 0x1b
malformed 'an odd name size' 'no UCS-2 name'
cp "$vars" "$tmp/bad" && patch "$tmp/bad" $((0x64 + 60 + 26)) 0x41
malformed 'a name without its NUL' 'does not end in a NUL'
cp "$vars" "$tmp/bad" && patch "$tmp/bad" 0x30000 0x00
malformed 'a written byte in the erased space' 'not erased'
cp "$vars" "$tmp/bad" && patch "$tmp/bad" 0x49 0x00
malformed 'the store signature' 'signature'
cp "$vars" "$tmp/bad" && patch "$tmp/bad" $((0x48 + 16)) 0xb8 0xff 0x09 0x00
malformed 'a store size beyond the volume' 'does not fit the volume'
cp "$vars" "$tmp/bad" && patch "$tmp/bad" 0x2c 0x00
malformed 'the volume checksum' 'checksum'
cp "$vars" "$tmp/bad" && patch "$tmp/bad" 0x28 0x5f 0x46 0x56 0x00
malformed 'the volume signature' '_FVH'
cp "$vars" "$tmp/bad" && patch "$tmp/bad" 0x10 0x00
malformed 'the volume GUID' 'GUID'
cp "$vars" "$tmp/bad" && patch "$tmp/bad" 0x41018 0x00 0x00 0x10
malformed 'an FTW queue beyond the volume' 'FTW write queue'
cp "$vars" "$tmp/bad" && patch "$tmp/bad" 0x41020 0xfc && patch "$tmp/bad" 0x41038 0 0x10 0 0 0 0 0 0 0 0 0 0 0 0 0 0
malformed 'an FTW write beyond its queue' 'FTW write of 4096 records'

# A write the firmware's FTW logged (a reclaim: spare copy done, the store
# not yet): reads go on, edits would be undone at the next boot, so none.
# ftw_write HEADER_STATE RECORD_STATE: $tmp/bad logs one such write.
ftw_write() {
	cp "$vars" "$tmp/bad"
	patch "$tmp/bad" 0x41020 "$1"
	patch "$tmp/bad" 0x41038 0x01 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
	patch "$tmp/bad" 0x41048 "$2" && patch "$tmp/bad" 0x41050 0 0 0 0 0 0 0 0 0x48 0 0 0 0 0 0 0 0xb8 0xff 0x03 0 0 0 0 0
}
ftw_write 0xfc 0xfd
want 0 'list with a pending FTW write' "$tool" "$tmp/bad" list
grep -q '^ftw: working block at 0x41000: a write of 262072 bytes at block 0 + 0x48 is half done' "$tmp/out" ||
	fail "list: no pending FTW write: $(grep '^ftw' "$tmp/out")"
want 0 'get with a pending FTW write' "$tool" "$tmp/bad" get RamsiftResult ramsift
cp "$tmp/bad" "$tmp/bad.before"
want 2 'set with a pending FTW write' sh -c 'printf x | "$0" "$1" set RamsiftResult ramsift 7' "$tool" "$tmp/bad"
grep -q 'half done.*not edited' "$tmp/err" || fail "set with a pending FTW write: $(cat "$tmp/err")"
cmp -s "$tmp/bad" "$tmp/bad.before" || fail 'set changed a store with a pending FTW write'
ftw_write 0xf8 0xf9
want 0 'set after a completed FTW write' sh -c 'printf x | "$0" "$1" set RamsiftResult ramsift 7' "$tool" "$tmp/bad"
"$tool" "$tmp/bad" list | grep -q '^ftw: working block at 0x41000, no write pending$' ||
	fail 'a completed FTW write is listed as pending'
ftw_write 0xfc 0xfb
want 0 'set after an FTW write the firmware aborts' sh -c 'printf x | "$0" "$1" set RamsiftResult ramsift 7' "$tool" "$tmp/bad"

want 3 'a missing file' "$tool" "$tmp/none" list
want 3 'a directory' "$tool" "$tmp" list
want 3 'no command' "$tool" "$vars"
want 3 'an unknown command' "$tool" "$vars" frob
want 3 'a bad GUID' "$tool" "$vars" get RamsiftResult 7ae28629-a6cc-4876-b74d-186249b7a3dx
want 3 'bad attributes' "$tool" "$vars" set RamsiftResult ramsift 0x100000000
want 3 'an empty name' "$tool" "$vars" get '' ramsift

# 120 copies with one random byte changed: of the first two variables
# (headers, names, data) or the erased space after them, of the volume and
# store headers, of the FTW working block. Each lists (0) or is malformed
# (2), never a crash or a sanitizer's report.
awk 'BEGIN {
	srand(26)
	for (i = 0; i < 120; i++) {
		r = i % 6
		at = r < 4 ? 0x64 + int(rand() * 400) : r == 4 ? int(rand() * 0x64) : 0x41000 + int(rand() * 0x70)
		printf "%d %d\n", at, int(rand() * 256)
	}
}' |
	while read -r at byte; do
		cp "$vars" "$tmp/bad" && patch "$tmp/bad" "$at" "$byte"
		"$tool" "$tmp/bad" list >/dev/null 2>"$tmp/err"
		status=$?
		[ $status = 0 ] || [ $status = 2 ] || echo "byte $byte at $at: exit $status: $(cat "$tmp/err")"
	done >"$tmp/random"
checks=$((checks + 120))
[ ! -s "$tmp/random" ] || fail "random bytes: $(cat "$tmp/random")"

[ $fails = 0 ] && echo "  SMOKE   ramsift-varstore: $checks checks on copies of $empty"
[ $fails = 0 ]
