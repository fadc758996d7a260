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
	dev/qemu-run.sh -t "$E2E_TIMEOUT" -l "$SCREEN_RAW" \
		-monitor "unix:$SCREEN_SOCK,server=on,wait=off" "$@" 2>"$E2E_DIR/$E2E_NAME.stderr" &
	SCREEN_PID=$!
	e2e_background "$SCREEN_PID"
	local i
	for i in $(seq 100); do
		[ -S "$SCREEN_SOCK" ] && return 0
		sleep 0.1
	done
	e2e_fail "QEMU's monitor socket $SCREEN_SOCK never appeared"
}

# screen_log: the serial log's whole lines so far as plain lines, into
# $E2E_LOG (as e2e_boot makes it). A line QEMU is still writing waits for
# the next look: matched half-written, the result line once passed
# screen_wait while the screen already showed all of it.
screen_log() {
	head -n "$(wc -l <"$SCREEN_RAW")" "$SCREEN_RAW" |
		sed -e 's/\r//g' -e 's/\x1b\[[0-9;=?]*[A-Za-z]//g' >"$E2E_LOG"
}

# screen_until WHAT NOT_YET CHECK...: read the log (screen_log) until CHECK
# holds (at most E2E_TIMEOUT seconds); fail with "WHAT: QEMU ended before
# NOT_YET" if QEMU ends first. QEMU is looked at before the log, so that
# what it printed last is read.
screen_until() {
	local i alive what=$1 not_yet=$2
	shift 2
	for i in $(seq $((E2E_TIMEOUT * 5))); do
		alive=0
		kill -0 "$SCREEN_PID" 2>/dev/null && alive=1
		screen_log
		"$@" && return 0
		[ "$alive" = 1 ] || e2e_fail "$what: QEMU ended before $not_yet"
		sleep 0.2
	done
	e2e_fail "$what: not $not_yet after $E2E_TIMEOUT s"
}

# screen_wait ERE WHAT: wait until a line of the log matches.
screen_wait() {
	screen_until "$2" "a line matched /$1/" grep -Eq -- "$1" "$E2E_LOG"
}

# screen_ended: the log's last line is the result line, after the json:
# line (a UEFI run prints the result line once more before it writes NVRAM,
# and goes on).
screen_ended() {
	grep -q '^json: ' "$E2E_LOG" && tail -n 1 "$E2E_LOG" | grep -q '^ramsift: result='
}

