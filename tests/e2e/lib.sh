# SPDX-License-Identifier: GPL-2.0-or-later
# Common part of the end-to-end scenarios, sourced by each tests/e2e/<name>.sh:
# boot ramsift headless in QEMU (dev/qemu-run.sh) under a time limit, keep
# the serial log as plain text in build/test/<name>.log, and assert lines of it
# and the result. A failed assertion says what it expected and shows the log's
# last 40 lines. Every scenario ends with one line: its name, PASS or FAIL and
# the seconds it took. Run from anywhere; paths are from the repository top.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
# A command that ends the scenario under set -e says which and where, so no
# scenario fails without a word (the scenario's own shell only: a failure
# inside $(...) or a background job is its caller's to judge).
set -E
e2e_err='echo "$E2E_NAME: ${BASH_SOURCE[0]}:$LINENO: exit status $? from: $BASH_COMMAND" >&2'
trap '[ "$BASH_SUBSHELL" != 0 ] || '"$e2e_err" ERR

B=${B:-build}
ELF=$B/ramsift.elf
TEST_ISO=$B/test/ramsift-test.iso
TEST_ISO_MB1=$B/test/ramsift-test-mb1.iso
# The TFTP tree of the network boots (make netboot from the test ISO).
TEST_TFTP=$B/test/tftp
E2E_NAME=$(basename "$0" .sh)
E2E_DIR=$B/test
E2E_LOG=$E2E_DIR/$E2E_NAME.log
E2E_TIMEOUT=${E2E_TIMEOUT:-300}
E2E_JSONCHECK=$B/host/ramsift-jsoncheck
# QEMU's accelerator (dev/qemu-run.sh -a): the SMP scenarios set
# tcg,thread=multi so that each guest CPU runs on a host thread of its own.
E2E_ACCEL=${E2E_ACCEL:-tcg}
# The QEMU program (dev/qemu-run.sh -q): dev/trixie-qemu.sh for what
# Debian 12's QEMU cannot do.
E2E_QEMU=${E2E_QEMU:-qemu-system-x86_64}
E2E_ARGS=$(grep -v '^#' tests/e2e/kernel-args)
# Debian's Linux in the scenarios and benchmarks that boot it: the console on
# COM1, a panic ends the VM. no_timer_check: on a loaded host TCG's timer can
# miss the kernel's early check of the IO-APIC timer, and the kernel panics
# ("IO-APIC + timer doesn't work!", seen with 6.1 and 6.12).
E2E_LINUX_ARGS="console=ttyS0,115200 panic=-1 no_timer_check"
# dev/qemu-run.sh's exit statuses, by value, for the messages.
E2E_RESULTS=(PASS FAIL ABORTED 'QEMU failed' 'time limit' STOPPED)
mkdir -p "$E2E_DIR"

# e2e_report [STATUS]: the scenario's one line, PASS when STATUS (default: the
# last command's) is 0; an EXIT trap that cleans up first passes its $?.
e2e_start=${EPOCHREALTIME/[.,]/}
e2e_report() {
	local status=${1:-$?} us=$((${EPOCHREALTIME/[.,]/} - e2e_start)) verdict=PASS
	[ "$status" -eq 0 ] || verdict=FAIL
	printf '  E2E     %-16s %s %6d.%d s\n' "$E2E_NAME" "$verdict" \
		$((us / 1000000)) $((us / 100000 % 10))
}
# The default EXIT trap; a scenario that sets its own calls e2e_release and
# e2e_report in it.
trap 'e2e_status=$?; e2e_release; e2e_report "$e2e_status"' EXIT

# e2e_ram SIZE: guest RAM of SIZE (QEMU's -m syntax) in a shared file of
# this run's own, E2E_RAM; sets the array E2E_HELD to the QEMU options that
# give it to the guest.
e2e_ram() {
	E2E_RAM=/dev/shm/ramsift-$E2E_NAME-$$
	truncate -s "$1" "$E2E_RAM"
	E2E_HELD=(-m "$1" -object "memory-backend-file,id=mem,size=$1,mem-path=$E2E_RAM,share=on"
		-machine memory-backend=mem)
}

