#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Exact errors from every CPU: six stuck bits spread over a 128 MiB guest,
# held by build/host/ramsift-inject, are found by march-c at -smp 4 (one
# host thread per guest CPU) over two passes, so the shares rotate and
# ramsift moves itself with the APs parked and started again. The ERROR
# addresses are exactly the six faulty words, each with only its stuck bit
# wrong, reported by at least two different CPUs (cpu=), each word by
# another CPU in pass 2 than in pass 1; the error table lost no record
# (every failing read printed: as many ERROR lines as the result line's
# errors=); and the fold's lines (badram=, GRUB_BADRAM=, memmap=, fold:)
# are the same as those of a cpus=1 run over the same faults. (The counts of
# the two runs may differ by a read or two: the injector re-forces a bit
# about every 100 us, and with four busy guest CPUs on a loaded host it can
# miss the moment between a write and the read back.)
# Logs: build/test/smp-faults-{smp4,cpus1}.log.
. "$(dirname "$0")/lib.sh"

E2E_ACCEL=tcg,thread=multi
faults=(0x1200000:3:1 0x2400008:7:0 0x3a5a5a8:5:1 0x4800010:63:0 0x5a5a5a8:12:1 0x7000018:40:0)
want=$(printf '%s\n' "${faults[@]}" | sed -E 's/^0x([0-9a-f]+):.*/\1/' |
	while read -r a; do printf '0x%016x\n' $((0x$a)); done | sort | tr '\n' ' ')

e2e_hold 128M "${faults[@]}"

# run NAME ARGS: one boot over the faulty RAM, its log kept as NAME.
run() {
	E2E_LOG=$E2E_DIR/$E2E_NAME-$1.log
	e2e_boot -smp 4 "${E2E_HELD[@]}" -kernel "$ELF" \
		-append "console=ttyS0,115200 $E2E_ARGS errors=100000 tests=march-c passes=2 $2"
	e2e_expect '^ramsift: result=FAIL ' "$1: result line"
	[ "$E2E_RESULT" -eq 1 ] || e2e_fail "$1: isa-debug-exit result: want FAIL, got ${E2E_RESULTS[$E2E_RESULT]}"
	counted=$(sed -nE 's/^ramsift: result=.* errors=([0-9]+) .*/\1/p' "$E2E_LOG")
	[ "$(grep -c '^ERROR ' "$E2E_LOG")" = "$counted" ] ||
		e2e_fail "$1: $(grep -c '^ERROR ' "$E2E_LOG") ERROR lines for errors=$counted"
	addrs=$(sed -nE 's/^ERROR addr=(0x[0-9a-f]{16}) .*/\1/p' "$E2E_LOG" | sort -u | tr '\n' ' ')
	[ "$addrs" = "$want" ] || e2e_fail "$1: ERROR addresses: want exactly $want, got: $addrs"
	while read -r addr exp act; do
		diff=$((exp ^ act))
		[ "$diff" -ne 0 ] && [ $((diff & (diff - 1))) -eq 0 ] ||
			e2e_fail "$1: $addr: expected $exp actual $act differ in more than one bit"
	done < <(sed -nE 's/^ERROR addr=(0x[0-9a-f]+) expected=(0x[0-9a-f]+) actual=(0x[0-9a-f]+) .*/\1 \2 \3/p' "$E2E_LOG")
}

run smp4 ''
e2e_expect '^cpus: 4 found in the MADT, 4 started \(APIC IDs 0 1 2 3\)$' 'all four CPUs started'
e2e_expect '^ramsift moved itself to ' 'moved twice, the APs parked and back'
cpus=$(sed -nE 's/^ERROR .* cpu=([0-9]+)$/\1/p' "$E2E_LOG" | sort -u | tr '\n' ' ')
[ "$(wc -w <<<"$cpus")" -ge 2 ] || e2e_fail "want ERROR lines from at least two CPUs, got cpu= $cpus"
# Rotation: the same word is tested by another CPU in pass 2.
for a in $want; do
	c1=$(sed -nE "s/^ERROR addr=$a .* pass=1 cpu=([0-9]+)\$/\\1/p" "$E2E_LOG" | sort -u | tr '\n' ' ')
	c2=$(sed -nE "s/^ERROR addr=$a .* pass=2 cpu=([0-9]+)\$/\\1/p" "$E2E_LOG" | sort -u | tr '\n' ' ')
	[ -n "$c1" ] && [ -n "$c2" ] && [ "$c1" != "$c2" ] ||
		e2e_fail "$a: want it found in both passes by different CPUs, got pass 1: $c1, pass 2: $c2"
done
smp_log=$E2E_LOG

run cpus1 cpus=1
e2e_expect '^cpus: 4 found in the MADT, 1 started \(APIC IDs 0\), 3 left out by cpus=1$' 'cpus=1: the BSP alone'
e2e_expect_no '^ERROR .* cpu=[1-9]' 'cpus=1: every ERROR line from cpu=0'
for key in 'badram=' 'GRUB_BADRAM=' 'memmap=' 'fold: '; do
	a=$(grep "^$key" "$smp_log") b=$(grep "^$key" "$E2E_LOG")
	[ -n "$a" ] && [ "$a" = "$b" ] || e2e_fail "the line $key differs: -smp 4: '$a', cpus=1: '$b'"
done
