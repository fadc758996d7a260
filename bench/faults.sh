#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Instrument 2 of bench/: the same injected stuck-at faults for ramsift and
# memtest86+ (bench/README.md). For each scenario build/host/ramsift-inject
# holds the faulty bits in the shared file that backs the guest's RAM, and
# each tester boots on it in turn: ramsift's default pass (bitfade=0, every
# ERROR line printed), memtest86+'s tests 0-9 (reportmode=badram). QEMU has
# no DRAM geometry: "row" and "column" are the address patterns such defects
# make, a contiguous block and a strided set. Writes the markdown section to
# OUT (default build/bench/faults.md) and a summary row to OUT.summary; exit
# status 1 when ramsift missed a fault or a boot gave no usable log, never
# because of a time.
# usage: bench/faults.sh [--quick] [--mem SIZE] [--scenarios "cells row column scatter"]
#        [--out FILE]
#   --quick  smoke mode: 32M, one cell, ramsift tests=march-c, memtest86+
#            stopped at its test 4
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

INJECT=$B/host/ramsift-inject
SCORE=$B/bench/badram-score
quick=0 mem=128M scenarios="cells row column scatter" out=$BENCH_DIR/faults.md
while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1 mem=32M scenarios=cell ;;
	--mem) mem=$2; shift ;;
	--scenarios) scenarios=$2; shift ;;
	--out) out=$2; shift ;;
	*) echo "usage: $0 [--quick] [--mem SIZE] [--scenarios LIST] [--out FILE]" >&2; exit 2 ;;
	esac
	shift
done

rs_args="console=ttyS0,115200 onexit=qemu errors=4000000000"
mt_stop="--stop-test 10" limit=900 mt_what="tests 0-9"
if [ "$quick" = 1 ]; then
	rs_args="$rs_args tests=march-c"
	mt_stop="--stop-test 4" limit=120 mt_what="to test 4"
else
	rs_args="$rs_args bitfade=0"
fi

# scenario NAME: its faults, one ADDR:BIT:VALUE a line.
scenario() {
	case $1 in
	cell) echo 0x1234568:4:1 ;;
	cells) printf '%s\n' 0x2345678:5:1 0x5a5a5a8:17:0 0x7654320:63:1 ;;
	row) for w in $(seq 0 1023); do printf '0x%x:9:1\n' $((0x3000000 + 8 * w)); done ;;
	column) for r in $(seq 0 31); do printf '0x%x:40:0\n' $((0x4000000 + 0x10000 * r + 0x1a8)); done ;;
	scatter) for i in $(seq 1 16); do
			printf '0x%x:%d:%d\n' $(((0x1000000 + i * 0x9e3779b9 % 0x6f00000) & ~7)) $((i * 7 % 64)) $((i & 1))
		done ;;
	*) bench_die "unknown scenario $1" ;;
	esac
}

ram=/dev/shm/ramsift-bench-$$
inj=
# shellcheck disable=SC2317 # called by the trap
cleanup() { [ -z "$inj" ] || kill "$inj" 2>/dev/null || true; rm -f "$ram"; }
trap cleanup EXIT

# boot_faulty LOG CLOCK_OPTIONS KERNEL APPEND FAULTS: one boot on a fresh RAM
# file with the faults held.
boot_faulty() {
	rm -f "$ram"
	truncate -s "$mem" "$ram"
	# shellcheck disable=SC2046 # one argument per fault
	"$INJECT" --file "$ram" $(cat "$5") &
	inj=$!
	bench_boot "$1" "$2" -m "$mem" -smp 1 \
		-object "memory-backend-file,id=mem,size=$mem,mem-path=$ram,share=on" \
		-machine memory-backend=mem -kernel "$3" -append "$4"
	kill "$inj" 2>/dev/null || true
	wait "$inj" 2>/dev/null || true
	inj=
}