# e2e_hold SIZE FAULT...: e2e_ram SIZE, with build/host/ramsift-inject
# holding the faults in it (its ADDR:BIT:VALUE words, or --faults FILE)
# until e2e_release.
e2e_hold() {
	e2e_ram "$1"
	shift
	"$B/host/ramsift-inject" --file "$E2E_RAM" "$@" &
	E2E_INJECTOR=$!
}

# e2e_background PID: a job (QEMU's, say) that e2e_release ends, with its
# children, if it still runs: a scenario that fails early leaves none behind.
E2E_JOBS=()
e2e_background() {
	E2E_JOBS+=("$1")
}

# e2e_kill_tree PID: end PID and everything it started.
e2e_kill_tree() {
	local child
	for child in $(grep -ls "^PPid:[[:space:]]*$1\$" /proc/[0-9]*/status | cut -d/ -f3); do
		e2e_kill_tree "$child"
	done
	kill "$1" 2>/dev/null || true
}

# e2e_release: end the jobs of e2e_background, stop the injector and remove
# the RAM file, if any.
e2e_release() {
	local job
	for job in "${E2E_JOBS[@]}"; do
		e2e_kill_tree "$job"
	done
	E2E_JOBS=()
	[ -z "${E2E_INJECTOR-}" ] || kill "$E2E_INJECTOR" 2>/dev/null || true
	[ -z "${E2E_RAM-}" ] || rm -f "$E2E_RAM"
	E2E_INJECTOR= E2E_RAM=
}

# e2e_fail WHAT: report a failed assertion, what QEMU said and the end of the
# log; exit 1.
e2e_fail() {
	{
		echo "$E2E_NAME: FAILED: $*"
		echo "--- QEMU's messages:"
		cat "$E2E_DIR/$E2E_NAME.stderr" 2>/dev/null || true
		echo "--- last 40 lines of $E2E_LOG:"
		tail -n 40 "$E2E_LOG" 2>/dev/null || true
		echo "---"
	} >&2
	exit 1
}

# e2e_boot QEMU_ARGS...: one boot with COM1 logged to $E2E_LOG and no screen;
# QEMU's own messages go to build/test/<name>.stderr, shown if a check fails.
# Sets E2E_RESULT to dev/qemu-run.sh's status (0 PASS, 1 FAIL, 2 ABORTED,
# 3 QEMU failed or no result line on COM1, 4 time limit, 5 STOPPED). With
# E2E_SERIAL_FIFO set, what is written to that FIFO is typed on COM1 (keys). The log
# loses CRs and terminal escapes (GRUB and the firmware draw menus on the
# serial port) so that lines match plainly.
e2e_boot() {
	local raw=$E2E_DIR/$E2E_NAME.serial
	rm -f "$E2E_LOG"
	E2E_RESULT=0
	dev/qemu-run.sh -t "$E2E_TIMEOUT" -l "$raw" ${E2E_SERIAL_FIFO:+-i "$E2E_SERIAL_FIFO"} \
		-a "$E2E_ACCEL" -q "$E2E_QEMU" "$@" \
		2>"$E2E_DIR/$E2E_NAME.stderr" || E2E_RESULT=$?
	sed -e 's/\r//g' -e 's/\x1b\[[0-9;=?]*[A-Za-z]//g' "$raw" >"$E2E_LOG"
	rm -f "$raw"
	e2e_check_json
}

# e2e_check_json: when the log holds a ramsift run that ended, its json:
# line comes right before the result line, is valid JSON and says what the
# text lines say (build/host/ramsift-jsoncheck), and the hypervisor line is
# there (e2e_check_hypervisor); a scenario that runs QEMU itself calls this
# after writing $E2E_LOG.
e2e_check_json() {
	[ -x "$E2E_JSONCHECK" ] || e2e_fail "$E2E_JSONCHECK is missing: make $E2E_JSONCHECK"
	"$E2E_JSONCHECK" "$E2E_LOG" 2>"$E2E_DIR/$E2E_NAME.jsoncheck" || {
		cat "$E2E_DIR/$E2E_NAME.jsoncheck" >&2
		e2e_fail "the json: line disagrees with the log or is no JSON (above)"
	}
	e2e_check_hypervisor
}

