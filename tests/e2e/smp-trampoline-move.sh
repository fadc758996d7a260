#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The AP start-up code leaves a failing page. At -smp 2 with 64 MiB, QEMU's
# SeaBIOS map puts the start-up code at 0x9d000-0x9efff (checked first: the
# "occupies" line). build/host/ramsift-inject holds bit 0 of the word at
# 0x9dff8 stuck at 1: in the code's first page, past the code itself, so the
# APs still start. Two passes of march-c: pass 1 tests the start-up code's
# pages after the move and finds that word; at pass 2's move ramsift puts the
# start-up code elsewhere below 640 KiB, says where, and starts the AP from
# there: the new pages hold no failing page, the AP starts again (no
# warning), tests its share of pass 2, and the old pages are tested again
# and fail again. The ERROR lines name exactly that word, and the fold
# excludes its page; the result is FAIL.
. "$(dirname "$0")/lib.sh"

E2E_ACCEL=tcg,thread=multi
e2e_hold 64M 0x9dff8:0:1

e2e_boot -smp 2 "${E2E_HELD[@]}" -kernel "$ELF" \
	-append "console=ttyS0,115200 $E2E_ARGS tests=march-c passes=2"

e2e_expect '^  ramsift occupies 0x000000000009d000-0x000000000009efff 8 KiB: AP start-up code$' \
	'the start-up code where the fault is held (if not, move the fault)'
e2e_expect '^cpus: 2 found in the MADT, 2 started \(APIC IDs 0 1\)$' 'both CPUs started'
addrs=$(sed -nE 's/^ERROR addr=(0x[0-9a-f]{16}) .*/\1/p' "$E2E_LOG" | sort -u | tr '\n' ' ')
[ "$addrs" = "0x000000000009dff8 " ] || e2e_fail "ERROR addresses: want exactly 0x000000000009dff8, got: $addrs"
e2e_expect '^ERROR addr=0x000000000009dff8 .* test=march-c pass=1 ' 'found in pass 1'
e2e_expect '^ERROR addr=0x000000000009dff8 .* test=march-c pass=2 ' 'the old pages tested again in pass 2'
line=$(grep '^cpus: the AP start-up code moves ' "$E2E_LOG") || e2e_fail 'no line saying the start-up code moved'
[[ $line =~ ^cpus:\ the\ AP\ start-up\ code\ moves\ from\ 0x9d000-0x9efff\ to\ 0x([0-9a-f]+)-0x([0-9a-f]+),\ away\ from\ a\ failing\ page$ ]] ||
	e2e_fail "the move line: got: $line"
start=$((0x${BASH_REMATCH[1]})) end=$((0x${BASH_REMATCH[2]}))
[ $((end - start + 1)) -eq 8192 ] && [ $((start % 4096)) -eq 0 ] && [ "$end" -lt $((0xa0000)) ] &&
	{ [ "$end" -lt $((0x9d000)) ] || [ "$start" -gt $((0x9dfff)) ]; } ||
	e2e_fail "the new place must be 8 KiB below 640 KiB, page aligned, apart from page 0x9d000: $line"
[ "$(grep -c '^cpus: the AP start-up code moves ' "$E2E_LOG")" -eq 1 ] || e2e_fail 'want one move of the start-up code'
e2e_expect_no '^warning: ' 'the AP starts again from the new place'
[ "$(grep -c '^test march-c: start pass=2 ' "$E2E_LOG")" -eq 2 ] || e2e_fail 'want pass 2 over the free RAM and own memory'
e2e_expect '^badram=0x9d000,0x7ffffffffffff000$' 'the fold excludes exactly the failing page'
e2e_expect '^ramsift: result=FAIL passes=2 ' 'result line'
[ "$E2E_RESULT" -eq 1 ] || e2e_fail "isa-debug-exit result: want FAIL, got ${E2E_RESULTS[$E2E_RESULT]}"
