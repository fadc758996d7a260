#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The DRAM geometry learning and the diagnosis under TCG, whose timing is not
# the DRAM's. Boot 1: four stuck bits in one aligned MiB, the default
# dram=on: ramsift says it has no DRAM timing under the hypervisor, finds
# the four words, lists each as a cell: line (row and column from the
# address bits) and diagnoses them as one row, safe to exclude, in the
# diagnosis: line and the JSON. Boot 2: dram=force runs the learning in
# the image to its end (under TCG what it times is the emulator's TLB, so
# either outcome is right; its lines and the JSON must agree). Boot 3:
# dram=off says so.
. "$(dirname "$0")/lib.sh"

e2e_hold 64M 0x3a00040:3:1 0x3a12348:17:0 0x3a4a010:40:1 0x3a8f7f8:63:0
e2e_boot "${E2E_HELD[@]}" -kernel "$ELF" -append "console=ttyS0,115200 $E2E_ARGS tests=march-c"
e2e_release
e2e_expect '^ramsift: result=FAIL ' 'result line'
e2e_expect '^dram: no DRAM timing under a hypervisor \(QEMU TCG\): its timing is not the DRAM.s; ' \
	'the phase skipped under TCG'
e2e_expect_no '^dram: (learning|bank function)' 'no learning under a hypervisor by default'
addrs=$(sed -nE 's/^ERROR addr=(0x[0-9a-f]{16}) .*/\1/p' "$E2E_LOG" | sort -u | tr '\n' ' ')
[ "$addrs" = "0x0000000003a00040 0x0000000003a12348 0x0000000003a4a010 0x0000000003a8f7f8 " ] ||
	e2e_fail "ERROR addresses: want the four held words, got: $addrs"
want='diagnosis: a row (in the MiB at 0x3a00000, 4 cells): safe to exclude (DRAM mapping unknown: from address bits)'
[ "$(grep -c '^diagnosis: ' "$E2E_LOG")" -eq 1 ] && grep -qxF "$want" "$E2E_LOG" ||
	e2e_fail "want exactly one line: $want"
cells=$(sed -nE 's/^cell: addr=(0x[0-9a-f]+) row=(0x[0-9a-f]+) column=(0x[0-9a-f]+) \(no DRAM mapping: .*/\1 \2 \3/p' "$E2E_LOG" | tr '\n' ' ')
[ "$cells" = "0x0000000003a00040 0x3a 0x40 0x0000000003a12348 0x3a 0x348 0x0000000003a4a010 0x3a 0x10 0x0000000003a8f7f8 0x3a 0x1778 " ] ||
	e2e_fail "cell: lines: want the four words in the MiB 0x3a with their column bits, got: $cells"
e2e_expect '"dram":\{"status":"hypervisor","functions":\[\],"row_bits":null\}' 'the JSON dram object'
e2e_expect '"diagnosis":\{"shape":"row","mapped":false,"replace":false,"cells":4,"rows":1,' \
	'the JSON diagnosis'

e2e_boot -m 64M -kernel "$ELF" -append "console=ttyS0,115200 $E2E_ARGS tests=address-walk dram=force"
e2e_expect '^ramsift: result=PASS ' 'result line (dram=force)'
e2e_expect '^dram: learning the DRAM.s bank mapping from access timing \([0-9]+ s at most; s skips it\); under a hypervisor' \
	'the learning starts when forced'
e2e_expect '^dram: (learned in [0-9.]+ s \([0-9]+ measurements\)|no mapping learned: )' 'the learning ends'
e2e_expect_no '^diagnosis: ' 'no diagnosis without failures'
e2e_expect '"diagnosis":null' 'the JSON diagnosis of a PASS'

e2e_boot -m 64M -kernel "$ELF" -append "console=ttyS0,115200 $E2E_ARGS tests=address-walk dram=off"
e2e_expect '^dram: off \(dram=off\); failures are diagnosed from address bits$' 'dram=off'
e2e_expect '"dram":\{"status":"off",' 'the JSON dram status'
