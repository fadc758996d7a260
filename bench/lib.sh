# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash disable=SC2034 # ELF, BENCH_STATUS: for the sourcing scripts
# Common part of the bench/ instruments, sourced by bench/passtime.sh and
# bench/faults.sh: boot a guest in QEMU (TCG, headless, the isa-debug-exit
# device at 0xf4) with its serial stream timestamped on the host by
# build/bench/serial-clock, and read numbers back out of the timed log.
# Paths are from the repository top; outputs go under build/bench/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

B=${B:-build}
ELF=$B/ramsift.elf
MEMTEST=${MEMTEST:-/boot/memtest86+x64.bin}
CLOCK=$B/bench/serial-clock
BENCH_DIR=$B/bench
mkdir -p "$BENCH_DIR"

# bench_boot LOG CLOCK_OPTIONS QEMU_ARGS...: boot QEMU with COM1 on a FIFO
# that serial-clock reads (so its clock starts with QEMU), the timed log in
# LOG and QEMU's own messages in LOG.stderr. CLOCK_OPTIONS is one word list
# for serial-clock (--screen, --stop-test N, --timeout S). When serial-clock
# stops first (a stop condition or its time limit: memtest86+ never exits)
# QEMU is killed. Sets BENCH_STATUS to QEMU's exit status (1 = ramsift PASS,
# 3 = FAIL, 5 = ABORTED; anything else: killed or failed). BENCH_ACCEL is
# QEMU's accelerator (default tcg; tcg,thread=multi: a host thread per CPU).
bench_boot() {
	local log=$1 opts=$2 fifo qpid
	shift 2
	fifo=$(mktemp -u "$BENCH_DIR/serial.XXXXXX")
	mkfifo "$fifo"
	qemu-system-x86_64 -accel "${BENCH_ACCEL:-tcg}" -no-reboot -display none -monitor none \
		-serial stdio -device isa-debug-exit,iobase=0xf4,iosize=0x04 "$@" \
		</dev/null >"$fifo" 2>"$log.stderr" &
	qpid=$!
	# shellcheck disable=SC2086 # opts is a list of words
	"$CLOCK" $opts <"$fifo" >"$log" || true
	kill "$qpid" 2>/dev/null || true
	BENCH_STATUS=0
	wait "$qpid" || BENCH_STATUS=$?
	rm -f "$fifo"
}

# bench_tail LOG: say what went wrong with a boot, for a failed smoke run.
bench_tail() {
	{
		echo "--- QEMU's messages ($1.stderr):"
		cat "$1.stderr" 2>/dev/null || true
		echo "--- last 20 lines of $1:"
		tail -n 20 "$1" 2>/dev/null || true
		echo "---"
	} >&2
}

# bench_die WHY [LOG]: stop the instrument with a message (and the log).
bench_die() {
	echo "bench: $1" >&2
	[ $# -lt 2 ] || bench_tail "$2"
	exit 1
}

# bench_usable LOG: the usable ranges of a ramsift log as --ram options for
# build/bench/badram-score ("--ram 0xSTART-0xLAST ...").
bench_usable() {
	sed -nE 's/^[0-9.]+ +usable (0x[0-9a-f]+-0x[0-9a-f]+) .*/--ram \1/p' "$1" | tr '\n' ' '
}

# bench_mean V...: the arithmetic mean, 3 decimals; empty for no value.
bench_mean() {
	[ $# -gt 0 ] || return 0
	printf '%s\n' "$@" | awk '{ s += $1 } END { printf "%.3f", s / NR }'
}

# bench_machine: one markdown line describing the host and the load on it.
bench_machine() {
	local cpu cores mem load
	cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
	cores=$(nproc)
	mem=$(awk '/^MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)
	load=$(cut -d' ' -f1-3 /proc/loadavg)
	echo "Host: $cpu, $cores cores, $mem RAM, $(uname -sr);" \
		"$(qemu-system-x86_64 --version | head -n 1);" \
		"memtest86+ $(strings "$MEMTEST" | grep -m1 -oE 'v[0-9]+\.[0-9]+');" \
		"load average at the start $load (other engineers run QEMU on the" \
		"same 2 cores: expect noise of tens of per cent)."
}
