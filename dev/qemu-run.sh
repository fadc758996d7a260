#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Boot ramsift in QEMU (TCG, no reboot, the isa-debug-exit device at port 0xf4)
# and turn QEMU's exit status and the result line back into ramsift's result.
# The image must run with onexit=qemu and its console on COM1: it prints
# `ramsift: result=PASS|FAIL|ABORTED|STOPPED ...` there, then writes 0, 1, 2 or
# 3 to the port, and QEMU exits with (value << 1) | 1. QEMU also exits with 1
# on its own start-up errors, so a result counts only when COM1 carried the
# line that agrees with the status. Exit status: 0 PASS, 1 FAIL, 2 ABORTED,
# 3 when QEMU failed, was stopped, or gave no (or another) result line, 4 when
# it was killed at the time limit (3 and 4 say why on stderr), 5 STOPPED (a
# key stopped a run that had found nothing).
# usage: qemu-run.sh [-t SECONDS] [-l LOG [-i FIFO]] [-a ACCEL] [-q QEMU] QEMU_ARGS...
#   -t  time limit, then kill
#   -i  with -l: COM1 also takes input from FIFO (made if missing): what a
#       test writes there is typed on the serial console. COM1 is then a
#       unix socket that this script's socat reads into LOG and feeds from
#       FIFO; the guest starts once it has connected. Not QEMU's logfile=:
#       a write the socket refuses for a moment (EAGAIN, under load) is
#       logged, then logged again when the UART sends it again (seen:
#       "runninng", "virtuaal")
#   -a  QEMU's accelerator (default tcg: one host thread runs every guest
#       CPU in turn); tcg,thread=multi gives each guest CPU a host thread
#   -q  the QEMU program (default qemu-system-x86_64; dev/trixie-qemu.sh
#       runs Debian 13's)
#   -l  headless: COM1 to the file LOG only, no display, no monitor (the
#       tests). Without -l, COM1 and QEMU's monitor share the terminal, as
#       with -nographic (Ctrl-A x quits), and COM1 is also logged to a
#       temporary file for the result line.
# QEMU_ARGS must not set -serial, -monitor or -display.
set -uo pipefail

# Not getopts: QEMU's own options follow and start with '-' too.
limit=() log= socket= accel=tcg qemu=qemu-system-x86_64
while [ $# -ge 2 ]; do
	case $1 in
	-t) limit=(timeout --foreground -k 10 "$2") ;;
	-l) log=$2 ;;
	-i) socket=$2 ;;
	-a) accel=$2 ;;
	-q) qemu=$2 ;;
	*) break ;;
	esac
	shift 2
done

if [ -n "$log" ]; then
	: >"$log" # there even if QEMU never starts
	console=(-display none -monitor none -serial "file:$log")
	[ -z "$socket" ] || console=(-display none -monitor none -chardev
		"socket,id=com1,path=$log.sock,server=on,wait=on" -serial chardev:com1)
else
	log=$(mktemp "${TMPDIR:-/tmp}/qemu-run.XXXXXX") || exit 3
	trap 'rm -f "$log"' EXIT
	console=(-display none -chardev "stdio,id=com1,mux=on,signal=on,logfile=$log"
		-serial chardev:com1 -mon chardev=com1)
fi

# -i: the client of COM1's socket. The FIFO is opened read-write, so that
# socat never sees its end; socat ends when QEMU closes the socket.
client=
if [ -n "$socket" ]; then
	rm -f "$log.sock"
	[ -p "$socket" ] || mkfifo "$socket" || exit 3
	(
		exec 3<>"$socket"
		for _ in $(seq 600); do
			[ -S "$log.sock" ] && exec socat -t 1 - "UNIX-CONNECT:$log.sock" <&3 >>"$log"
			sleep 0.1
		done
	) &
	client=$!
fi

"${limit[@]}" "$qemu" -accel "$accel" -no-reboot \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 "${console[@]}" "$@"
status=$?
if [ -n "$client" ]; then
	# What QEMU sent before it ended reaches LOG (5 s at most).
	for _ in $(seq 50); do
		kill -0 "$client" 2>/dev/null || break
		sleep 0.1
	done
	kill "$client" 2>/dev/null
	wait "$client" 2>/dev/null
	rm -f "$log.sock"
fi
if [ "$status" = 124 ] && [ ${#limit[@]} -gt 0 ]; then
	echo "qemu-run.sh: QEMU killed at the time limit of ${limit[-1]} s" >&2
	exit 4
fi

# The last result line's word (GRUB and firmware draw on COM1: -a, CRs).
result=$(grep -a '^ramsift: result=' "$log" | tail -n 1 | sed 's/^ramsift: result=\([A-Z]*\).*/\1/')
case $status:$result in
1:PASS) exit 0 ;;
3:FAIL) exit 1 ;;
5:ABORTED) exit 2 ;;
7:STOPPED) exit 5 ;;
1: | 3: | 5: | 7:)
	names=([1]=PASS [3]=FAIL [5]=ABORTED [7]=STOPPED)
	echo "qemu-run.sh: QEMU exited with status $status (ramsift's ${names[$status]})," \
		"but COM1 carried no 'ramsift: result=' line: QEMU did not start the guest" \
		"(see its message above), or the guest's console is not COM1 (console=ttyS0)" >&2
	;;
*:?*)
	echo "qemu-run.sh: QEMU exited with status $status after the line" \
		"'ramsift: result=$result': ramsift did not end the VM with that result through" \
		"isa-debug-exit (is onexit=qemu on its command line?)" >&2
	;;
*)
	echo "qemu-run.sh: QEMU failed or was stopped (exit status $status)," \
		"without a ramsift result line on COM1 (see QEMU's message above)" >&2
	;;
esac
exit 3
