#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Instrument 7 of bench/ (bench/README.md, section 7): does Linux on bad RAM
# run as well as on good RAM once ramsift's line is applied? ramsift finds a
# seeded fault set held in the guest's RAM; then Debian's kernel stresses and
# measures three VMs of the same usable size: healthy, unprotected (faults,
# no line), protected (faults and line). Their boots alternate, the order
# rotating, because on a loaded host the noise between boots outweighs what
# is measured. --check (make check): BIOS, one short stress, no measurements.
# usage: bench/consumer.sh [--check] [--mem SIZE] [--reps N] [--uefi-reps N]
#          [--stress SECONDS] [--rounds N] [--k K] [--slow-protected] [--out FILE]
. "$(dirname "$0")/../tests/e2e/roundtrip/lib-faults.sh"

check=0 mem=512M reps=3 uefi_reps=3 stress=10 rounds=5 k=5 slow=0
out=$B/bench/consumer.md
usage() {
	echo "usage: $0 [--check] [--mem SIZE] [--reps N] [--uefi-reps N] [--stress SECONDS]" \
		"[--rounds N] [--k K] [--slow-protected] [--out FILE]" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	[ "$1" = --check ] || [ "$1" = --slow-protected ] || [ $# -ge 2 ] || usage
	case $1 in
	--check) check=1 reps=1 uefi_reps=0 stress=4 out=$E2E_DIR/consumer-check.md ;;
	--slow-protected) slow=1 ;;
	--mem) mem=$2; shift ;;
	--reps) reps=$2; shift ;;
	--uefi-reps) uefi_reps=$2; shift ;;
	--stress) stress=$2; shift ;;
	--rounds) rounds=$2; shift ;;
	--k) k=$2; shift ;;
	--out) out=$2; shift ;;
	*) usage ;;
	esac
	shift
done

RT_INITRD=$B/linux/consumer.cpio
# A boot's time limit: the stress, the measurements and the boot itself on
# a loaded host, with a wide margin.
E2E_TIMEOUT=$((600 + 4 * stress + 200 * rounds * (1 - check)))
RESULTS=$E2E_DIR/consumer.results
mkdir -p "$(dirname "$out")"
: >"$RESULTS"
# nokaslr in all three: with KASLR the unprotected kernel may unpack itself
# onto a fault and hang before it prints a line (seen once), which proves
# the faults bite but costs the whole time limit; at 16 MiB it is clear of
# them, and what corruption there is shows in the workload.
guest="nokaslr consumer_stress=$stress consumer_measure=$((1 - check)) consumer_rounds=$rounds"
vms="healthy unprotected protected"
[ "$check" = 0 ] || vms="unprotected protected"

# The fault set, seeded: 4 single cells, one row and a column over 2 MiB
# (32 words 64 KiB apart: 32 pages, within ramsift's 48 holes), all above
# 272 MiB so that the memmap= line need not be cut to 4 ranges for Linux's
# KASLR (docs/badram.md), and under the top 32 MiB, where GRUB puts the
# initrd and the kernel its first allocations: the faults fall in memory
# that is free when the workload starts. The line excludes well under a MiB.
bytes=$(numfmt --from=iec "$mem")
[ "$bytes" -ge $((384 << 20)) ] || { echo "consumer.sh: --mem must be at least 384M" >&2; exit 2; }
rt_ram "$mem"
# The injector's own host load in every VM: for the healthy one it holds the
# same faults in a decoy file of the same size that no VM uses (a first run
# that held nothing there measured the faulty VMs 1.5-2.5 times slower in
# fork, exec and context switches on the loaded two-core host).
rt_decoy
top=$((bytes - (32 << 20)))
rt_faults set --seed 15 --ram "0x11000000-$top" cells:4 row \
	"column@0x12000000-0x12200000"
echo "  consumer: $(grep -vc '^#' "$RT_FAULTS") faulty bits in $mem ($RT_FAULTS)"

