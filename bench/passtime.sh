#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Instrument 1 of bench/: how long a default pass takes (bench/README.md).
# First against its own limit, in one run: ramsift's default pass with
# bitfade=BITFADE over -m 128M, its wall time from "pass 1: start" to "pass 1:
# end" against max(2 x BITFADE, the time its jobs ran), and its "pass 1:
# left_s=N" estimates against the time that really was left (those with 10 s
# or more left). Then each tester's default pass as it runs by default, at
# each size of --mems: ramsift's first pass (bit-fade's 90 s waits) and
# memtest86+'s first pass, bit fade included, booted alternately in the same
# VM; and the fault-model coverage each pass reaches in ramsift's simulator
# (build/coverage.md, make check-coverage's), memtest86+'s tests 0-10 as
# ramsift implements them.
# Serial streams are timestamped on the host (build/bench/serial-clock).
# Writes the markdown section to OUT (default build/bench/passtime.md) and
# summary rows to OUT.summary; exit status 1 when a boot did not give its
# lines, never because of a time.
# usage: bench/passtime.sh [--quick] [--mems "256M 1G"] [--bitfade S]
#        [--alternations N] [--cpus N] [--out FILE]
#   --quick  smoke mode: 32M, bitfade=1, one alternation, memtest86+ stopped
#            at its test 3
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

quick=0 mems="256M 1G" bitfade=20 alternations=1 cpus=2 out=$BENCH_DIR/passtime.md
limit_mem=128M mt_stop="--stop-pass 1" mt_limit=3600 mt_what="first pass" rs_fade=90
while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1 mems=32M bitfade=1 limit_mem=32M mt_stop="--stop-test 3" mt_limit=120 mt_what="tests up to 3" rs_fade=1 ;;
	--mems) mems=$2; shift ;;
	--bitfade) bitfade=$2; shift ;;
	--alternations) alternations=$2; shift ;;
	--cpus) cpus=$2; shift ;;
	--out) out=$2; shift ;;
	*) echo "usage: $0 [--quick] [--mems LIST] [--bitfade S] [--alternations N] [--cpus N] [--out FILE]" >&2; exit 2 ;;
	esac
	shift
done
BENCH_ACCEL=tcg,thread=multi
rs_args="console=ttyS0,115200 onexit=qemu"
[ "$quick" = 0 ] || rs_args="$rs_args bitfade=1"

# ramsift_parse LOG: "WALL SWEEPS MAXERR NLEFT" of one timed ramsift log:
# the pass's seconds, its jobs' seconds, the worst relative error of its
# time-left lines with 10 s or more left (and how many there were).
ramsift_parse() {
	awk '
	$2 == "pass" && $4 == "start," { ps = $1 }
	$2 == "pass" && $4 == "end" { pe = $1 }
	$2 == "pass" && $4 ~ /^left_s=/ { l = $4; sub(/^left_s=/, "", l); lt[++n] = $1; lv[n] = l }
	$2 == "test" && $4 == "start" { st = $1 }
	$2 == "test" && $4 == "end" { sweeps += $1 - st }
	END {
		if (ps == "" || pe == "") exit 1
		for (i = 1; i <= n; i++) {
			real = pe - lt[i]
			if (real < 10) continue
			e = (lv[i] - real) / real; if (e < 0) e = -e
			if (e > worst) worst = e
			k++
		}
		printf "%.3f %.3f %.3f %d\n", pe - ps, sweeps, worst, k
	}' "$1"
}

# memtest_parse LOG: the seconds of memtest86+'s first pass (or, stopped at a
# test, up to it) from its first test number on its screen mirror.
memtest_parse() {
	awk '
	/ test=/ { if (first == "") first = $1 }
	/ pass=/ { p = $2; sub(/^pass=/, "", p); if (p + 0 >= 1 && end == "") end = $1 }
	/ end=stop$/ { stop = $1 }
	END {
		if (first == "") exit 1
		if (end == "") end = stop
		if (end == "") exit 1
		printf "%.3f\n", end - first
	}' "$1"
}

ramsift_boot() {	# LOG MEM ARGS
	bench_boot "$1" "--timeout $mt_limit" -m "$2" -smp "$cpus" -kernel "$ELF" -append "$3"
	[ "$BENCH_STATUS" = 1 ] || bench_die "ramsift did not end PASS (QEMU status $BENCH_STATUS)" "$1"
}

# ---- the pass against its limit ------------------------------------------------
limit_rows=()
for a in $(seq 1 "$alternations"); do
	log=$BENCH_DIR/passtime-limit-$a.log
	ramsift_boot "$log" "$limit_mem" "$rs_args bitfade=$bitfade"
	read -r wall sweeps worst nleft < <(ramsift_parse "$log") ||
		bench_die "no pass start/end lines in $log" "$log"
	limit_rows+=("$wall $sweeps $worst $nleft")
done

# ---- the default passes side by side -------------------------------------------
declare -A rs_secs mt_secs
for mem in $mems; do
	for a in $(seq 1 "$alternations"); do
		log=$BENCH_DIR/passtime-ramsift-$mem-$a.log
		ramsift_boot "$log" "$mem" "$rs_args"
		read -r wall _ < <(ramsift_parse "$log") || bench_die "no pass lines in $log" "$log"
		rs_secs[$mem]+="$wall "

		log=$BENCH_DIR/passtime-memtest-$mem-$a.log
		bench_boot "$log" "--screen $mt_stop --timeout $mt_limit --dump $log.screen" \
			-m "$mem" -smp "$cpus" -kernel "$MEMTEST" \
			-append "console=ttyS0,115200 reportmode=badram nopause"
		grep -q ' end=stop$' "$log" || bench_die "memtest86+ did not reach its stop point" "$log"
		mt_secs[$mem]+="$(memtest_parse "$log" || bench_die "no test number on memtest86+'s screen" "$log") "
	done
