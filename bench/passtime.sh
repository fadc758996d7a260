#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Instrument 1 of bench/: pass time in QEMU, ramsift against memtest86+
# (bench/README.md). Both boot in the same VM (TCG, -m MEM, 1 CPU, then 2),
# alternately, ALTERNATIONS times, their serial streams timestamped on the
# host (build/bench/serial-clock): ramsift's default pass with bitfade=0 from
# "pass 1: start" to "pass 1: end" (own memory included), memtest86+'s tests
# 0-9 from its first test number to test 10 (bit fade), both per test too.
# --full runs both whole first passes with bit fade as well (minutes more per
# memtest86+ boot). Writes the markdown section to OUT (default
# build/bench/passtime.md) and a summary row per CPU count to OUT.summary;
# exit status 1 when a boot did not give its lines, never because of a time.
# usage: bench/passtime.sh [--quick] [--full] [--mem SIZE] [--alternations N]
#        [--cpus "1 2"] [--out FILE]
#   --quick  smoke mode: 1 alternation, 32M, tests=march-c for ramsift and
#            memtest86+ stopped at its test 3
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

quick=0 full=0 mem=128M alternations=3 cpus="1 2" out=$BENCH_DIR/passtime.md
while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1 mem=32M alternations=1 ;;
	--full) full=1 ;;
	--mem) mem=$2; shift ;;
	--alternations) alternations=$2; shift ;;
	--cpus) cpus=$2; shift ;;
	--out) out=$2; shift ;;
	*) echo "usage: $0 [--quick] [--full] [--mem SIZE] [--alternations N] [--cpus LIST] [--out FILE]" >&2; exit 2 ;;
	esac
	shift
done

rs_args="console=ttyS0,115200 onexit=qemu"
mt_stop="--stop-test 10" mt_limit=900 mt_what="tests 0-9"
if [ "$quick" = 1 ]; then
	rs_args="$rs_args tests=march-c"
	mt_stop="--stop-test 3" mt_limit=120 mt_what="to test 3"
elif [ "$full" = 1 ]; then
	mt_stop="--stop-pass 1" mt_limit=1800
else
	rs_args="$rs_args bitfade=0"
fi

tsv=$BENCH_DIR/passtime.tsv
: >"$tsv"
rm -f "$out.summary.tmp"

# ramsift_parse LOG CPUS ALT: append "CPUS ALT ramsift pass|nofade|test NAME
# SECONDS BYTES" rows for one timed ramsift log.
ramsift_parse() {
	awk -v c="$2" -v a="$3" '
	$2 == "pass" && $4 == "start," { ps = $1 }
	$2 == "pass" && $4 == "end" { pe = $1 }
	$2 == "test" && $4 == "start" {
		name = $3; sub(/:$/, "", name); st[name] = $1
		for (i = 5; i <= NF; i++)
			if ($i ~ /^bytes=/) { b = $i; sub(/^bytes=/, "", b); bytes[name] += b }
		if (!(name in order)) { order[name] = ++n; names[n] = name }
	}
	$2 == "test" && $4 == "end" {
		name = $3; sub(/:$/, "", name); secs[name] += $1 - st[name]
	}
	END {
		if (ps == "" || pe == "") exit 1
		printf "%s %s ramsift pass - %.3f 0\n", c, a, pe - ps
		printf "%s %s ramsift nofade - %.3f 0\n", c, a, pe - ps - secs["bit-fade"]
		for (i = 1; i <= n; i++)
			printf "%s %s ramsift test %s %.3f %d\n", c, a, names[i], secs[names[i]], bytes[names[i]]
	}' "$1" >>"$tsv"
}

# memtest_parse LOG DUMP CPUS ALT: the same rows for a memtest86+ event log
# (test=N / pass=N events) and its final screen (for the RAM size).
memtest_parse() {
	local mib
	# "Testing: 4MB - 31.8MB [27.8MB of 31.4MB]": the RAM one pass covers.
	mib=$(sed -nE 's/.* of ([0-9.]+)([KMG])B\].*/\1 \2/p' "$2" | head -n 1 |
		awk '{ print $1 * ($2 == "G" ? 1024 : $2 == "K" ? 1 / 1024 : 1) }')
	# Bit fade's screen says "fade over N seconds" instead: the RAM size.
	[ -n "$mib" ] || mib=$(sed -nE 's/^Memory *: *([0-9]+)MB .*/\1/p' "$2" | head -n 1)
	awk -v c="$3" -v a="$4" -v mib="${mib:-0}" '
	BEGIN { cur = -1 }
	/ test=/ { t = $2; sub(/^test=/, "", t); t += 0
		if (first == "") first = $1
		if (cur >= 0 && t != cur) secs[cur] += $1 - since
		if (t != cur) { cur = t; since = $1 }
		if (t >= 10 && nofade == "") nofade = $1
		if (!(t in seen)) { seen[t] = 1; ids[++n] = t }
	}
	/ pass=/ { p = $2; sub(/^pass=/, "", p)
		if (p + 0 >= 1 && passend == "") {
			passend = $1
			if (nofade == "") nofade = $1
			if (cur >= 0) secs[cur] += $1 - since
			cur = -1
		}
	}
	/ end=/ { stop = $1; how = $2 }
	END {
		if (first == "") exit 1
		# Quick mode stops at a lower test: count up to the stop.
		if (nofade == "" && how == "end=stop") nofade = since
		if (nofade != "")
			printf "%s %s memtest nofade - %.3f 0\n", c, a, nofade - first
		if (passend != "")
			printf "%s %s memtest pass - %.3f 0\n", c, a, passend - first
		for (i = 1; i <= n; i++)
			if (ids[i] in secs)
				printf "%s %s memtest test #%d %.3f %d\n", c, a, ids[i], secs[ids[i]], mib * 1048576
	}' "$1" >>"$tsv"
}

