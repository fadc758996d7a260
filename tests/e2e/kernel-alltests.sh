#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every test of the table (tests=all), bit-fade with a 1 s wait, over 64 MiB:
# each must start and end, over RAM and over the memory ramsift moved out of,
# in table order, and the pass must pass (no test reports a false error).
. "$(dirname "$0")/lib.sh"

e2e_boot -m 64M -kernel "$ELF" -append "console=ttyS0,115200 $E2E_ARGS tests=all bitfade=1"
e2e_expect_pass
names="address-walk own-address march-c mi-ones mi-8bit mi-random mi-walk64 random modulo-20 block-move bit-fade"
want=$(for n in $names; do echo "$n"; done; for n in $names; do echo "$n own-memory"; done)
got=$(sed -nE 's/^test ([a-z0-9-]+): end pass=1 errors=0 time_s=[0-9.]+ MiB_s=[0-9]+( own-memory)? t=.*/\1\2/p' "$E2E_LOG")
[ "$got" = "$want" ] || e2e_fail "test end lines: want, in order: $(echo $want), got: $(echo $got)"
e2e_expect '^test bit-fade: waiting 1 s for bits to fade, pass=1$' 'bit-fade waited'
