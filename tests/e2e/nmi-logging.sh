#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# An NMI that arrives while ramsift is printing ERROR lines as fast as it can
# (the CPU is most likely inside the console lock, half-way through a line)
# must still be reported: the log ends with the exception report, the json:
# line and the result line, each a whole line, and QEMU exits ABORTED (how
# long after the NMI goes to the boots file, not judged: the host is shared).
# Before the lock-free panic path (src/console.c) the handler spun forever on
# the console lock its own CPU held. Ten boots in a row, so a report that works
# only when the NMI falls between two lines does not pass by luck.
# Faults: build/host/ramsift-inject holds one stuck bit every 64 KiB from 8 to
# 56 MiB (away from the image at 2 MiB and the page tables at the top), so
# March C- finds several a millisecond; errors= lets it print them all. The
# NMI goes through QEMU's human monitor ("nmi") on a local TCP port as soon as
# the first ERROR line is in the log. build/test/nmi-logging.boots says for
# each boot where the NMI landed and what the line before the report was.
. "$(dirname "$0")/lib.sh"

BOOTS=10
BOOT_LIMIT=90		# seconds before a boot counts as hung: start, first ERROR line, the NMI, the report

faults=$E2E_DIR/$E2E_NAME.faults
raw=$E2E_DIR/$E2E_NAME.serial
sent=$E2E_DIR/$E2E_NAME.nmi-sent
boots=$E2E_DIR/$E2E_NAME.boots	# one line on each boot, for a reader
mon=$(e2e_socket monitor)
cleanup() {
	e2e_release
	[ -z "${nmi-}" ] || kill "$nmi" 2>/dev/null
	rm -f "$sent" "$mon"
}
trap 'status=$?; cleanup; e2e_report "$status"' EXIT

for ((i = 0, a = 0x800000; a < 0x3800000; i++, a += 0x10000)); do
	printf '0x%x:%d:%d\n' $((a + 8 * (i % 512))) $((i % 64)) $((i % 2))
done >"$faults"
e2e_hold 64M --faults "$faults"

# send_nmi: once the first ERROR line is in the serial log, send "nmi" to the
# monitor and note the time (microseconds) in $sent.
send_nmi() {
	for _ in $(seq 1200); do
		grep -q '^ERROR addr=' "$raw" 2>/dev/null && break
		sleep 0.05
	done
	grep -q '^ERROR addr=' "$raw" 2>/dev/null || { echo "no ERROR line to interrupt" >&2; return 1; }
	echo "${EPOCHREALTIME/[.,]/}" >"$sent"
	e2e_monitor "$mon" nmi
}

: >"$boots"
for ((boot = 1; boot <= BOOTS; boot++)); do
	# Odd boots log to the screen too, whose scrolling then takes most of
	# the time; even boots to the serial port alone, so the NMI mostly
	# lands half-way through a serial line.
	consoles="console=ttyS0,115200"
	[ $((boot % 2)) -eq 0 ] || consoles="$consoles console=tty0"
	rm -f "$sent"
	send_nmi &
	nmi=$!
	E2E_TIMEOUT=$BOOT_LIMIT e2e_boot "${E2E_HELD[@]}" -monitor "unix:$mon,server=on,wait=off" \
		-kernel "$ELF" -append "$consoles $E2E_ARGS tests=march-c passes=0 errors=1000000"
	ended=${EPOCHREALTIME/[.,]/}
	wait "$nmi" || e2e_fail "boot $boot: could not send the NMI through the monitor on $mon"
	nmi=
	ms=$(((ended - $(cat "$sent")) / 1000))

	[ "$E2E_RESULT" -eq 2 ] ||
		e2e_fail "boot $boot: isa-debug-exit result: want ABORTED, got ${E2E_RESULTS[$E2E_RESULT]}" \
			"($ms ms after the NMI)"
	e2e_expect '^ERROR addr=0x[0-9a-f]{16} expected=0x[0-9a-f]{16} actual=0x[0-9a-f]{16} test=march-c pass=1 cpu=0$' \
		"boot $boot: ERROR lines before the NMI"
	[ "$(tail -c 1 "$E2E_LOG" | od -An -c | tr -d ' ')" = '\n' ] ||
		e2e_fail "boot $boot: the log does not end with a whole line"
	mapfile -t last < <(tail -n 4 "$E2E_LOG")
	[[ ${last[0]} =~ ^error:\ CPU\ exception\ 2\ \(NMI\)\ error_code=0x0\ rip=0x[0-9a-f]{16}\ cr2=0x[0-9a-f]{16}\ rsp=0x[0-9a-f]{16}\ cpu=0\ test=march-c$ ]] ||
		e2e_fail "boot $boot: fourth line from the end: want the NMI report, got: ${last[0]}"
	[[ ${last[1]} =~ ^error:\ ramsift\ stopped:\ the\ hardware\ signalled\  ]] ||
		e2e_fail "boot $boot: third line from the end: want the advice, got: ${last[1]}"
	[[ ${last[2]} =~ ^json:\ \{\"ramsift_json\":1,.*\"result\":\"ABORTED\" ]] ||
		e2e_fail "boot $boot: second line from the end: want the json: line, got: ${last[2]}"
	[[ ${last[3]} =~ ^ramsift:\ result=ABORTED\ passes=[0-9]+\ errors=[1-9][0-9]*\ tested_bytes=[0-9]+\ usable_bytes=[0-9]+\ elapsed_s=[0-9]+\.[0-9]{3}\ version=[^[:space:]]+$ ]] ||
		e2e_fail "boot $boot: last line: want the ABORTED result, got: ${last[3]}"
	n=$(grep -c '^ramsift: result=' "$E2E_LOG") || true
	[ "$n" -eq 1 ] || e2e_fail "boot $boot: want one result line, got $n"
	rip=$(sed -nE 's/^error: CPU exception 2 .* rip=(0x[0-9a-f]+) .*/\1/p' "$E2E_LOG")
	where=$(addr2line -f -e "$ELF" "$rip" 2>/dev/null | head -n 1) || where=
	before=$(tail -n 5 "$E2E_LOG" | sed -n 1p)	# head would end tail with SIGPIPE
	printf 'boot %d (%s): ABORTED %d ms after the NMI at rip=%s %s; %d ERROR lines; line before the report: %s\n' \
		"$boot" "$consoles" "$ms" "$rip" "$where" "$(grep -c '^ERROR addr=' "$E2E_LOG")" "$before" >>"$boots"
done
