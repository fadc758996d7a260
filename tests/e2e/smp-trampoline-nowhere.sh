#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# No fault-free place left for the AP start-up code: the run goes on with
# the BSP alone. At -smp 2 with 64 MiB, build/host/ramsift-inject holds bit 1
# of the word at offset 0x800 of every page below 0x9f000 (the usable RAM
# below 640 KiB) stuck at 1: past the start-up code's 0x128 bytes in its
# first page, and in a PML4 entry no one uses in its second (not present,
# so the bit means nothing). Three passes of march-c: pass 1 finds every one
# of those pages failing (after its move, when it tests the start-up code's
# pages); at pass 2's move no 8 KiB below 640 KiB is free of failing pages,
# which ramsift says, and from then on the BSP tests alone: every ERROR line
# after that warning says cpu=0, pass 3 included. FAIL.
. "$(dirname "$0")/lib.sh"

E2E_ACCEL=tcg,thread=multi
faults=()
for ((page = 0; page < 0x9f; page++)); do
	faults+=("$(printf '0x%x:1:1' $((page * 4096 + 0x800)))")
done
e2e_hold 64M "${faults[@]}"

e2e_boot -smp 2 "${E2E_HELD[@]}" -kernel "$ELF" \
	-append "console=ttyS0,115200 $E2E_ARGS tests=march-c passes=3 errors=100000"

e2e_expect '^  usable 0x0000000000000000-0x000000000009efff 636 KiB$' \
	'the low usable RAM the faults cover (if not, change the pages)'
e2e_expect '^cpus: 2 found in the MADT, 2 started \(APIC IDs 0 1\)$' 'both CPUs started'
want=$(printf '%s\n' "${faults[@]}" | sed -E 's/^0x([0-9a-f]+):.*/\1/' |
	while read -r a; do printf '0x%016x\n' $((0x$a)); done | sort | tr '\n' ' ')
addrs=$(sed -nE 's/^ERROR addr=(0x[0-9a-f]{16}) .*/\1/p' "$E2E_LOG" | sort -u | tr '\n' ' ')
[ "$addrs" = "$want" ] || e2e_fail "ERROR addresses: want exactly the 159 held words, got: $addrs"
e2e_expect '^warning: cpus: no fault-free memory below 640 KiB for the AP start-up code; the BSP tests alone from now on$' \
	'the BSP alone, said'
[ "$(grep -c '^warning: ' "$E2E_LOG")" -eq 1 ] || e2e_fail 'want that warning only'
read -r bsp others < <(awk '/^warning: cpus: no fault-free memory/ { on = 1 }
	on && /^ERROR / { if ($NF == "cpu=0") b++; else o++ } END { print b + 0, o + 0 }' "$E2E_LOG")
[ "$others" -eq 0 ] && [ "$bsp" -gt 0 ] ||
	e2e_fail "after the warning want ERROR lines from cpu=0 only, got $bsp from it and $others from others"
e2e_expect '^ERROR .* pass=3 cpu=0$' 'pass 3 by the BSP'
e2e_expect '^ERROR .* pass=2 cpu=1$' 'pass 2 before the move: CPU 1 (the shares rotated)'
e2e_expect '^ramsift: result=FAIL passes=3 ' 'result line'
[ "$E2E_RESULT" -eq 1 ] || e2e_fail "isa-debug-exit result: want FAIL, got ${E2E_RESULTS[$E2E_RESULT]}"
