#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Two stuck-at faults held in QEMU's RAM through the shared backing file by
# build/host/ramsift-inject: bit 5 of the word at 0x5a5a5a8 stuck at 1, bit 63
# of the word at 0x7000010 stuck at 0. March C- must report exactly those two
# words (no miss, no false error), each with the right bit flipped, and the
# run must end FAIL with QEMU exit status 3. Two passes: after the first the
# lines so far are printed with a "pass 1: " prefix, and the summary holds
# exactly one of each pasteable line, excluding just the two failing pages.
. "$(dirname "$0")/lib.sh"

e2e_hold 128M 0x5a5a5a8:5:1 0x7000010:63:0

e2e_boot "${E2E_HELD[@]}" -kernel "$ELF" \
	-append "console=ttyS0,115200 $E2E_ARGS tests=march-c passes=2"

e2e_expect '^ramsift: result=FAIL ' 'result line'
[ "$E2E_RESULT" -eq 1 ] || e2e_fail "isa-debug-exit result: want FAIL, got ${E2E_RESULTS[$E2E_RESULT]}"
addrs=$(sed -nE 's/^ERROR addr=(0x[0-9a-f]{16}) .*/\1/p' "$E2E_LOG" | sort -u | tr '\n' ' ')
[ "$addrs" = "0x0000000005a5a5a8 0x0000000007000010 " ] ||
	e2e_fail "ERROR addresses: want exactly 0x0000000005a5a5a8 0x0000000007000010, got: $addrs"
# Every report of a word shows exactly the stuck bit differing, the right way.
while read -r addr exp act; do
	diff=$((exp ^ act))
	case $addr in
	0x0000000005a5a5a8) want=$((1 << 5)); [ $((act & want)) -ne 0 ] || e2e_fail "$addr: bit 5 not stuck at 1" ;;
	0x0000000007000010) want=$((1 << 63)); [ $((act & want)) -eq 0 ] || e2e_fail "$addr: bit 63 not stuck at 0" ;;
	esac
	[ "$diff" -eq "$want" ] || e2e_fail "$addr: expected $exp actual $act differ in more than the stuck bit"
done < <(sed -nE 's/^ERROR addr=(0x[0-9a-f]+) expected=(0x[0-9a-f]+) actual=(0x[0-9a-f]+) .*/\1 \2 \3/p' "$E2E_LOG")
e2e_expect '^ERROR addr=0x[0-9a-f]{16} expected=0x[0-9a-f]{16} actual=0x[0-9a-f]{16} test=march-c pass=1 cpu=0$' 'ERROR line format'

for key in 'badram=' 'GRUB_BADRAM="' 'memmap=' 'fold: '; do
	n=$(grep -c "^$key" "$E2E_LOG") || true
	[ "$n" -eq 1 ] || e2e_fail "want exactly one line starting $key, got $n"
done
e2e_expect '^pass 1: badram=0x' 'the lines after pass 1'
pairs=$(sed -n 's/^badram=//p' "$E2E_LOG")
[ "$(sed -n 's/^GRUB_BADRAM="\(.*\)"$/\1/p' "$E2E_LOG")" = "$pairs" ] ||
	e2e_fail "GRUB_BADRAM= does not hold the same pairs as badram=$pairs"
sorted=$(echo "$pairs" | tr ',' '\n' | paste - - | sort | tr '\t\n' ', ')
[ "$sorted" = "0x5a5a000,0x7ffffffffffff000 0x7000000,0x7ffffffffffff000 " ] ||
	e2e_fail "badram=: want exactly the pages 0x5a5a000 and 0x7000000, got $pairs"
e2e_expect '^memmap=4K\$0x5a5a000,4K\$0x7000000$' 'memmap= reserving the two pages'
e2e_expect '^fold: failing_pages=2 pairs=2 holes=2 excluded_pages=2 sacrificed_pages=0 ' 'fold summary: exact'
e2e_expect '^summary: the pairs are folded for GRUB on BIOS and UEFI$' 'folded for GRUB on BIOS'
# The other sinks, once, after the final fold only: Windows' {badmemory}
# list (page frame numbers) and a running Linux's hard_offline_page.
e2e_expect '^windows: bcdedit /set \{badmemory\} badmemorylist 0x5a5a 0x7000$' 'the Windows page list'
e2e_expect '^windows: bcdedit /set \{badmemory\} badmemoryaccess no$' 'the Windows access setting'
[ "$(grep -c '^offline: ' "$E2E_LOG")" -eq 2 ] &&
	grep -qx 'offline: echo 0x5a5a000 > /sys/devices/system/memory/hard_offline_page' "$E2E_LOG" &&
	grep -qx 'offline: echo 0x7000000 > /sys/devices/system/memory/hard_offline_page' "$E2E_LOG" ||
	e2e_fail 'want exactly the two offline: lines of the failing pages'
e2e_expect_no '^pass 1: (windows|offline): ' 'the sinks only at the end'