rows=$BENCH_DIR/faults.rows
: >"$rows"
rs_found=0 mt_found=0 n=0 status=0
for s in $scenarios; do
	faults=$BENCH_DIR/faults-$s.txt
	scenario "$s" >"$faults"
	nwords=$(wc -l <"$faults")
	words=$BENCH_DIR/faults-$s.words
	while IFS=: read -r a _; do printf '0x%016x\n' $((a)); done <"$faults" | sort -u >"$words"
	npages=$(while read -r a; do echo $((a >> 12)); done <"$words" | sort -u | wc -l)
	n=$((n + 1))

	# ramsift
	log=$BENCH_DIR/faults-ramsift-$s.log
	boot_faulty "$log" "--timeout $limit" "$ELF" "$rs_args" "$faults"
	[ "$BENCH_STATUS" = 3 ] || bench_die "ramsift did not end FAIL (QEMU status $BENCH_STATUS)" "$log"
	ramopts=$(bench_usable "$log")
	[ -n "$ramopts" ] || bench_die "no usable lines in $log" "$log"
	first=$(awk '$2 == "ERROR" { print $1; exit }' "$log")
	errors=$(sed -nE 's/^[0-9.]+ ramsift: result=[A-Z]+ .*errors=([0-9]+) .*/\1/p' "$log")
	runs=$(awk '$2 == "pass" && $4 == "start," { s = $1 } $2 == "pass" && $4 == "end" { printf "%.1f", $1 - s }' "$log")
	missed=$(comm -23 "$words" <(sed -nE 's/^[0-9.]+ ERROR addr=(0x[0-9a-f]{16}) .*/\1/p' "$log" | sort -u) | wc -l)
	found=yes
	if [ "$missed" != 0 ]; then
		found="no ($missed of $nwords missed)" status=1
	else
		rs_found=$((rs_found + 1))
	fi
	line=$(grep -m1 -oE 'badram=0x[0-9a-fA-Fx,]+' "$log" | sed 's/^badram=//' || true)
	# shellcheck disable=SC2086 # one --ram option per word
	score=$("$SCORE" $ramopts --faults "$faults" "${line:--}")
	echo "$s|$nwords / $npages|ramsift|$found|${errors:-?}|${first:-none}|$runs (pass)|$score" >>"$rows"

	# memtest86+
	log=$BENCH_DIR/faults-memtest-$s.log
	boot_faulty "$log" "--screen $mt_stop --timeout $limit --dump $log.screen" "$MEMTEST" \
		"console=ttyS0,115200 reportmode=badram nopause" "$faults"
	grep -q ' test=' "$log" || bench_die "no test number read from memtest86+'s screen" "$log"
	# The badram message can reach the screen before the error counter.
	first=$(awk '$2 ~ /^(errors=[1-9]|badram=)/ { print $1; exit }' "$log")
	errors=$(sed -nE 's/^[0-9.]+ errors=([0-9]+)$/\1/p' "$log" | tail -n 1)
	runs=$(awk -v stop="${mt_stop#--stop-test }" '
		/ test=/ { t = $2; sub(/^test=/, "", t); if (first == "") first = $1
			if (t + 0 >= stop + 0 && last == "") last = $1 }
		/ end=/ { if (last == "") last = $1; printf "%.1f", last - first }' "$log")
	line=$(sed -nE 's/^[0-9.]+ badram=//p' "$log" | tail -n 1)
	# shellcheck disable=SC2086 # one --ram option per word
	score=$("$SCORE" $ramopts --faults "$faults" "${line:--}")
	wm=$(sed -nE 's/.*words_missed=([0-9]+).*/\1/p' <<<"$score")
	if [ -z "$line" ]; then
		found="no (no badram line)"
	elif [ "$wm" = 0 ]; then
		found=yes mt_found=$((mt_found + 1))
		# At its 10-pair limit memtest86+ merges pairs, which then match
		# words it may never have seen fail.
		[ "$(sed -nE 's/^pairs=([0-9]+) .*/\1/p' <<<"$score")" -lt 10 ] ||
			found="yes, by merged pairs (not exact)"
	else
		found="no ($wm of $nwords not matched)"
	fi
	echo "$s|$nwords / $npages|memtest86+|$found|${errors:-?}|${first:-none}|$runs ($mt_what)|$score" >>"$rows"
done

# ---- the report ----------------------------------------------------------------
{
	echo "### Injected faults (instrument 2)"
	echo
	echo "\`bench/faults.sh$([ "$quick" = 1 ] && echo ' --quick') --mem $mem --scenarios \"$scenarios\"\`:" \
		"stuck-at bits held by build/host/ramsift-inject in a shared RAM file (QEMU TCG, -m $mem," \
		"1 CPU); ramsift ($rs_args), then memtest86+ (reportmode=badram nopause, tests 0-9$([ "$quick" = 1 ] && echo ', smoke run: to test 4'))." \
		"First error: host seconds since QEMU started. BadRAM: the tester's badram= line as GRUB" \
		"applies it, in 4 KiB pages of usable RAM (build/bench/badram-score)."
	echo
	echo "| scenario | faulty words / pages | tester | found every fault | errors counted | first error s | run s | pairs | pages excluded | faulty pages covered | good pages wasted |"
	echo "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
	while IFS='|' read -r s inj who found errors first runs score; do
		get() { sed -nE "s/.*$1=([0-9a-z]+).*/\\1/p" <<<"$score"; }
		if [ "$score" = pairs=none ]; then
			echo "| $s | $inj | $who | $found | $errors | $first | $runs | no line | | | |"
		else
			echo "| $s | $inj | $who | $found | $errors | $first | $runs | $(get pairs) | $(get excluded) | $(get covered) of $(get fault_pages) | $(get wasted) |"
		fi
	done <"$rows"
} >"$out"
echo "| 2 | injected faults, $n scenario$([ "$n" = 1 ] || echo s), -m $mem | found every fault: ramsift $rs_found/$n, memtest86+ $mt_found/$n | all |" >"$out.summary"
cat "$out"
exit $status
