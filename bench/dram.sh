#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What the DRAM learning (lib/dram, issue #29) costs: for each simulated map
# of tests/dram/, build/ramsift-dram --simulate over N seeds: how many learn
# the map, the measurements (each the minimum of 4 timed rounds) and the
# wall time per run, the process's start included; then the tool on this machine, 3 runs: the outcome,
# measurements and seconds. Prints a markdown table (bench/README.md).
# Usage: bench/dram.sh [--seeds N] [path/to/ramsift-dram]
set -eu
seeds=20
if [ "${1:-}" = --seeds ]; then
	seeds=$2
	shift 2
fi
dram=${1:-build/ramsift-dram}
dir=$(dirname "$0")/../tests/dram
tmp=${TMPDIR:-/tmp}/bench-dram.$$
trap 'rm -f "$tmp".*' EXIT

now_ns() { date +%s%N; }
# measurements FILE: the N of the tool's "dram: measurements=N" line.
measurements() { sed -n 's/^dram: measurements=\([0-9]*\) .*/\1/p' "$1"; }

echo "| map | learned | measurements: mean (min-max) | ms per run |"
echo "| --- | ---: | ---: | ---: |"
for map in "$dir"/*.map; do
	ok=0 total=0 min= max=0
	t0=$(now_ns)
	seed=1
	while [ "$seed" -le "$seeds" ]; do
		"$dram" --seed "$seed" --simulate "$map" >"$tmp.out" && ok=$((ok + 1)) || true
		m=$(measurements "$tmp.out")
		total=$((total + m))
		[ -z "$min" ] || [ "$m" -lt "$min" ] && min=$m
		[ "$m" -gt "$max" ] && max=$m
		seed=$((seed + 1))
	done
	t1=$(now_ns)
	echo "| $(basename "$map" .map) | $ok/$seeds | $((total / seeds)) ($min-$max) |" \
		"$(( (t1 - t0) / seeds / 1000000 )) |"
done

echo
echo "| this machine, run | outcome | measurements | ms |"
echo "| --- | --- | ---: | ---: |"
for run in 1 2 3; do
	t0=$(now_ns)
	"$dram" --seed "$run" --seconds 10 >"$tmp.out" || true
	t1=$(now_ns)
	outcome=$(head -n 1 "$tmp.out" | sed 's/^dram: bank function.*/learned/; s/^dram: no mapping found: //; s/:.*//')
	echo "| $run | $outcome | $(measurements "$tmp.out") | $(( (t1 - t0) / 1000000 )) |"
done
