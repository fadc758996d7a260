#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The verdicts of bench/consumer-report.awk on made-up results files: a run
# in which the claim holds, then the same run with one thing changed at a
# time: a protected measurement slower than the noise allows, a healthy VM
# that did not end cleanly, an unprotected boot without corruption (each
# must turn its verdict to **fails**), a protected one slower within the
# noise, one boot of each VM (no noise to judge by) and a measurement no
# protected boot gave (not judged, never counted as within the noise).
# Usage: bench/check-consumer-report.sh
set -u
cd "$(dirname "$0")/.."
fails=0
tmp=${TMPDIR:-/tmp}/consumer-report.$$
trap 'rm -f "$tmp".*' EXIT

# boot VM REP PIPE_US: one boot's findings as bench/consumer.sh writes them
# (a clean one for healthy and protected, a corrupted one for unprotected),
# with lat_pipe PIPE_US and bw_read 1000 + REP.
boot() {
	id="bios $1 $2"
	echo "$id memtotal_kib 468240"
	echo "$id stress_status $([ "$1" = unprotected ] && echo FAIL || echo PASS)"
	echo "$id stress_errors $([ "$1" = unprotected ] && echo 5000 || echo 0)"
	echo "$id pressure_errors 0"
	echo "$id kernel_messages 0"
	echo "$id metric:bw_read:MB/s $((1000 + $2))"
	echo "$id metric:lat_pipe:us $3"
	echo "$id end $([ "$1" = unprotected ] && echo corruption || echo clean)"
	echo "$id console_bad 0"
	echo "$id vm_result 0"
}
{
	echo "bios - - line badram=0x11000000,0xfffff000"
	echo "bios - - fold fold: failing_pages=1 pairs=1 holes=1 excluded_pages=1"
	echo "bios - - reserve_kib 4"
	for rep in 1 2 3; do
		boot healthy $rep $((90 + 5 * rep))
		boot unprotected $rep 200
		boot protected $rep $((95 + 5 * rep))
	done
} >"$tmp.good"

# expect NAME CORRUPTION NOISE RESULTS: the report's verdict lines say
# CORRUPTION and NOISE (holds or fails) for the results file.
expect() {
	awk -v k=5 -v check=0 -v mem=512M -v stress=10 -v rounds=5 -v load=- \
		-f bench/consumer-report.awk "$4" >"$tmp.out"
	got="$(sed -n 's/^Corruption verdict: \*\*\([a-z]*\)\*\*.*/\1/p' "$tmp.out") $(sed -n 's/^Noise verdict: \*\*\([a-z ]*\)\*\*.*/\1/p' "$tmp.out")"
	if [ "$got" != "$2 $3" ]; then
		echo "FAIL consumer-report: $1: verdicts '$got', want '$2 $3'; report:"
		cat "$tmp.out"
		fails=1
	fi
}

expect "the claim holds" holds holds "$tmp.good"
# Healthy's lat_pipe is 95, 100, 105 us and protected's 100, 105, 110 us: the
# noise, pooled, is about 4 % (in logarithms): 5 standard errors are 22 %.
sed '/^bios protected /s/lat_pipe:us .*/lat_pipe:us 110/' "$tmp.good" >"$tmp.edge"
expect "protected 10 % slower than healthy's mean" holds holds "$tmp.edge"
sed '/^bios protected /s/lat_pipe:us .*/lat_pipe:us 125/' "$tmp.good" >"$tmp.slow"
expect "protected 25 % slower than healthy's mean" holds fails "$tmp.slow"
sed '/^bios protected /s/bw_read:MB\/s .*/bw_read:MB\/s 800/' "$tmp.good" >"$tmp.bw"
expect "protected bandwidth 20 % below healthy's" holds fails "$tmp.bw"
sed '/^bios healthy 2 vm_result/s/0$/3/; /^bios healthy 2 end/d' "$tmp.good" >"$tmp.died"
expect "a healthy VM that died" fails holds "$tmp.died"
sed '/^bios unprotected 3 /{s/FAIL/PASS/; s/5000/0/; s/corruption/clean/}' "$tmp.good" >"$tmp.clean"
expect "an unprotected boot without corruption" fails holds "$tmp.clean"
grep -v '^bios [a-z]* [23] ' "$tmp.good" >"$tmp.one"
expect "one boot of each VM" holds "not judged" "$tmp.one"
sed '/^bios protected [0-9] metric:lat_pipe/d' "$tmp.good" >"$tmp.missing"
expect "a measurement missing from every protected boot" holds "not judged" "$tmp.missing"

[ "$fails" = 0 ] && echo "  TEST    bench/check-consumer-report.sh: 8 cases"
exit "$fails"
