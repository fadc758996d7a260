#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every CPU tests: at -smp 2, 4 and 8 on the pc and q35 machines (QEMU
# -kernel, one host thread per guest CPU), ramsift starts every CPU the MADT
# lists and names them all in the cpus: line, runs the default pass on all of
# them (march-c split into shares, ramsift's own memory after the move, with
# the APs parked and started again), and passes with tested_bytes =
# usable_bytes and no warning; the same with -cpu max. Then every test
# (tests=all, bit-fade with a 1 s wait) at -smp 4: no false error, and the
# pass waits once per retention window, not once per CPU. One log per boot:
# build/test/smp-start-<boot>.log.
. "$(dirname "$0")/lib.sh"

E2E_ACCEL=tcg,thread=multi

for machine in pc q35; do
	for n in 2 4 8; do
		E2E_LOG=$E2E_DIR/$E2E_NAME-$machine-$n.log
		e2e_boot -machine "$machine" -smp "$n" -m 64M -kernel "$ELF" \
			-append "console=ttyS0,115200 $E2E_ARGS"
		e2e_expect_pass
		ids=$(seq -s ' ' 0 $((n - 1)))
		e2e_expect "^cpus: $n found in the MADT, $n started \\(APIC IDs $ids\\)\$" \
			"$machine -smp $n: all $n CPUs started"
		e2e_expect '^ramsift moved itself to ' "$machine -smp $n: moved, the APs parked and back"
		# The own-memory jobs cover the AP start-up code too: 3 ranges.
		e2e_expect '^test march-c: start pass=1 bytes=[0-9]+ ranges=3 own-memory ' \
			"$machine -smp $n: ramsift's own memory and the start-up code tested"
		[ "$(grep -c '^test march-c: start ' "$E2E_LOG")" -eq 2 ] ||
			e2e_fail "$machine -smp $n: want one start line per march-c job, not one per CPU"
	done
done

# The newest CPU model QEMU emulates (still xAPIC: TCG has no x2APIC, see
# docs/testing.md, KNOWN).
E2E_LOG=$E2E_DIR/$E2E_NAME-cpu-max.log
e2e_boot -machine q35 -cpu max -smp 4 -m 64M -kernel "$ELF" -append "console=ttyS0,115200 $E2E_ARGS"
e2e_expect_pass
e2e_expect '^cpus: 4 found in the MADT, 4 started \(APIC IDs 0 1 2 3\)$' '-cpu max: all 4 CPUs started'

E2E_LOG=$E2E_DIR/$E2E_NAME-bitfade.log
e2e_boot -machine q35 -smp 4 -m 64M -kernel "$ELF" \
	-append "console=ttyS0,115200 $E2E_ARGS tests=all bitfade=1"
e2e_expect_pass
for t in $(sed -n 's/^\t{ "\([a-z0-9-]*\)",.*/\1/p' lib/memtest/memtest.c); do
	want=3
	[ "$t" = bit-fade ] && want=8	# three windows' fills and checks
	[ "$(grep -c "^test $t: end pass=1 errors=0 " "$E2E_LOG")" -eq "$want" ] ||
		e2e_fail "tests=all: want $t to end $want times without error"
done
# Three windows, the third taken by the other tests' sweeps: two or three
# waiting lines, one per window, not one per CPU.
waits=$(grep -c '^test bit-fade: waiting 1 s for bits to fade, pass=1$' "$E2E_LOG")
[ "$waits" -ge 2 ] && [ "$waits" -le 3 ] ||
	e2e_fail "bit-fade: want 2 or 3 waiting lines (one per window), got $waits"