# memmap_bytes LINE: the bytes a memmap= line reserves (SIZE with K, M or G).
memmap_bytes() {
	local sum=0 r size
	for r in ${1//,/ }; do
		size=${r%%\$*}
		sum=$((sum + $(numfmt --from=iec "$size")))
	done
	echo "$sum"
}

# isos FW: the three VMs' GRUB media, consumer-FW-VM.iso; the healthy one
# reserves RESERVE bytes at 128 MiB (one range: KASLR stays on).
isos() {
	local fw=$1 vm cfg args
	for vm in healthy unprotected protected; do
		cfg= args=
		case $vm:$fw in
		healthy:*) args="memmap=$((RESERVE / 1024))K\$0x8000000" ;;
		protected:bios) cfg="badram $RT_BADRAM" ;;
		protected:uefi) args="memmap=$RT_MEMMAP" ;;
		esac
		[ "$vm:$slow" != protected:1 ] || args="$args consumer_hog=1"
		rt_linux_iso "$E2E_DIR/consumer-$fw-$vm.iso" "$cfg" "$guest $args"
	done
}

# boot FW VM REP: one boot; its findings appended to RESULTS as lines
# "FW VM REP KEY VALUE".
boot() {
	local fw=$1 vm=$2 rep=$3 ram=$RT_RAMFILE
	[ "$vm" != healthy ] || ram=$RT_DECOY
	[ "$RT_HELD" = "$ram" ] || rt_hold "$ram"
	rt_boot_iso "$fw-$vm-$rep" "$E2E_DIR/consumer-$fw-$vm.iso"
	cp "$E2E_DIR/$E2E_NAME.stderr" "${RT_LOG%.log}.stderr"
	awk -v id="$fw $vm $rep" -v result="$E2E_RESULT" '
		/^consumer: begin / { for (i = 1; i <= NF; i++) if ($i ~ /^MemTotal=/) print id, "memtotal_kib", substr($i, 10) }
		/^consumer: result stress / { sub(/.*status=/, ""); print id, "stress_status", $1
			sub(/^errors=/, "", $2); print id, "stress_errors", $2 }
		/^consumer: result pressure allocated/ { sub(/.*errors=/, ""); print id, "pressure_errors", $1 }
		/^consumer: result pressure killed/ { print id, "pressure_errors", "killed" }
		/^consumer: result kernel / { sub(/.*=/, ""); print id, "kernel_messages", $1 }
		/^consumer: metric / { print id, "metric:" $3 ":" $5, $4 }
		/^consumer: end / { print id, "end", $3 }
		/Kernel panic|^\[ *[0-9.]+\] (BUG|Oops|general protection|traps:|.*segfault at)/ { panic++ }
		/^ramsift-init: \/payload killed by signal/ { print id, "payload_signal", $NF }
		/ramsift-init: the console sent nothing/ { restarts++ }
		END { print id, "console_bad", panic + 0; print id, "console_restarts", restarts + 0
			print id, "vm_result", result }
	' "$RT_LOG" >>"$RESULTS"
}

# The experiment, firmware by firmware.
for fw in bios uefi; do
	n=$reps
	[ "$fw" = bios ] || n=$uefi_reps
	[ "$n" -gt 0 ] || continue
	rt_firmware "$fw"
	rt_find "$fw-find"
	fold=$(rt_line 'fold: ')
	case $fw in
	bios) RESERVE=$(( $(sed -nE 's/.*excluded_pages=([0-9]+).*/\1/p' <<<"$fold") * 4096 )) ;;
	uefi) RESERVE=$(memmap_bytes "$RT_MEMMAP") ;;
	esac
	echo "$fw - - line $([ "$fw" = bios ] && echo "badram=$RT_BADRAM" || echo "memmap=$RT_MEMMAP")" >>"$RESULTS"
	echo "$fw - - fold fold: $fold" >>"$RESULTS"
	echo "$fw - - reserve_kib $((RESERVE / 1024))" >>"$RESULTS"
	isos "$fw"
	order=($vms)
	for ((rep = 1; rep <= n; rep++)); do
		for vm in "${order[@]}"; do boot "$fw" "$vm" "$rep"; done
		order=("${order[@]:1}" "${order[0]}")
	done
done
rt_release

load=$(cut -d' ' -f1-3 /proc/loadavg)
bench/consumer-report.awk -v k="$k" -v slow="$slow" -v check="$check" -v mem="$mem" \
	-v stress="$stress" -v rounds="$rounds" -v load="$load" "$RESULTS" | tee "$out"
grep -q '^Corruption verdict: \*\*holds\*\*' "$out" ||
	e2e_fail "the corruption verdict does not hold (above; logs build/test/consumer-*.log)"