done

# The coverage of both passes, from the simulator's table: "N of 13 classes
# at 100 %" and the classes below.
coverage() {
	awk -F'|' -v row="$1" '
	NR == 3 { for (i = 5; i < NF; i++) { name[i] = $i; gsub(/ /, "", name[i]) } }
	/^\| test \|/ { for (i = 5; i < NF; i++) { name[i] = $i; gsub(/ /, "", name[i]) } }
	index($2, row) { for (i = 5; i < NF; i++) { v = $i; gsub(/ /, "", v); n++
			if (v + 0 == 100) full++; else low = low sprintf(" %s %s %%", name[i], v) }
		printf "%d of %d fault classes at 100 %%%s", full, n, low; exit }' "$cov"
}
cov=$B/coverage.md	# make check-coverage's (mk/coverage.mk)
[ -s "$cov" ] || bench_die "no $cov: run make build/coverage.md first"

# ---- the report ----------------------------------------------------------------
mean_of() {	# FIELD: the mean of that field over limit_rows
	# shellcheck disable=SC2046 # one argument per run
	bench_mean $(printf '%s\n' "${limit_rows[@]}" | awk -v f="$1" '{ print $f }')
}
wall=$(mean_of 1) sweeps=$(mean_of 2) worst=$(mean_of 3)
worst_max=$(printf '%s\n' "${limit_rows[@]}" | awk '$3 > m { m = $3 } END { printf "%.3f", m }')
limit=$(awk -v s="$sweeps" -v b="$bitfade" 'BEGIN { l = 2 * b; if (s > l) l = s; printf "%.3f", l }')
ratio=$(awk -v w="$wall" -v l="$limit" 'BEGIN { printf "%.3f", w / l }')
: >"$out.summary.tmp"
{
	echo "### A default pass's time (instrument 1)"
	echo
	echo "\`bench/passtime.sh$([ "$quick" = 1 ] && echo ' --quick') --mems \"$mems\" --bitfade $bitfade" \
		"--alternations $alternations --cpus $cpus\`: QEMU TCG, one host thread per guest CPU" \
		"(-smp $cpus). Host clock; the mean of $alternations run(s)."
	echo
	echo "Against its limit: ramsift's default pass at -m $limit_mem with bitfade=$bitfade, from" \
		"\"pass 1: start\" to \"pass 1: end\", against max(2 x $bitfade s, the time its jobs ran)." \
		"Any order of a pass that tests the memory ramsift runs from needs three retention" \
		"windows (docs/memory-tests.md), so 1.5 is the least this ratio can be while the jobs" \
		"take less than a window."
	echo
	echo "| pass s | jobs s | limit s | ratio | time-left lines (10 s or more left) | their worst error |"
	echo "| ---: | ---: | ---: | ---: | ---: | ---: |"
	for r in "${limit_rows[@]}"; do
		read -r w s e k <<<"$r"
		awk -v w="$w" -v s="$s" -v e="$e" -v k="$k" -v b="$bitfade" 'BEGIN { l = 2 * b; if (s > l) l = s
			printf "| %.1f | %.1f | %.1f | **%.3f** | %d | %s |\n", w, s, l, w / l, k,
				k ? sprintf("%.1f %%", 100 * e) : "none to judge" }'
	done
	echo
	echo "Each tester's default pass as it runs by default (ramsift: bit-fade's $rs_fade s windows;" \
		"memtest86+ v6 reportmode=badram nopause: its $mt_what, bit fade included, read off its" \
		"serial screen mirror, 1-2 s resolution), and the fault-model coverage of that pass in" \
		"ramsift's simulator (memtest86+'s tests 0-10 as ramsift implements them):"
	echo
	echo "| RAM | ramsift s | memtest86+ s | ratio | ramsift's coverage | memtest86+'s coverage |"
	echo "| --- | ---: | ---: | ---: | --- | --- |"
	rs_cov=$(coverage '**default pass**') mt_cov=$(coverage "**memtest86+'s pass**")
	for mem in $mems; do
		# shellcheck disable=SC2086 # one argument per run
		r=$(bench_mean ${rs_secs[$mem]}) m=$(bench_mean ${mt_secs[$mem]})
		rm_ratio=$(awk -v r="$r" -v m="$m" 'BEGIN { printf "%.2f", r / m }')
		echo "| $mem | $r | $m | $rm_ratio | $rs_cov | $mt_cov |"
		echo "| 1 | default pass at $mem, -smp $cpus | ramsift $r s / memtest86+ $m s = **$rm_ratio**; coverage: $rs_cov / $mt_cov | like with like: each tester's default pass |" >>"$out.summary.tmp"
	done
} >"$out"
{
	echo "| 1 | default pass at $limit_mem, bitfade=$bitfade, -smp $cpus | $wall s / max(2 x $bitfade, $sweeps) s = **$ratio** | 1.5 (three windows) |"
	echo "| 1 | time left, same pass | $(printf '%s\n' "${limit_rows[@]}" | awk '{ k += $4 } END { print k + 0 }') lines with 10 s or more left; worst error $(awk -v e="$worst_max" 'BEGIN { printf "%.1f", 100 * e }') % (mean of the runs' worst: $(awk -v e="$worst" 'BEGIN { printf "%.1f", 100 * e }') %) | 10 % or less |"
	cat "$out.summary.tmp"
} >"$out.summary"
rm -f "$out.summary.tmp"
cat "$out"
