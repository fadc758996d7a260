# SPDX-License-Identifier: GPL-2.0-or-later
# The screen scenarios' part (tests/e2e/screen-*.sh), sourced after
# tests/e2e/lib.sh: boot QEMU in the background with its monitor on a UNIX
# socket (spoken to with socat), wait for lines of the serial log, stop the
# machine, take a screendump or read the VGA text buffer, and read the text
# back with build/host/screencheck, which compares it with the serial log.
# Every screendump is also kept as a PNG in build/test/ for people to look at.

SCREENCHECK=$B/host/screencheck
[ -x "$SCREENCHECK" ] || e2e_fail "$SCREENCHECK is missing: make $SCREENCHECK"
command -v socat >/dev/null || e2e_fail "socat is missing: make deps"

# screen_start QEMU_ARGS...: boot in the background, COM1 to a file, QEMU's
# messages to build/test/<name>.stderr. Sets SCREEN_PID.
screen_start() {
	SCREEN_SOCK=$E2E_DIR/$E2E_NAME.mon
	SCREEN_RAW=$E2E_DIR/$E2E_NAME.serial
	: >"$SCREEN_RAW"
	rm -f "$SCREEN_SOCK" "$E2E_LOG"
	# qemu-run.sh's -l gives -monitor none; a second -monitor adds this one.
	tools/qemu-run.sh -t "$E2E_TIMEOUT" -l "$SCREEN_RAW" \
		-monitor "unix:$SCREEN_SOCK,server=on,wait=off" "$@" 2>"$E2E_DIR/$E2E_NAME.stderr" &
	SCREEN_PID=$!
	local i
	for i in $(seq 100); do
		[ -S "$SCREEN_SOCK" ] && return 0
		sleep 0.1
	done
	e2e_fail "QEMU's monitor socket $SCREEN_SOCK never appeared"
}

# screen_log: the serial log so far as plain lines, into $E2E_LOG (as
# e2e_boot makes it).
screen_log() {
	sed -e 's/\r//g' -e 's/\x1b\[[0-9;=?]*[A-Za-z]//g' "$SCREEN_RAW" >"$E2E_LOG"
}

# screen_wait ERE WHAT: wait until a line of the log matches (at most
# E2E_TIMEOUT seconds); fail if QEMU ends first.
screen_wait() {
	local i
	for i in $(seq $((E2E_TIMEOUT * 5))); do
		screen_log
		grep -Eq -- "$1" "$E2E_LOG" && return 0
		kill -0 "$SCREEN_PID" 2>/dev/null || e2e_fail "$2: QEMU ended before a line matched /$1/"
		sleep 0.2
	done
	e2e_fail "$2: no line matches /$1/ after $E2E_TIMEOUT s"
}

# screen_monitor COMMAND...: one monitor command a line; the answers go to
# build/test/<name>.monitor.
screen_monitor() {
	printf '%s\n' "$@" | socat -t 1 - "UNIX-CONNECT:$SCREEN_SOCK" >>"$E2E_DIR/$E2E_NAME.monitor" 2>&1 ||
		e2e_fail "cannot talk to QEMU's monitor ($*)"
}

# screen_monitor_answer COMMAND FILE: the monitor's answer to COMMAND in
# FILE, whole: the monitor's prompt has come back after it (at most 30 s).
screen_monitor_answer() {
	local i
	: >"$2"
	{
		printf '%s\n' "$1"
		for i in $(seq 300); do
			[ "$(grep -o '(qemu) ' "$2" | wc -l)" -ge 2 ] && break
			sleep 0.1
		done
	} | socat -t 5 - "UNIX-CONNECT:$SCREEN_SOCK" >"$2" 2>&1 ||
		e2e_fail "cannot talk to QEMU's monitor ($1)"
	[ "$(grep -o '(qemu) ' "$2" | wc -l)" -ge 2 ] || e2e_fail "no whole answer to '$1' from QEMU's monitor ($2)"
}

# screen_wait_file FILE BYTES: until FILE has BYTES bytes (QEMU writes
# screendumps and pmemsave files as it answers).
screen_wait_file() {
	local i
	for i in $(seq 100); do
		[ -f "$1" ] && [ "$(stat -c %s "$1")" -ge "$2" ] && return 0
		sleep 0.1
	done
	e2e_fail "QEMU did not write $1"
}

# screen_dump FILE.ppm: a screendump, whole.
screen_dump() {
	rm -f "$1"
	screen_monitor "screendump $1"
	screen_wait_file "$1" 16
	local w h
	read -r w h < <(head -c 64 "$1" | tr -s ' \n' '  ' | awk '{ print $2, $3 }')
	screen_wait_file "$1" $((w * h * 3))
}

# screen_end: wait for QEMU; E2E_RESULT as e2e_boot sets it; the final log.
screen_end() {
	E2E_RESULT=0
	wait "$SCREEN_PID" || E2E_RESULT=$?
	screen_log
}

# screen_text_size: "COLSxROWS SCALE" of the framebuffer console, from its
# `console: framebuffer ...` line.
screen_text_size() {
	local line
	line=$(grep -E '^console: framebuffer ' "$E2E_LOG") ||
		e2e_fail "no 'console: framebuffer' line: ramsift does not draw on the framebuffer"
	[[ $line =~ :\ ([0-9]+x[0-9]+)\ text(,\ font\ scaled\ 2x)?$ ]] ||
		e2e_fail "console line of an unknown form: $line"
	echo "${BASH_REMATCH[1]} $([ -n "${BASH_REMATCH[2]}" ] && echo 2 || echo 1)"
}

# screen_check_fb NAME [nopng]: stop the machine, take a screendump (kept
# as build/test/NAME.png unless nopng) and hold it against the log; while
# ramsift runs, the screen may be caught between two lines, so up to three
# tries, the machine running on a little between them. Leaves the machine
# stopped.
screen_check_fb() {
	local shot=$E2E_DIR/$1.ppm size scale try out png=$E2E_DIR/$1.png
	[ "${2-}" != nopng ] || png=
	read -r size scale < <(screen_text_size)
	for try in 1 2 3; do
		screen_monitor stop
		screen_log
		screen_dump "$shot"
		if out=$("$SCREENCHECK" fb "$shot" "$size" "$scale" "$E2E_LOG" $png 2>&1); then
			echo "    $1: $size text at ${scale}x: ${out#screencheck: }"
			rm -f "$shot"
			return 0
		fi
		screen_monitor cont
		sleep 0.5
	done
	echo "$out" >&2
	e2e_fail "$1: the framebuffer does not show the log (screendump $shot)"
}
