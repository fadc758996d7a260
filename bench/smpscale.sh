#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Instrument 5 of bench/: how ramsift's pass scales with the CPUs
# (bench/README.md). The same image boots in the same VM (QEMU TCG, a host
# thread per guest CPU) with -smp 1 and -smp 2 alternately, its default pass
# with bitfade=0 timed on the host from "pass 1: start" to "pass 1: end". The
# ratio is the mean -smp 2 time over the mean -smp 1 time (target 0.6 or
# less); the host's other load hurts -smp 2 most, so the median of each
# alternation's own ratio and the load average are given too. A first,
# uncounted boot warms the host up (the first QEMU of a series runs slower).
# Writes the markdown section to OUT (default build/bench/smpscale.md) and a
# summary row to OUT.summary; exit status 1 when a boot did not pass or gave
# no pass lines, never because of a time.
# usage: bench/smpscale.sh [--quick] [--mem SIZE] [--alternations N] [--cpus "1 2"] [--out FILE]
#   --quick  smoke mode: 1 alternation, 32M, tests=march-c
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

quick=0 mem=256M alternations=3 cpus="1 2" out=$BENCH_DIR/smpscale.md
while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1 mem=32M alternations=1 ;;
	--mem) mem=$2; shift ;;
	--alternations) alternations=$2; shift ;;
	--cpus) cpus=$2; shift ;;
	--out) out=$2; shift ;;
	*) echo "usage: $0 [--quick] [--mem SIZE] [--alternations N] [--cpus LIST] [--out FILE]" >&2; exit 2 ;;
	esac
	shift
done

BENCH_ACCEL=tcg,thread=multi
args="console=ttyS0,115200 onexit=qemu bitfade=0"
[ "$quick" = 0 ] || args="$args tests=march-c"
tsv=$BENCH_DIR/smpscale.tsv
: >"$tsv"
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
bench_boot "$BENCH_DIR/smpscale-warmup.log" "--timeout 600" -m "$mem" -smp 1 -kernel "$ELF" -append "$args"

for a in $(seq 1 "$alternations"); do
	for c in $cpus; do
		log=$BENCH_DIR/smpscale-smp$c-$a.log
		bench_boot "$log" "--timeout 600" -m "$mem" -smp "$c" -kernel "$ELF" -append "$args"
		[ "$BENCH_STATUS" = 1 ] || bench_die "ramsift did not end PASS at -smp $c (QEMU status $BENCH_STATUS)" "$log"
		grep -Eq "^[0-9.]+ cpus: $c found in the MADT, $c started " "$log" ||
			bench_die "-smp $c: not all $c CPUs started" "$log"
		awk -v c="$c" -v a="$a" '
			$2 == "pass" && $4 == "start," { ps = $1 }
			$2 == "pass" && $4 == "end" { pe = $1; for (i = 5; i <= NF; i++) if ($i ~ /^time_s=/) { g = $i; sub(/^time_s=/, "", g) } }
			END { if (ps == "" || pe == "") exit 1; printf "%s %s %.3f %s\n", c, a, pe - ps, g }' \
			"$log" >>"$tsv" || bench_die "no pass start/end lines in $log" "$log"
	done
done
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

mean() { awk -v c="$1" -v k="$2" '$1 == c { s += $k; n++ } END { if (n) printf "%.3f", s / n }' "$tsv"; }
# median_ratio C: the median over alternations of C's time over the first count's.
median_ratio() {
	awk -v c="$1" -v f="${cpus%% *}" '$1 == f { base[$2] = $3 } $1 == c { t[$2] = $3 }
		END { for (a in t) if (base[a] > 0) print t[a] / base[a] }' "$tsv" |
		sort -g | awk '{ v[NR] = $1 } END { if (NR) printf "%.2f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
runs() { awk -v c="$1" '$1 == c { printf "%s%s", sep, $3; sep = ", " }' "$tsv"; }
first=${cpus%% *}
{
	echo "### Pass time against CPUs (instrument 5)"
	echo
	echo "\`bench/smpscale.sh$([ "$quick" = 1 ] && echo ' --quick') --mem $mem --alternations $alternations" \
		"--cpus \"$cpus\"\`: QEMU TCG with one host thread per guest CPU (-accel tcg,thread=multi)," \
		"-m $mem, the same image ($args) booted with each CPU count in turn. Host clock from" \
		"\"pass 1: start\" to \"pass 1: end\" (ramsift's own memory included); the guest's own" \
		"time_s for comparison. Load average at the start $load_start, at the end $load_end."
	echo
	echo "| CPUs | pass s (host clock), per run | mean s | guest time_s mean | ratio of means to $first CPU | median of the runs' ratios |"
	echo "| ---: | --- | ---: | ---: | ---: | ---: |"
	for c in $cpus; do
		ratio=$(awk -v x="$(mean "$c" 3)" -v y="$(mean "$first" 3)" 'BEGIN { if (y > 0) printf "%.2f", x / y }')
		echo "| $c | $(runs "$c") | $(mean "$c" 3) | $(mean "$c" 4) | $ratio | $(median_ratio "$c") |"
		[ "$c" = "$first" ] ||
			echo "| 5 | pass time, $c CPUs against $first, -m $mem | $(mean "$c" 3) s / $(mean "$first" 3) s = **$ratio** (median of the runs' ratios $(median_ratio "$c")) | <= 0.6 at 2 CPUs on 2 host cores |" >>"$out.summary.tmp"
	done
} >"$out"
mv "$out.summary.tmp" "$out.summary" 2>/dev/null || : >"$out.summary"
cat "$out"
