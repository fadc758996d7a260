#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every test of the table (tests=all), bit-fade with a 1 s wait and 1 s of
# row hammering, over 64 MiB:
# each must start and end in the pass's order (lib/run/schedule.h): the other
# tests over ramsift's two homes and the AP start-up code, bit-fade's first
# window over all but ramsift's place, the other tests over that place after
# the first move, bit-fade's second window, then its third with the other
# tests over the free RAM inside it; and the pass must pass (no test reports
# a false error).
. "$(dirname "$0")/lib.sh"

e2e_boot -m 64M -kernel "$ELF" -append "console=ttyS0,115200 $E2E_ARGS tests=all bitfade=1 hammer=1"
e2e_expect_pass
names="address-walk own-address march-c mi-ones mi-8bit mi-random mi-walk64 random modulo-20 block-move hammer"
sweep() { for n in $names; do echo "$n$1"; done; }
fade='bit-fade own-memory'
want=$(sweep ' own-memory'; echo bit-fade; echo bit-fade; sweep ' own-memory'
	printf '%s\n' "$fade" bit-fade "$fade" bit-fade "$fade"; sweep ''; echo "$fade")
got=$(sed -nE 's/^test ([a-z0-9-]+): end pass=1 errors=0 time_s=[0-9.]+ MiB_s=[0-9]+( own-memory)? t=.*/\1\2/p' "$E2E_LOG")
[ "$got" = "$want" ] || e2e_fail "test end lines: want, in order: $(echo $want), got: $(echo $got)"
e2e_expect '^test bit-fade: waiting 1 s for bits to fade, pass=1$' 'bit-fade waited'
