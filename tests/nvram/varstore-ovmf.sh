#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# OVMF accepts the variable stores build/host/ramsift-varstore writes, and
# the tool reads those OVMF writes. Three boots of OVMF (q35, TCG) to its
# UEFI shell, whose startup.nsh on a FAT disk dumps variables with dmpstore,
# sets one with setvar, runs queryvar.efi (QueryVariableInfo) into files on
# that disk and powers off:
#   1. the tool set RamsiftResult (twice: a replaced copy before it),
#      RamsiftBS (NV+BS) and RamsiftGone (then deleted) in a fresh store:
#      the shell must see both with their attributes and bytes, and not
#      RamsiftGone; after the boot the tool must read the shell's variable
#      and OVMF's own (BootOrder), and say what QueryVariableInfo said;
#   2. the tool filled that store to 16 KiB free: OVMF must boot, keep every
#      filler, reclaim its garbage at ReadyToBoot, and QueryVariableInfo
#      report what the tool does, at most 16 KiB;
#   3. the tool replaced RamsiftResult in the store OVMF reclaimed (through
#      its fault-tolerant writes): the shell must see the new bytes.
# The stores after boots 1 and 2 stay in build/test/varstore-ovmf-vars-set.fd
# and -full.fd (tests/nvram/ovmf-*.fd.gz are such, for check-varstore).
# About 2 minutes: OVMF reclaims a store with less than 33 KiB free at every
# boot, through its fault-tolerant writes, about 35 s under TCG. Needs
# build/host/ramsift-varstore, build/test/queryvar.efi and
# build/host/ramsift-jsoncheck (make check-varstore-ovmf).
E2E_TIMEOUT=${E2E_TIMEOUT:-180}
source "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh"

VS=$B/host/ramsift-varstore
QUERYVAR=$B/test/queryvar.efi
GUID=7ae28629-a6cc-4876-b74d-186249b7a3d3
esp=$E2E_DIR/$E2E_NAME-esp.img
vars=$E2E_DIR/$E2E_NAME-vars.fd
out=$E2E_DIR/$E2E_NAME-out
for f in "$VS" "$QUERYVAR"; do
	[ -e "$f" ] || e2e_fail "$f is missing: make check-varstore-ovmf builds it"
done
mkdir -p "$out"

