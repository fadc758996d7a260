#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The JSON checker can fail: build/host/ramsift-jsoncheck accepts
# tests/json/sample-fail.log (fault-stuck's log of a failing run, its ERROR
# lines left out) and rejects each copy with one thing broken: a value in
# the json: line that differs from its text line, a key twice, no json:
# line or one after the result, a BadRAM pair, an offline: page, a DIMM,
# a machine string, the hypervisor, an MCE line, the diagnosis, a
# learned bank function, a hammer: line, hammer_only. A log without ramsift's banner passes unchecked.
# Usage: tests/json/check-smoke.sh path/to/ramsift-jsoncheck
set -u
check=$1
sample=tests/json/sample-fail.log
tmp=${TMPDIR:-/tmp}/json-smoke.$$
trap 'rm -f "$tmp".*' EXIT
fails=0

"$check" "$sample" || { echo "FAIL check-json: the sample log is rejected"; fails=1; }

# broken NAME SED_SCRIPT: the sample edited by SED_SCRIPT must be rejected.
broken() {
	sed -e "$2" "$sample" >"$tmp.log"
	cmp -s "$sample" "$tmp.log" && { echo "FAIL check-json: $1: the edit changed nothing"; fails=1; return; }
	if "$check" "$tmp.log" 2>"$tmp.err"; then
		echo "FAIL check-json: $1: accepted"
		fails=1
	fi
}

broken 'errors differ' '/^json: /s/"errors":38/"errors":37/'
broken 'elapsed_s differs' '/^json: /s/"elapsed_s":\([0-9]*\)\.\([0-9]\)/"elapsed_s":\1.9/'
broken 'seed differs' '/^run: /s/seed=0x[0-9a-f]*/seed=0x1/'
broken 'a key twice' '/^json: /s/"ramsift_json":1,/"ramsift_json":1,"result":"FAIL",/'
broken 'not JSON' '/^json: /s/}$//'
broken 'no json: line' '/^json: /d'
broken 'json: after the result' '/^json: /{h;d};/^ramsift: result=/G'
broken 'a pair' '/^badram=/s/0x7000000,/0x7000001,/'
broken 'the memmap= line' '/^memmap=/s/4K/8K/'
broken 'the fold: numbers' '/^json: /s/"sacrificed_pages":0/"sacrificed_pages":1/'
broken 'an offline: page' '/^offline: /s/0x7000000/0x7001000/'
broken 'a windows: page' '/^windows: bcdedit \/set {badmemory} badmemorylist/s/0x7000/0x7001/'
broken 'the page count' 's/^summary: 2 distinct/summary: 3 distinct/'
broken 'a machine string' '/^machine: /s/"QEMU"/"QEMO"/'
broken 'a DIMM size' '/^dimm: /s/size_mib=128/size_mib=64/'
broken 'the firmware' '/^cpus: /i firmware: UEFI (the loader passed the EFI system table)'
broken 'the loader' '/^loader: /s/qemu,/grub,/'
broken 'the hypervisor' '/^machine: running under/s/(QEMU TCG)/(KVM)/'
broken 'no hypervisor line' '/^machine: running under/d'
broken 'an MCE line not counted' '/^summary: 38 errors/i MCE cpu=0 bank=1 status=0x8c0000000000009f addr=0x0000000005a5a5c0 misc=0x0000000000000086 corrected'
broken 'an uncorrected MCE line not counted' '/^summary: 38 errors/i MCE cpu=0 bank=1 status=0xac0000000000009f addr=0x0000000005a5a5c0 misc=0x0000000000000086 uncorrected'
broken 'the diagnosis' 's/^diagnosis: 2 cells in 2 rows/diagnosis: 2 cells in 1 row/'
broken 'no diagnosis line' '/^diagnosis: /d'
broken 'a bank function not in the JSON' '/^dram: /a dram: bank function 0x2040'
broken 'a hammer: line the JSON does not hold' '/^summary: 38 errors/i hammer: pass 1: double-sided: 9 rows in 9 sites at 640000 activations per aggressor per 64 ms window; 8-sided with 2 decoys: 42 rows in 6 sites at 80000 activations per aggressor per 64 ms window; 0 errors, 0 words vulnerable only at the maximum rate'
broken 'hammer_only differs' '/^summary: 38 errors/a summary: row hammer: 51 rows hammered at up to 640000 activations per aggressor per 64 ms window; hammer_only=2'
broken 'the fold mode' 's/^summary: the pairs are folded for GRUB on BIOS and UEFI/summary: the pairs are folded for GRUB on UEFI (x)/'

# Not a ramsift run (a Linux boot of the round trips): nothing to check.
grep -v '^ramsift [0-9v]' "$sample" | sed '/^json: /d' >"$tmp.log"
"$check" "$tmp.log" || { echo "FAIL check-json: a log without the banner was checked"; fails=1; }

[ $fails = 0 ] && echo "  SMOKE   ramsift-jsoncheck: the sample passes, $(grep -c "^broken '" "$0") broken copies fail"
exit $fails
