#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# build/ramsift-dram end to end. --simulate on each tests/dram/*.map (DRAMA's
# published mappings, and shapes derived from them, with noise) must print exactly tests/dram/*.out and
# exit 0; bad MAP files and options must exit 2 with a message naming the
# line and the item; a MAP whose noise hides the conflicts must say why no
# mapping was found and exit 1. Then the tool runs on this machine: it passes
# when it validates a mapping (exit 0, every line) or says it found none
# (exit 1, one line why): a VM without DRAM timing must not fail the suite.
# Usage: tests/dram/dram-smoke.sh path/to/ramsift-dram
set -u
dram=$1
dir=$(dirname "$0")
fails=0
tmp=${TMPDIR:-/tmp}/dram-smoke.$$
trap 'rm -f "$tmp".*' EXIT

fail() { echo "FAIL dram-smoke: $*"; cat "$tmp.out" "$tmp.err"; fails=1; }
# run WANT_STATUS ARGS...: stdout to $tmp.out, stderr to $tmp.err.
run() {
	want=$1
	shift
	"$dram" "$@" >"$tmp.out" 2>"$tmp.err"
	rc=$?
	[ "$rc" = "$want" ] || fail "$*: exit $rc, want $want"
}
# bad_map TEXT MESSAGE: the MAP TEXT exits 2 with "ramsift-dram: FILE: MESSAGE".
bad_map() {
	printf '%b' "$1" >"$tmp.map"
	run 2 --simulate "$tmp.map"
	[ "$(cat "$tmp.err")" = "ramsift-dram: $tmp.map: $2" ] || fail "MAP '$1': want '$2'"
	[ -s "$tmp.out" ] && fail "MAP '$1': printed on standard output"
}

for map in "$dir"/*.map; do
	run 0 --simulate "$map"
	cmp -s "$tmp.out" "${map%.map}.out" || fail "$map: not the lines of ${map%.map}.out"
done

# The row hammer model (issue #30): each tests/dram/hammer/*.map under
# --hammer prints exactly its .out (every victim found below the 640 K the
# simulated machine reaches, none above; the two-rate rule's split).
# Rows guessed one stride apart find them all where the bank takes no row
# bit, and none under Sandy Bridge's XOR of row bits into the bank.
for map in "$dir"/hammer/*.map; do
	run 0 --simulate "$map" --hammer
	cmp -s "$tmp.out" "${map%.map}.out" || fail "$map --hammer: not the lines of ${map%.map}.out"
done
run 0 --simulate "$dir/hammer/no-row-xor.map" --hammer --row-stride 65536
grep -q '^hammer: victims found=32 of 32 ' "$tmp.out" || fail "no-row-xor guessed: not all found"
grep -q '^hammer: no map: rows guessed 65536 bytes apart$' "$tmp.out" || fail "guess not said"
run 0 --simulate "$dir/hammer/sandybridge-1ch-1rank.map" --hammer --row-stride 65536
grep -q '^hammer: victims found=0 of 32 ' "$tmp.out" || fail "sandybridge guessed: found some"
run 2 --hammer
grep -q 'usage: ramsift-dram' "$tmp.err" || fail "--hammer without --simulate: no usage"

bad_map 'function 0x44000\nfunction 0x4400g\n' \
	'line 2: function 0x4400g: not a hexadecimal mask like 0x42000'
bad_map 'function 0x40\nrow 18-33\nsize 16Q\n' \
	'line 3: size 16Q: not a size like 16G (suffixes K, M, G)'
bad_map 'function 0x40\nrow 33-18\n' 'line 2: row 33-18: needs A <= B <= 63'
bad_map 'function 0x40\nrow 18-33\n' 'no size line'
bad_map 'function 0x40\nrow 18-34\nsize 16G\n' 'row 18-34: bit 34 is at or above the size'"'"'s 34'
bad_map 'noise 50%\n' 'line 1: noise 50%: not a whole number from 0 to 100'
run 2 --simulate "$dir/no-such.map"
grep -q 'no-such.map: No such file or directory' "$tmp.err" || fail "a missing MAP file not named"
run 2 --seconds 0
grep -q 'usage: ramsift-dram' "$tmp.err" || fail "--seconds 0: no usage"
run 2 --bogus 1
grep -q 'usage: ramsift-dram' "$tmp.err" || fail "--bogus: no usage"

# Delays in 90% of the rounds: the minimum of 4 rounds is still delayed in
# 66% of the measurements: no consistent map comes out of it.
sed 's/^noise .*/noise 90/' "$dir/skylake-2ch-2rank.map" >"$tmp.map"
run 1 --simulate "$tmp.map"
grep -q '^dram: no mapping found: ' "$tmp.out" || fail "noise 90: no reason given"
grep -q '^dram: bank function' "$tmp.out" && fail "noise 90: printed a mapping"

# This machine, as it is: a mapping with its validation, or the reason.
run_native() {
	"$dram" --seconds 10 >"$tmp.out" 2>"$tmp.err"
	rc=$?
	case $rc in
	0)
		grep -q '^dram: bank function 0x[0-9a-f]*$' "$tmp.out" &&
			grep -q '^dram: row bits [0-9]*-[0-9]*$' "$tmp.out" &&
			grep -q '^dram: validation pairs=[0-9]* measured_conflicts=' "$tmp.out" ||
			fail "this machine: exit 0 without a whole mapping"
		;;
	1)
		[ "$(grep -c '^dram: no mapping found: ' "$tmp.out")" = 1 ] &&
			! grep -q '^dram: bank function' "$tmp.out" ||
			fail "this machine: exit 1 without one reason"
		;;
	*) fail "this machine: exit $rc" ;;
	esac
	echo "  DRAM    this machine: $(head -n 1 "$tmp.out")"
}
run_native

[ "$fails" = 0 ] && echo "  DRAM    ramsift-dram: simulated maps, row hammer, bad input, this machine"
exit "$fails"