# e2e_check_hypervisor: once a ramsift run's log holds the machine's
# identity, it also says that the run is under QEMU TCG (CPUID's
# hypervisor bit and vendor leaf, which TCG sets for every CPU model):
# every boot of ramsift in the scenarios (ramsift-apply in Linux prints a
# machine: line of the record's too).
e2e_check_hypervisor() {
	grep -q '^machine: manufacturer=' "$E2E_LOG" && grep -q '^ramsift .*: memory tester$' "$E2E_LOG" ||
		return 0
	e2e_expect '^machine: running under a hypervisor \(QEMU TCG\): the memory tested is virtual; errors reflect the host$' \
		'the hypervisor line'
}

# e2e_socket [WHAT]: the path of a unix socket of this scenario's own, for
# QEMU to serve (its monitor, QMP, COM1's input): build/test/<name>.WHAT
# (default: monitor), so that scenarios side by side never share one.
e2e_socket() {
	echo "$E2E_DIR/$E2E_NAME.${1:-monitor}.sock"
}

# e2e_wait_socket SOCKET: wait (60 s at most) for QEMU to create SOCKET.
e2e_wait_socket() {
	for _ in $(seq 600); do
		[ -S "$1" ] && return 0
		sleep 0.1
	done
	echo "$E2E_NAME: QEMU made no socket $1 within 60 s" >&2
	return 1
}

# e2e_send SOCKET TEXT: write TEXT to what QEMU serves on the unix socket
# SOCKET once it is there, keeping what comes back in build/test/<name>.monitor
# (a monitor's answers, COM1's output); returns once QEMU closes the
# connection (10 s at most: a monitor closes it after the last line).
e2e_send() {
	e2e_wait_socket "$1" || return 1
	printf '%s' "$2" | socat -t 10 - "UNIX-CONNECT:$1" >>"$E2E_DIR/$E2E_NAME.monitor" 2>&1
}

# e2e_monitor SOCKET COMMAND...: send the commands, one a line, to QEMU's
# human monitor on the unix socket SOCKET (-monitor unix:SOCKET,server=on,
# wait=off); returns once QEMU has answered them all.
e2e_monitor() {
	local sock=$1
	shift
	e2e_send "$sock" "$(printf '%s\n' "$@")
"
}

# e2e_wait_serial ERE: wait until a line of the serial log that e2e_boot is
# writing (build/test/<name>.serial) matches, for up to E2E_TIMEOUT seconds.
e2e_wait_serial() {
	local tries=$((E2E_TIMEOUT * 10))
	for ((; tries > 0; tries--)); do
		grep -Eaq -- "$1" "$E2E_DIR/$E2E_NAME.serial" 2>/dev/null && return 0
		sleep 0.1
	done
	echo "$E2E_NAME: no serial line matched /$1/ within $E2E_TIMEOUT s" >&2
	return 1
}

# e2e_uefi: set the array E2E_UEFI to the QEMU options for UEFI firmware
# (OVMF): its code and a fresh writable variable store, both copied under
# E2E_DIR (where dev/trixie-qemu.sh's QEMU sees files too).
e2e_uefi() {
	local ovmf=/usr/share/OVMF code=$E2E_DIR/$E2E_NAME-code.fd vars=$E2E_DIR/$E2E_NAME-vars.fd
	cp "$ovmf/OVMF_CODE_4M.fd" "$code"
	cp "$ovmf/OVMF_VARS_4M.fd" "$vars"
	E2E_UEFI=(-drive "if=pflash,format=raw,readonly=on,file=$code"
		-drive "if=pflash,format=raw,file=$vars")
}

# e2e_x2apic: set the array E2E_X2APIC to the QEMU options of a q35 with
# four CPUs of APIC IDs 0, 1, 256 and 257 (256 cores a socket: two in
# socket 0, two added in socket 1), x2APIC on. Needs Debian 13's QEMU
# (E2E_QEMU=dev/trixie-qemu.sh): 7.2 has no x2APIC under TCG.
e2e_x2apic() {
	local cpu=max-x86_64-cpu,x2apic=on,socket-id=1,thread-id=0
	E2E_X2APIC=(-machine q35 -cpu max,+x2apic -smp 2,maxcpus=512,sockets=2,cores=256,threads=1
		-device "$cpu,core-id=0" -device "$cpu,core-id=1")
}

# e2e_iso_disk: set E2E_DISK to the QEMU options for a raw IDE disk holding a
# copy of the test ISO, as `dd` to a USB stick makes it (the ISO stays as built).
e2e_iso_disk() {
	local disk=$E2E_DIR/$E2E_NAME.img
	cp "$TEST_ISO" "$disk"
	E2E_DISK=(-drive "file=$disk,format=raw,if=ide")
}

