#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# QEMU -kernel with 5 GiB, so that RAM continues above 4 GiB (QEMU puts the
# part beyond its 32-bit window at 0x100000000): the usable map must reach
# above 4 GiB, the probe of the highest usable address must be up there, and
# one pass must pass.
. "$(dirname "$0")/lib.sh"

four_gib=$((0x100000000))
e2e_boot -m 5G -kernel "$ELF" -append "console=ttyS0,115200 $E2E_ARGS"
e2e_expect_pass
e2e_expect_loader qemu multiboot

top=0
while read -r end; do
	[ $((16#$end)) -le "$top" ] || top=$((16#$end))
done < <(sed -nE 's/^  usable 0x[0-9a-f]+-0x([0-9a-f]+) .*/\1/p' "$E2E_LOG")
[ "$top" -ge "$four_gib" ] ||
	e2e_fail "memory map: want a usable range above 4 GiB, highest end is $(printf '0x%x' "$top")"

probe=$(sed -nE 's/^memory: probe ok at 0x([0-9a-f]+)$/\1/p' "$E2E_LOG" | head -n 1)
[ -n "$probe" ] || e2e_fail "no line 'memory: probe ok at 0x...'"
[ $((16#$probe)) -ge "$four_gib" ] ||
	e2e_fail "probe address: want >= 0x100000000, got 0x$probe"

# march-c over 5 GiB takes well over 10 s: progress lines must appear, and
# in order (docs/output-contract.md: at most every 10 s while a test runs).
e2e_expect '^test march-c: [0-9]{1,3}% done, pass=1 t=[0-9]+$' 'progress line while march-c runs'
pcts=$(sed -nE 's/^test march-c: ([0-9]+)% done, .*/\1/p' "$E2E_LOG" | tr '\n' ' ')
[ "$(echo $pcts | tr ' ' '\n' | sort -n | tr '\n' ' ')" = "$(echo $pcts | tr ' ' '\n' | tr '\n' ' ')" ] ||
	e2e_fail "progress percentages out of order: $pcts"
