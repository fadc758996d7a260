#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The hammer test under TCG with two CPUs (tests=hammer hammer=2). Boot 1, a
# healthy guest: PASS, the test's start and end lines, one hammer: line for
# the pass with the rows hammered and the rate reached double-sided and
# many-sided, saying that the aggressors were guessed (no DRAM mapping
# under a hypervisor), and the JSON's hammer object. Boot 2: a bit stuck
# at 1 in every 8 KiB of 16-32 MiB (not above: the firmware and QEMU's
# Multiboot loader use 32-48 MiB before ramsift runs), so that every victim
# row there holds one: the words the hammer test checks fail at both rates, so they are
# plain ERROR lines with test=hammer, folded into the BadRAM lines, and
# none counts as vulnerable only at the maximum rate. Boot 3,
# test_fault=hammer-weak: a victim word that flips at the maximum rate only
# is one hammer: vulnerable line and hammer_only=1, and the run still PASSes.
. "$(dirname "$0")/lib.sh"
E2E_ACCEL=tcg,thread=multi
args="console=ttyS0,115200 $E2E_ARGS tests=hammer hammer=2"

e2e_boot -m 64M -smp 2 -kernel "$ELF" -append "$args"
e2e_expect '^ramsift: result=PASS ' 'result line'
e2e_expect '^cpus: 2 found in the MADT, 2 started' 'two CPUs'
e2e_expect '^test hammer: start pass=1 ' 'the test starts'
line=$(grep '^hammer: pass 1: ' "$E2E_LOG") || e2e_fail 'no hammer: line for pass 1'
[ "$(grep -c '^hammer: pass ' "$E2E_LOG")" -eq 1 ] || e2e_fail 'want one hammer: line a pass'
re='^hammer: pass 1: double-sided: ([0-9]+) rows in [0-9]+ sites at ([0-9]+) activations per aggressor per 64 ms window; 8-sided with 2 decoys: ([0-9]+) rows in [0-9]+ sites at ([0-9]+) activations per aggressor per 64 ms window; 0 errors, 0 words vulnerable only at the maximum rate; no DRAM mapping: aggressors guessed 256 KiB apart'
[[ $line =~ $re ]] || e2e_fail "the hammer: line: $line"
[ "${BASH_REMATCH[1]}" -gt 0 ] && [ "${BASH_REMATCH[2]}" -gt 0 ] && [ "${BASH_REMATCH[3]}" -gt 0 ] &&
	[ "${BASH_REMATCH[4]}" -gt 0 ] || e2e_fail "no rows or no rate in: $line"
e2e_expect '"hammer":\{"rate":[1-9][0-9]*,"rows":[1-9][0-9]*\},"hammer_only":0' 'the JSON hammer object'
e2e_expect_no '^ERROR ' 'no errors on healthy memory'

faults=()
for ((a = 0x1000000; a < 0x2000000; a += 0x2000)); do
	faults+=("$(printf '0x%x:0:1' $((a + 0x100)))")
done
e2e_hold 64M "${faults[@]}"
e2e_boot "${E2E_HELD[@]}" -smp 2 -kernel "$ELF" -append "$args"
e2e_release
e2e_expect '^ramsift: result=FAIL ' 'result line with the stuck bits'
e2e_expect '^ERROR addr=0x0000000001[0-9a-f]{2}[02468ace]100 expected=0x0000000000000000 actual=0x0000000000000001 test=hammer pass=1 cpu=[01]$' \
	'ERROR lines of the held bits, test=hammer'
bad=$(sed -nE 's/^ERROR addr=(0x[0-9a-f]+) .*/\1/p' "$E2E_LOG" | while read -r a; do
	[ $(((a - 0x100) % 0x2000)) -eq 0 ] && [ $((a)) -ge $((0x1000000)) ] && [ $((a)) -lt $((0x2000000)) ] || echo "$a"
done)
[ -z "$bad" ] || e2e_fail "ERROR lines for words no bit was held in: $bad"
e2e_expect '^badram=0x' 'the failures folded'
e2e_expect '^hammer: pass 1: .*; [1-9][0-9]* errors, 0 words vulnerable only at the maximum rate' \
	'the hammer: line counts the errors'
e2e_expect_no '^hammer: vulnerable ' 'stuck bits are no row hammer'

e2e_boot -m 64M -smp 2 -kernel "$ELF" -append "$args test_fault=hammer-weak"
e2e_expect '^ramsift: result=PASS ' 'a word vulnerable to row hammer is no error'
[ "$(grep -c '^hammer: vulnerable ' "$E2E_LOG")" -eq 1 ] || e2e_fail 'want one hammer: vulnerable line'
e2e_expect '^hammer: vulnerable addr=0x[0-9a-f]{16} expected=0x(0{16}|f{16}) actual=0x(0{15}8|f{15}7) pass=1 cpu=[01]: flipped at the maximum rate only$' \
	'the vulnerable word, bit 3 flipped'
e2e_expect '^hammer: pass 1: .*; 0 errors, 1 words vulnerable only at the maximum rate' 'the pass counts it'
e2e_expect '^summary: row hammer: [0-9]+ rows hammered at up to [0-9]+ activations per aggressor per 64 ms window; hammer_only=1$' \
	'the summary counts it apart'
e2e_expect '^summary: row hammer: 1 words flipped at the maximum rate only, not at 200000: vulnerable to row hammer at [0-9]+ activations per window; not counted as errors and not in the BadRAM lines$' \
	'the summary says what it means'
e2e_expect '^summary: row hammer: their pages: 0x[0-9a-f]+000 ' 'its page named'
e2e_expect '"hammer_only":1' 'the JSON counts it'
e2e_expect_no '^(ERROR |badram=)' 'no error, no BadRAM line'