# e2e_expect ERE WHAT: some line of the log matches the extended regex.
e2e_expect() {
	grep -Eq -- "$1" "$E2E_LOG" || e2e_fail "$2: no line matches /$1/"
}

# e2e_expect_no ERE WHAT: no line of the log matches the extended regex.
e2e_expect_no() {
	local line
	line=$(grep -Em1 -- "$1" "$E2E_LOG") || return 0
	e2e_fail "$2: unexpected line: $line"
}

# e2e_results [PATTERN]: how many result lines (matching PATTERN, e.g.
# PASS) the log has, a repeat of one counted once: a UEFI boot that keeps
# the result in NVRAM prints it before the firmware call as well as last.
e2e_results() {
	grep "^ramsift: result=${1-}" "$E2E_LOG" | sort -u | wc -l
}

# e2e_expect_pass: the banner, one result line: PASS after one pass over all
# usable RAM (tested_bytes = usable_bytes), no warning or error line, and
# QEMU's exit status 1 (ramsift wrote PASS to isa-debug-exit).
e2e_expect_pass() {
	local results line
	e2e_expect '^ramsift v?[0-9]' 'banner (name and version)'
	results=$(e2e_results)
	[ "$results" -eq 1 ] || e2e_fail "want one result line, got $results"
	line=$(grep '^ramsift: result=' "$E2E_LOG" | tail -n 1)
	[[ $line =~ ^ramsift:\ result=PASS\ passes=1\ errors=0\ tested_bytes=([0-9]+)\ usable_bytes=([0-9]+)\  ]] &&
		[ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] ||
		e2e_fail "result line: want PASS, passes=1, errors=0 and tested_bytes =" \
			"usable_bytes, got: $line"
	e2e_expect_no '^(warning|error): ' 'a clean boot'
	[ "$E2E_RESULT" -eq 0 ] ||
		e2e_fail "isa-debug-exit result: want PASS (QEMU exit status 1)," \
			"got ${E2E_RESULTS[$E2E_RESULT]}"
}

# e2e_expect_loader NAME PROTOCOL: the image names the loader that started it
# and the protocol (multiboot or multiboot2), so a scenario really exercises
# the boot path it is about. NAME is an extended regex.
e2e_expect_loader() {
	e2e_expect "^loader: $1, $2, " "loaded by $1 with $2"
}

# e2e_expect_aborted [WHAT]: the run ended ABORTED: exactly one result line,
# the log's last, and QEMU's exit status saying ABORTED. WHAT prefixes the
# messages (a scenario with several boots).
e2e_expect_aborted() {
	local what=${1:+$1: }
	[ "$(e2e_results)" -eq 1 ] || e2e_fail "${what}want exactly one result line"
	[ "$(tail -n 1 "$E2E_LOG" | cut -d' ' -f1-2)" = 'ramsift: result=ABORTED' ] ||
		e2e_fail "${what}want the result line ABORTED, last"
	[ "$E2E_RESULT" -eq 2 ] ||
		e2e_fail "${what}isa-debug-exit result: want ABORTED, got ${E2E_RESULTS[$E2E_RESULT]}"
}

# e2e_boot_smp_hook HOOK: boot at -smp 4 (a host thread per guest CPU) with
# march-c alone and the test hook test_fault=HOOK; all four CPUs must start.
e2e_boot_smp_hook() {
	E2E_ACCEL=tcg,thread=multi
	e2e_boot -smp 4 -m 64M -kernel "$ELF" \
		-append "console=ttyS0,115200 $E2E_ARGS tests=march-c test_fault=$1"
	e2e_expect '^cpus: 4 found in the MADT, 4 started \(APIC IDs 0 1 2 3\)$' "$1: all four CPUs started"
}

# e2e_expect_halted: the image stopped before it could report (no result line)
# and stayed halted until the time limit killed QEMU.
e2e_expect_halted() {
	e2e_expect_no '^ramsift: result=' 'halted before any result'
	[ "$E2E_RESULT" -eq 4 ] ||
		e2e_fail "want a halt until the time limit, got ${E2E_RESULTS[$E2E_RESULT]}"
}
