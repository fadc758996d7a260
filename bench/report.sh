#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `make bench` (and, with --quick, `make check-bench`): run the six bench/
# instruments (passtime.sh, faults.sh, hostbw, bench-fold, smpscale.sh,
# screencost.sh; bench/README.md) and print one markdown report, a summary
# table then each instrument's own, also written to build/bench/report.md
# (--quick: build/bench/smoke-report.md). --quick runs each smoke mode to
# prove the scripts and parsers work and asserts no time; a failing
# instrument is named and makes the exit status 1 (in --quick mode the first
# failure stops the run).
# usage: bench/report.sh [--quick] [--only "1 2 3 4 5 6"] [--mem SIZE]
#        [--mems LIST] [--alternations N] [--cpus N] [--size BYTES]
#   --mems, --alternations, --cpus go to instrument 1, --mem to 2; --size is
#   instrument 3's buffer (default 1G).
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

quick=0 only="1 2 3 4 5 6" size=1G rounds=3 p_args=() f_args=() s_args=() c_args=()
while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1 size=16M rounds=1 p_args+=(--quick) f_args+=(--quick) s_args+=(--quick) c_args+=(--quick) ;;
	--only) only=$2; shift ;;
	--mem) f_args+=(--mem "$2"); shift ;;
	--mems | --alternations | --cpus) p_args+=("$1" "$2"); shift ;;
	--size) size=$2; shift ;;
	*) echo "usage: $0 [--quick] [--only LIST] [--mem SIZE] [--mems LIST] [--alternations N] [--cpus N] [--size BYTES]" >&2; exit 2 ;;
	esac
	shift
done
want() { [[ " $only " == *" $1 "* ]]; }

name=report
[ "$quick" = 0 ] || name=smoke-report
out=$BENCH_DIR/$name.md
machine=$(bench_machine)
start=$SECONDS
failed=()

# run N WHAT CMD...: run one instrument (its section on stdout into
# build/bench/NAME-N.md); note a failure, or stop on it in --quick mode.
run() {
	local n=$1 what=$2
	shift 2
	echo "bench: instrument $n: $what ($*)" >&2
	if "$@" >"$BENCH_DIR/$name-$n.md"; then
		return 0
	fi
	failed+=("$n ($what)")
	[ "$quick" = 0 ] || bench_die "instrument $n ($what) failed: $*"
}

# Instrument 3 first, while no QEMU of ours loads the machine.
rm -f "$BENCH_DIR"/"$name"-[123456].md "$BENCH_DIR"/passtime.md.summary "$BENCH_DIR"/faults.md.summary \
	"$BENCH_DIR"/smpscale.md.summary "$BENCH_DIR"/screencost.md.summary
want 3 && run 3 "host bandwidth" "$B/bench/hostbw" --size "$size" --rounds "$rounds"
want 1 && run 1 "pass time" bench/passtime.sh "${p_args[@]}"
want 5 && run 5 "pass time against CPUs" bench/smpscale.sh "${s_args[@]}"
want 2 && run 2 "injected faults" bench/faults.sh "${f_args[@]}"
want 6 && run 6 "status screen's cost" bench/screencost.sh "${c_args[@]}"
fold_args=()
[ "$quick" = 0 ] || fold_args=(--quick)
want 4 && run 4 "BadRAM fold" "$B/bench-fold" "${fold_args[@]}"

host_summary() {
	local f=$BENCH_DIR/$name-3.md
	[ -s "$f" ] || return 0
	awk -F'|' '$8 ~ /[0-9] %/ { p = $8; gsub(/[ %]/, "", p); n++
		if (p + 0 >= 90) ok++
		if (min == "" || p + 0 < min) { min = p + 0; which = $2 } }
	END { if (n) printf "| 3 | host bandwidth, %s buffer | %d of %d tests >= 90 %%; lowest %d %% (%s) | every test >= 90 %% |\n", size, ok, n, min, which }' \
		size="$size" "$f" | sed 's/( /(/; s/ )/)/'
}

{
	echo "## ramsift benchmarks$([ "$quick" = 1 ] && echo ' (smoke run: numbers mean nothing)')"
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'), \`make bench$([ "$quick" = 1 ] && echo ' (check-bench: bench/report.sh --quick)')\`," \
		"$((SECONDS - start)) s. $machine"
	echo
	echo "| instrument | measure | result | target |"
	echo "| --- | --- | --- | --- |"
	want 1 && cat "$BENCH_DIR/passtime.md.summary" 2>/dev/null
	want 5 && cat "$BENCH_DIR/smpscale.md.summary" 2>/dev/null
	want 2 && cat "$BENCH_DIR/faults.md.summary" 2>/dev/null
	want 3 && host_summary
	want 4 && echo "| 4 | BadRAM fold | see its tables below (ramsift / greedy baseline) | exact covers, fewest pages wasted |"
	want 6 && cat "$BENCH_DIR/screencost.md.summary" 2>/dev/null
	for f in "${failed[@]}"; do
		echo "| $f | FAILED | see the messages above the report | |"
	done
	for n in 1 5 2 3 4 6; do
		if ! want "$n" || [ ! -s "$BENCH_DIR/$name-$n.md" ]; then
			continue
		fi
		echo
		case $n in
		3)
			echo "### Host bandwidth of the lib/ tests (instrument 3)"
			echo
			echo "\`build/bench/hostbw --size $size --rounds $rounds\`: lib/ built with -O2 and src/x86/memrw.h (MEMRW_USER_SPACE)" \
				"(movnti, sfence, rep movsq; no cache flush: wbinvd is privileged), one run per test and round" \
				"over one buffer, each between runs of the reference loops; medians over rounds of the per-round" \
				"ratios. The traffic model is documented at the top of bench/hostbw.c."
			echo ;;
		4)
			echo "### BadRAM fold (instrument 4)"
			echo
			echo "\`build/bench-fold$([ "$quick" = 1 ] && echo ' --quick')\`:"
			echo ;;
		esac
		cat "$BENCH_DIR/$name-$n.md"
	done
} >"$out"
cat "$out"
[ ${#failed[@]} -eq 0 ]
