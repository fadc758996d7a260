#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A QEMU that cannot start must not pass for ramsift's PASS: QEMU exits with
# status 1 on its own start-up errors, as it does when ramsift writes PASS to
# isa-debug-exit. `make run` with a bad memory size (MEM=64X) and a boot of
# a kernel that does not exist must both fail, dev/qemu-run.sh with
# status 3, saying that no result line came and why.
. "$(dirname "$0")/lib.sh"

nostart="qemu-run.sh: QEMU exited with status 1 (ramsift's PASS), but COM1 carried no 'ramsift: result=' line: QEMU did not start the guest"
out=$E2E_DIR/$E2E_NAME.stderr

status=0
make --no-print-directory run B="$B" MEM=64X ARGS=bitfade=0 </dev/null >"$out" 2>&1 || status=$?
cp "$out" "$E2E_LOG"
[ "$status" -ne 0 ] || e2e_fail "make run MEM=64X: want a non-zero exit status, got 0"
grep -qF "$nostart" "$out" || e2e_fail "make run MEM=64X: no message '$nostart'"
grep -qF -- "-m 64X: " "$out" || e2e_fail "make run MEM=64X: QEMU's own message is not shown"
grep -q 'run\] Error 3$' "$out" || e2e_fail "make run MEM=64X: want qemu-run.sh's status 3 (make: Error 3)"

e2e_boot -m 64M -kernel /nonexistent.elf -append "console=ttyS0,115200 $E2E_ARGS"
[ "$E2E_RESULT" -eq 3 ] ||
	e2e_fail "-kernel /nonexistent.elf: want QEMU failed, got ${E2E_RESULTS[$E2E_RESULT]}"
grep -qF "$nostart" "$out" || e2e_fail "-kernel /nonexistent.elf: no message '$nostart'"
