#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Instrument 6 of bench/: what the status screen costs (bench/README.md).
# One ISO (GRUB, multiboot2 under SeaBIOS, a 1920x1080x32 framebuffer, the
# font drawn 2x) boots ramsift's default pass with bitfade=0 from its default
# entry (the status screen and log pane drawn) and its serial-only entry in
# turns, ALTERNATIONS times after one uncounted warm-up boot. Each
# alternation gives the ratio of ramsift's own pass times (time_s= of "pass
# 1: end"), with the screen over without; the result is their median
# (target <= 1.02). Writes the markdown section to OUT (default
# build/bench/screencost.md) and a summary row to OUT.summary; exit status 1
# when a boot did not give its pass line, never because of a time.
# usage: bench/screencost.sh [--quick] [--mem SIZE] [--alternations N] [--out FILE]
#   defaults: --mem 1G --alternations 3
#   --quick  smoke mode: 1 alternation, 32M, tests=march-c, no warm-up
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

quick=0 mem=1G alternations=3 out=$BENCH_DIR/screencost.md
while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1 mem=32M alternations=1 ;;
	--mem) mem=$2; shift ;;
	--alternations) alternations=$2; shift ;;
	--out) out=$2; shift ;;
	*) echo "usage: $0 [--quick] [--mem SIZE] [--alternations N] [--out FILE]" >&2; exit 2 ;;
	esac
	shift
done

args="onexit=qemu bitfade=0"
[ "$quick" = 0 ] || args="$args tests=march-c"
iso=$BENCH_DIR/screencost.iso
sh iso/mkiso.sh -t 0 -g 1920x1080x32 -a "$args" "$ELF" "$iso" >&2 || bench_die "no ISO"
iso_serial=$BENCH_DIR/screencost-serial.iso
sh iso/mkiso.sh -t 0 -g 1920x1080x32 -e serial -a "$args" "$ELF" "$iso_serial" >&2 || bench_die "no ISO"

# pass_s LOG: the pass's time_s= of a timed log.
pass_s() {
	sed -nE 's/^[0-9.]+ pass 1: end .* time_s=([0-9.]+).*/\1/p' "$1" | head -n 1
}

# boot KIND LOG: one boot of the ISO's screen or serial entry; sets S to
# its pass time.
boot() {
	local kind=$1 log=$2 img=$iso
	[ "$kind" = screen ] || img=$iso_serial
	bench_boot "$log" "--timeout 600" -m "$mem" -vga none -device VGA,vgamem_mb=16 -cdrom "$img"
	[ "$BENCH_STATUS" = 1 ] || bench_die "ramsift did not end PASS (QEMU status $BENCH_STATUS)" "$log"
	if [ "$kind" = screen ]; then
		grep -q '^[0-9.]* console: framebuffer 1920x1080x32 .*, font scaled 2x$' "$log" ||
			bench_die "no 1920x1080 framebuffer console in $log" "$log"
	else
		! grep -q '^[0-9.]* console: framebuffer' "$log" ||
			bench_die "the serial-only boot drew on the screen ($log)" "$log"
	fi
	S=$(pass_s "$log")
	[ -n "$S" ] || bench_die "no 'pass 1: end' line in $log" "$log"
}

# A first boot warms the host up (its caches, its clock) and is not
# counted: the first of a series ran up to 25 % slower. Then each
# alternation boots both, in turns first, and gives one ratio; the result
# is the median of the ratios, so that the host's drift between
# alternations cancels.
[ "$quick" = 1 ] || boot serial "$BENCH_DIR/screencost-warmup.log"
screen=() serial=() ratios=()
for a in $(seq 1 "$alternations"); do
	order="screen serial"
	[ $((a % 2)) = 1 ] || order="serial screen"
	for kind in $order; do
		boot "$kind" "$BENCH_DIR/screencost-$kind-$a.log"
		if [ "$kind" = screen ]; then with=$S; screen+=("$S"); else without=$S; serial+=("$S"); fi
	done
	ratios+=("$(awk -v a="$with" -v b="$without" 'BEGIN { printf "%.3f", a / b }')")
done
rm -f "$iso" "$iso_serial"

ms=$(bench_mean "${screen[@]}") mn=$(bench_mean "${serial[@]}")
ratio=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{ v[NR] = $1 } END { printf "%.3f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
{
	echo "### The status screen's cost (instrument 6)"
	echo
	echo "\`bench/screencost.sh$([ "$quick" = 1 ] && echo ' --quick') --mem $mem --alternations $alternations\`:" \
		"QEMU TCG, -m $mem, SeaBIOS, GRUB multiboot2 with gfxpayload=1920x1080x32 (font 2x), ramsift $args;" \
		"the ISO's default entry (status screen and log on the framebuffer) and its serial-only entry" \
		"booted in turns. ramsift's own pass time (time_s= of \"pass 1: end\"), seconds per run, then the mean."
	echo
	echo "| screen | pass s | mean s |"
	echo "| --- | --- | ---: |"
	echo "| status screen, 1920x1080 | ${screen[*]} | $ms |"
	echo "| console=ttyS0 only | ${serial[*]} | $mn |"
	echo
	echo "Ratio with the screen / without, per alternation: ${ratios[*]}; median **$ratio** (target <= 1.02)."
} >"$out"
echo "| 6 | status screen's cost, 1920x1080, -m $mem | pass with / without the screen, median of $alternations: **$ratio** (means $ms s / $mn s) | <= 1.02 |" >"$out.summary"
cat "$out"
