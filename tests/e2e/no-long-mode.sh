#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# CPUs ramsift cannot run on: the 32-bit entry must name each feature it
# needs and the CPU lacks, say it is no memory fault, and halt with no result
# line (the run ends by the time limit). qemu32 has no long mode; pentium no
# PAE, SSE2 or long mode; qemu64 without SSE2 once ran into a #UD in the
# first test, reported as ramsift stopping there.
. "$(dirname "$0")/lib.sh"

E2E_TIMEOUT=10
# cpu MODEL MISSING...: MODEL lacks exactly the features named (as the
# messages name them), in the order the entry checks them.
cpu() {
	local model=$1 want got
	shift
	e2e_boot -cpu "$model" -m 64M -kernel "$ELF" -append "console=ttyS0,115200 $E2E_ARGS"
	want=$(printf '%s\n' "$@")
	got=$(sed -n 's/^ramsift: this CPU has no \([^ ,(.]*\).*/\1/p' "$E2E_LOG")
	[ "$got" = "$want" ] || e2e_fail "-cpu $model: want the missing features $*, the log names: $got"
	e2e_expect '^ramsift needs an x86-64 CPU with these; this is not a memory fault. Halted.$' \
		"-cpu $model: what ramsift needs"
	e2e_expect_halted
}
cpu qemu32 64-bit
cpu pentium PAE SSE2 64-bit
cpu qemu64,-sse2 SSE2
e2e_expect_no '^error: CPU exception' 'no exception'
