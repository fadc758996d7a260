#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Seeded DRAM-shaped fault sets held in a 256 MiB guest
# (QEMU -kernel) are found exactly: the set of ERROR addresses is the set of
# faulty words (no miss, no false error), the badram= pairs match every one
# and exclude and cut exactly what the fold: line says, within 20 pairs and
# 48 holes, and the memmap= ranges hold every faulty page. Cells and a row
# have an exact cover (no good page lost); a bank column does not within 48
# holes. Flaky cells (each write undone half the time) are still all found
# over two passes and counted once per page.
# Faults stay out of ramsift's image (2-8 MiB: edge-faults.sh covers it) and
# out of the first 16 and the top 32 MiB, which the firmware and GRUB use
# before ramsift runs (a stuck bit there stops the boot).
. "$(dirname "$0")/lib-faults.sh"

ram=0x1000000-0xe000000
rt_ram 256M

# found NAME TESTS CHECK_ARGS FAULTGEN_ARGS...: one boot with the set held.
found() {
	local name=$1 tests=$2 check=$3
	shift 3
	rt_faults "$name" --ram "$ram" "$@"
	rt_hold
	rt_boot "$name" "${RT_MEM[@]}" -kernel "$ELF" -append "$RT_ARGS tests=$tests"
	rt_want FAIL
	rt_check found "$RT_FAULTS" "$RT_LOG" $check
}

found cells march-c --exact --seed 1 cells:8
found row own-address --exact --seed 2 row
found column own-address '' --seed 3 column
e2e_expect '^fold: .*: limited by holes=48 \(an exact cover needs [0-9]+ holes\)' \
	'a bank column cannot be covered exactly within 48 holes'
found mix own-address '' --seed 4 cells:5 row row 'column@0x4000000-0x6000000'

# Flaky: the injector's coin decides each write, so over two passes of
# march-c (about 20 writes a word away from the fault value) every word
# fails several times but is one failing page in the fold.
found flaky 'march-c passes=2' --exact --seed 5 --percent 50 cells:4
errors=$(grep -c '^ERROR ' "$RT_LOG") || true
[ "$errors" -gt 8 ] || e2e_fail "flaky cells: want repeated ERROR lines, got $errors"
e2e_expect '^fold: failing_pages=4 ' 'four flaky cells are four failing pages'