for c in $cpus; do
	for a in $(seq 1 "$alternations"); do
		log=$BENCH_DIR/passtime-ramsift-smp$c-$a.log
		bench_boot "$log" "--timeout $mt_limit" -m "$mem" -smp "$c" -kernel "$ELF" \
			-append "$rs_args"
		[ "$BENCH_STATUS" = 1 ] || bench_die "ramsift did not end PASS (QEMU status $BENCH_STATUS)" "$log"
		ramsift_parse "$log" "$c" "$a" || bench_die "no pass start/end lines in $log" "$log"

		log=$BENCH_DIR/passtime-memtest-smp$c-$a.log
		bench_boot "$log" "--screen $mt_stop --timeout $mt_limit --dump $log.screen" \
			-m "$mem" -smp "$c" -kernel "$MEMTEST" \
			-append "console=ttyS0,115200 reportmode=badram nopause"
		memtest_parse "$log" "$log.screen" "$c" "$a" ||
			bench_die "no test number read from memtest86+'s screen in $log" "$log"
		grep -q ' end=stop$' "$log" || bench_die "memtest86+ did not reach its stop point" "$log"
	done
done

# ---- the report ----------------------------------------------------------------
{
	echo "### Pass time in QEMU (instrument 1)"
	echo
	echo "\`bench/passtime.sh$([ "$quick" = 1 ] && echo ' --quick')$([ "$full" = 1 ] && echo ' --full')" \
		"--mem $mem --alternations $alternations --cpus \"$cpus\"\`: QEMU TCG, -m $mem," \
		"ramsift ($rs_args) and memtest86+ (reportmode=badram nopause) booted alternately." \
		"ramsift's pass runs from its \"pass 1: start\" to its \"pass 1: end\" line (the" \
		"re-run over its own memory included); memtest86+'s tests 0-9 from its first test" \
		"number to test 10 or its pass counter$([ "$quick" = 1 ] && echo ' (smoke run: to test 3)')," \
		"read off its screen mirror (1-2 s resolution). Host clock; seconds per run, then the mean."
	echo
	echo "| CPUs | ramsift pass s | ramsift without bit-fade s | memtest86+ tests 0-9 s | ratio (without bit-fade) | ramsift with bit-fade s | memtest86+ pass s |"
	echo "| ---: | --- | --- | --- | ---: | --- | --- |"
	for c in $cpus; do
		runs() { awk -v c="$c" -v t="$1" -v w="$2" '$1 == c && $3 == t && $4 == w { printf "%s%s", sep, $6; sep = " " }' "$tsv"; }
		# shellcheck disable=SC2046 # one argument per run
		mean() { bench_mean $(runs "$1" "$2"); }
		rp=$(runs ramsift pass) rn=$(runs ramsift nofade) mn=$(runs memtest nofade) mp=$(runs memtest pass)
		ratio=$(awk -v r="$(mean ramsift nofade)" -v m="$(mean memtest nofade)" 'BEGIN { if (m > 0) printf "%.3f", r / m }')
		with_rs="n/a (bitfade=0)" with_mt="not run (--full)"
		[ "$full" = 0 ] ||
			with_rs="$rp (mean $(mean ramsift pass))" with_mt="$mp (mean $(mean memtest pass))"
		echo "| $c | $rp (mean $(mean ramsift pass)) | $rn (mean $(mean ramsift nofade)) | $mn (mean $(mean memtest nofade)) | $ratio | $with_rs | $with_mt |"
		echo "| 1 | pass time, $c CPU$([ "$c" = 1 ] || echo s), -m $mem | ramsift $(mean ramsift nofade) s / memtest86+ $mt_what $(mean memtest nofade) s = **$ratio** | <= 0.5 |" >>"$out.summary.tmp"
	done
	echo
	echo "Per test (mean over the runs; MiB/s = RAM the test covered / its seconds):"
	echo
	echo "| CPUs | tester | test | s | MiB/s |"
	echo "| ---: | --- | --- | ---: | ---: |"
	awk '$4 == "test" { k = $1 SUBSEP $3 SUBSEP $5
		if (!(k in n)) { order[++m] = k; cc[k] = $1; who[k] = $3; name[k] = $5 }
		n[k]++; s[k] += $6; b[k] += $7 }
	END { for (i = 1; i <= m; i++) { k = order[i]
		# A test that took almost no time (address-walk, a skipped
		# bit-fade) has no meaningful rate.
		mibs = s[k] >= 0.1 * n[k] ? sprintf("%.0f", b[k] / 1048576 / s[k]) : "-"
		printf "| %s | %s | %s | %.3f | %s |\n", cc[k], who[k] == "memtest" ? "memtest86+" : "ramsift", name[k], s[k] / n[k], mibs } }' "$tsv"
} >"$out"
mv "$out.summary.tmp" "$out.summary"
cat "$out"