# shell_boot STEP LINE...: boot OVMF with $vars to its shell, which runs
# the lines (then powers off) from a fresh FAT disk; its files land in $out.
shell_boot() {
	local step=$1
	shift
	rm -f "$esp" "$out"/*
	mformat -i "$esp" -C -T 32768 -h 64 -s 32 -v SHELL :: >/dev/null || e2e_fail "$step: mformat $esp"
	printf '%s\r\n' fs0: "$@" 'reset -s' >"$out/startup.nsh"
	mcopy -i "$esp" "$out/startup.nsh" "$QUERYVAR" ::/
	rm -f "$out"/*
	e2e_boot -machine q35 -m 256M "${E2E_UEFI[@]}" -drive "format=raw,file=$esp" -net none
	[ "$E2E_RESULT" != 4 ] || e2e_fail "$step: OVMF did not power off within $E2E_TIMEOUT s"
	cp "$E2E_LOG" "$E2E_DIR/$E2E_NAME-$step.log"
	mcopy -n -i "$esp" '::/*.txt' "$out/" 2>/dev/null || e2e_fail "$step: the shell wrote no files"
	sed -i 's/\r$//' "$out"/*.txt
}

# sfo NAME: dmpstore's -sfo line of the variable, from $out/NAME.txt.
sfo() {
	grep '^VariableInfo,' "$out/$1.txt" || e2e_fail "no dmpstore line in $1.txt: $(cat "$out/$1.txt")"
}

# want_var NAME ATTRIBUTES FILE: the shell saw the variable with these
# attributes and FILE's bytes (dmpstore writes them as hex).
want_var() {
	local want
	want="VariableInfo,\"$1\",\"$GUID\",\"$2\",\"0x$(printf %x "$(stat -c %s "$3")")\",\"$(od -An -v -tx1 "$3" | tr -d ' \n')\""
	[ "$(sfo "$1" | tr A-Z a-z)" = "$(tr A-Z a-z <<<"$want")" ] ||
		e2e_fail "the shell's $1: want $want, got: $(sfo "$1")"
}

dump() { echo "dmpstore $1 -guid $GUID -sfo >a $1.txt"; }
queryvar() { sed -n 's/^queryvar: storage=[0-9]* remaining=\([0-9]*\) .*/\1/p' "$out/qv.txt"; }
# want_free STEP: the tool's free is what QueryVariableInfo said.
want_free() {
	local fw
	fw=$(queryvar)
	[ -n "$fw" ] || e2e_fail "$1: no queryvar line: $(cat "$out/qv.txt")"
	[ "$("$VS" "$vars" free)" = "$fw" ] ||
		e2e_fail "$1: ramsift-varstore says $("$VS" "$vars" free) bytes free, QueryVariableInfo $fw"
	echo "$fw"
}

# 1. Written by the tool, read by the firmware; and back.
e2e_uefi
head -c 300 /dev/urandom >"$out.rec-old"
{ printf 'ramsift\000\377'; head -c 200 /dev/urandom; } >"$out.rec"
printf 'boot services only' >"$out.bs"
"$VS" "$vars" set RamsiftResult ramsift 7 <"$out.rec-old"
"$VS" "$vars" set RamsiftResult ramsift 7 <"$out.rec"
"$VS" "$vars" set RamsiftBS ramsift 3 <"$out.bs"
printf 'gone' | "$VS" "$vars" set RamsiftGone ramsift 7
"$VS" "$vars" delete RamsiftGone ramsift
"$VS" "$vars" list >"$E2E_DIR/$E2E_NAME-list-0.txt"
shell_boot set "$(dump RamsiftResult)" "$(dump RamsiftBS)" "$(dump RamsiftGone)" \
	"setvar RamsiftFromShell -guid $GUID -nv -bs -rt =0011AAFF" 'queryvar.efi >a qv.txt'
want_var RamsiftResult 0x7 "$out.rec"
want_var RamsiftBS 0x3 "$out.bs"
grep -q '^dmpstore: No matching variables found\. .*Name RamsiftGone$' "$out/RamsiftGone.txt" ||
	e2e_fail "the shell found the deleted RamsiftGone: $(cat "$out/RamsiftGone.txt")"
"$VS" "$vars" list >"$E2E_DIR/$E2E_NAME-list-1.txt" || e2e_fail "the store after a boot: $(cat "$E2E_DIR/$E2E_NAME-list-1.txt")"
[ "$("$VS" "$vars" get RamsiftFromShell ramsift | od -An -tx1 | tr -d ' ')" = 0011aaff ] ||
	e2e_fail "the tool did not read the shell's RamsiftFromShell"
"$VS" "$vars" get RamsiftResult ramsift | cmp -s - "$out.rec" || e2e_fail "RamsiftResult changed in the boot"
"$VS" "$vars" get BootOrder global >/dev/null || e2e_fail "no BootOrder from OVMF"
free1=$(want_free set)
cp "$vars" "$E2E_DIR/$E2E_NAME-vars-set.fd"

# 2. Near full: OVMF keeps the fillers, QueryVariableInfo says what the tool says.
"$VS" "$vars" fill 16
[ "$("$VS" "$vars" free)" = 16384 ] || e2e_fail "fill 16 left $("$VS" "$vars" free) bytes"
fillers=$(grep -c ' added .* RamsiftFiller[0-9]*$' <("$VS" "$vars" list))
shell_boot full "$(dump RamsiftFiller00)" 'queryvar.efi >a qv.txt'
"$VS" "$vars" list >"$E2E_DIR/$E2E_NAME-list-2.txt" || e2e_fail "the full store after a boot: $(cat "$E2E_DIR/$E2E_NAME-list-2.txt")"
[ "$(grep -c ' added .* RamsiftFiller[0-9]*$' "$E2E_DIR/$E2E_NAME-list-2.txt")" = "$fillers" ] ||
	e2e_fail "OVMF did not keep the $fillers fillers"
sfo RamsiftFiller00 | grep -q '"0x7","0x' || e2e_fail "the shell did not see RamsiftFiller00: $(sfo RamsiftFiller00)"
free2=$(want_free full)
cp "$vars" "$E2E_DIR/$E2E_NAME-vars-full.fd"
[ "$free2" -le 16384 ] || e2e_fail "QueryVariableInfo says $free2 bytes remain, more than 16 KiB"
grep -q '^variables: .* 0 dead in 0 bytes' "$E2E_DIR/$E2E_NAME-list-2.txt" ||
	e2e_fail "OVMF left garbage in a store short of room: $(grep '^variables: ' "$E2E_DIR/$E2E_NAME-list-2.txt")"

# 3. An edit after OVMF's reclaim, read back by the firmware.
head -c 100 /dev/urandom >"$out.rec"
"$VS" "$vars" set RamsiftResult ramsift 7 <"$out.rec"
shell_boot reclaimed "$(dump RamsiftResult)"
want_var RamsiftResult 0x7 "$out.rec"
"$VS" "$vars" list >/dev/null || e2e_fail "the store after the third boot"
echo "  varstore-ovmf: free after one boot $free1 bytes, after fill 16 and a boot $free2 (QueryVariableInfo)"
