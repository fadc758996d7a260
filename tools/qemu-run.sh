#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Boot ramsift in QEMU (TCG, no reboot, the isa-debug-exit device at port 0xf4)
# and turn QEMU's exit status back into ramsift's result. The image must run
# with onexit=qemu: it writes 0 (PASS), 1 (FAIL) or 2 (ABORTED) to the port and
# QEMU exits with (value << 1) | 1. Exit status: 0 PASS, 1 FAIL, 2 ABORTED,
# 3 when QEMU itself failed or was stopped, 4 when it was killed at the time
# limit (both said on stderr).
# QEMU also exits with 1 on its own start-up errors (after a message), so a
# caller that must be sure of a PASS checks the result line too (tests/e2e do).
# usage: qemu-run.sh [-t SECONDS] QEMU_ARGS...   (-t: time limit, then kill)
set -uo pipefail

limit=()
if [ "${1-}" = -t ]; then
	limit=(timeout --foreground -k 10 "$2")
	shift 2
fi

"${limit[@]}" qemu-system-x86_64 -accel tcg -no-reboot \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 "$@"
status=$?
case $status in
1) exit 0 ;;
3) exit 1 ;;
5) exit 2 ;;
124)
	echo "qemu-run.sh: QEMU killed at the time limit of ${limit[-1]} s" >&2
	exit 4
	;;
esac
echo "qemu-run.sh: QEMU failed or was stopped (exit status $status)," \
	"without a ramsift result" >&2
exit 3