# screen_wait_end WHAT: wait until the run has ended (screen_ended).
screen_wait_end() {
	screen_until "$1" "the run's last line" screen_ended
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

# screen_end: wait for QEMU; E2E_RESULT as e2e_boot sets it; the final log,
# its json: line checked as e2e_boot checks it.
screen_end() {
	E2E_RESULT=0
	wait "$SCREEN_PID" || E2E_RESULT=$?
	screen_log
	e2e_check_json
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

# ---- the status screen and the result panel ---------------------------------

# Rows the status screen takes above the log: STATUS_VIEW_ROWS of
# lib/screen/status_view.h.
STATUS_ROWS=9

# screen_faults MEM: hold two stuck bits (bit 5 of the word at 0x5a5a5a8 at
# 1, bit 63 of the word at 0x7000010 at 0, as tests/e2e/fault-stuck.sh) in
# the guest's MEM of RAM (e2e_hold); sets E2E_HELD to the QEMU options.
# The injector ends with the script.
screen_faults() {
	local inject=$B/host/ramsift-inject
	[ -x "$inject" ] || e2e_fail "$inject is missing: make $inject"
	e2e_hold "$1" 0x5a5a5a8:5:1 0x7000010:63:0
}

# screen_read_status NAME SIZE SCALE: stop the machine, take a screendump
# ($E2E_DIR/NAME.ppm) and read it (status rows printed, the log pane held
# against the log) into $E2E_DIR/NAME.rows. False when the pane does not
# show the log. Leaves the machine stopped.
screen_read_status() {
	screen_monitor stop
	screen_log
	screen_dump "$E2E_DIR/$1.ppm"
	"$SCREENCHECK" fb "$E2E_DIR/$1.ppm" "$2" "$3" "$E2E_LOG" top=$STATUS_ROWS \
		"$E2E_DIR/$1.png" >"$E2E_DIR/$1.rows" 2>&1
}

# screen_check_status NAME TEST [vga]: while TEST runs in pass 1 of 1 (one
# or more times in the pass's list), the status rows must name the pass and the test, show the
# errors row and the log's rule, and the log pane below them the log's last
# lines; the status rows lag the log by up to 250 ms, so up to five tries,
# the machine running on a little between them. vga: read the VGA text
# buffer (80x25) instead of a screendump. Keeps the screen as
# build/test/NAME.png (and NAME.ppm for screen_check_result). Leaves the
# machine stopped.
screen_check_status() {
	local name=$1 test=$2 size scale try rows=$E2E_DIR/$1.rows
	[ "${3-}" = vga ] || read -r size scale < <(screen_text_size)
	for try in 1 2 3 4 5; do
		if [ "${3-}" = vga ]; then
			screen_monitor stop
			screen_log
			rm -f "$E2E_DIR/$name.text"
			screen_monitor "pmemsave 0xb8000 4000 $E2E_DIR/$name.text"
			screen_wait_file "$E2E_DIR/$name.text" 4000
			"$SCREENCHECK" vga "$E2E_DIR/$name.text" 80x25 "$E2E_LOG" top=$STATUS_ROWS >"$rows" 2>&1 &&
				screen_dump "$E2E_DIR/$name.ppm" && size=80x25
		else
			screen_read_status "$name" "$size" "$scale" && true
		fi
		if [ -n "${size-}" ] && grep -Eq "^screencheck: row 4: +Pass +1 of 1 +test [0-9]+ of [0-9]+: $test\$" "$rows" &&
			grep -Eq '^screencheck: row 7: +Errors +[0-9]+ +failing pages [0-9]+' "$rows" &&
			grep -Eq '^screencheck: row 8: .* log ' "$rows" &&
			grep -Eq '^screencheck: the [0-9]+x[0-9]+ screen shows ' "$rows"; then
			echo "    $name: the status rows name pass 1 and $test; $(tail -n 1 "$rows" | sed 's/^screencheck: //')"
			[ "${3-}" != vga ] || "$SCREENCHECK" png "$E2E_DIR/$name.ppm" "$E2E_DIR/$name.png" >/dev/null
			return 0
		fi
		screen_monitor cont
		sleep 0.3
	done
	cat "$rows" >&2
	e2e_fail "$name: the status screen does not show pass 1, $test and the log (build/test/$name.png)"
}

# screen_qr_want: the text the result panel's QR code must hold, from the
# log: the result line and, on FAIL, the GRUB_BADRAM= and memmap= lines,
# newline-separated, no newline at the end.
screen_qr_want() {
	local result
	result=$(grep '^ramsift: result=' "$E2E_LOG" | tail -n 1)
	printf '%s' "$result"
	case $result in
	'ramsift: result=FAIL '*)
		printf '\n%s\n%s' "$(grep '^GRUB_BADRAM=' "$E2E_LOG" | tail -n 1)" \
			"$(grep '^memmap=' "$E2E_LOG" | tail -n 1)" ;;
	esac
}

# screen_check_qr SHOT.ppm WHAT: zbarimg decodes the QR code in the
# screendump to exactly screen_qr_want's text.
screen_check_qr() {
	local got=$1.qr want=$1.want
	screen_qr_want >"$want"
	printf '\n' >>"$want"	# zbarimg --raw ends the text with a newline
	zbarimg --raw -q -Sdisable -Sqrcode.enable "$1" >"$got" 2>/dev/null ||
		e2e_fail "$2: zbarimg finds no QR code in $1"
	cmp -s "$got" "$want" || {
		diff "$want" "$got" >&2 || true
		e2e_fail "$2: the QR code holds other text than the log's lines (want $want, got $got)"
	}
}

# screen_check_result NAME [STATUS] [fb]: at the end (after the result
# line), take a screendump (build/test/NAME.png): not blank, not the
# status screen of build/test/STATUS.ppm, and its QR code decodes to the
# log's lines. fb: on a framebuffer the panel's cells are read too, and it
# must show the result line, the log's last line on the two rows under it.
screen_check_result() {
	local shot=$E2E_DIR/$1.ppm out
	screen_dump "$shot"
	out=$("$SCREENCHECK" png "$shot" "$E2E_DIR/$1.png" 2>&1) || { echo "$out" >&2; e2e_fail "$1: blank screen"; }
	[ -z "${2-}" ] || ! cmp -s "$shot" "$E2E_DIR/$2.ppm" || e2e_fail "$1: the result panel is the status screen"
	screen_check_qr "$shot" "$1"
	if [ "${3-}" = fb ]; then
		local size scale
		read -r size scale < <(screen_text_size)
		out=$("$SCREENCHECK" fb "$shot" "$size" "$scale" "$E2E_LOG" "top=$((${size#*x} - 2))" 2>&1) || {
			echo "$out" >&2
			e2e_fail "$1: the log's last line is not under the result panel"
		}
		grep -Eq "^screencheck: row [0-9]+: +ramsift: result=" <<<"$out" ||
			e2e_fail "$1: the result panel does not show the result line"
	fi
	echo "    $1: the QR code holds the result line$(grep -q '^GRUB_BADRAM=' "$E2E_LOG" && echo ', GRUB_BADRAM= and memmap=')"
	rm -f "$shot" "$shot.qr" "$shot.want"
	[ -z "${2-}" ] || rm -f "$E2E_DIR/$2.ppm"
}
