#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A framebuffer above 4 GiB, inside what the memory map calls usable RAM, as
# some loaders report it: tests/screen/fb-high-stub.S hands ramsift 1024x768
# xRGB at 0x100400000 in a 4 GiB machine (QEMU puts its last GiB at 4 GiB).
# The boot page tables do not reach it, so ramsift draws it only once its own
# tables map it (write-combining, split out of a 1 GiB page: -cpu max has
# them); it must leave it out of usable RAM and test none of it (own-address
# over the whole of RAM would write its patterns over the text and find
# errors in it). At the halt, the framebuffer's bytes, read through QEMU's
# monitor, must show the result panel (its QR code decodes to the result
# line) over the log's last line, and its pages, and only they, must select
# the PAT's write-combining entry.
. "$(dirname "$0")/lib.sh"
. tests/screen/lib.sh

stub=$E2E_DIR/fb-high-stub.elf
dump=$E2E_DIR/$E2E_NAME.fb
[ -f "$stub" ] || e2e_fail "$stub is missing: make $stub"
screen_start -machine pc,max-ram-below-4g=256M -m 768M -cpu max -kernel "$stub" -device "loader,file=$ELF" \
	-append "console=ttyS0,115200 console=tty0 onexit=halt bitfade=0 tests=own-address"
screen_wait_end 'the run ends (its result line is the last)'
e2e_expect '^console: framebuffer 1024x768x32 at 0x100400000: 128x48 text$' \
	'the framebuffer console on the stub'"'"'s framebuffer'
e2e_expect '^memory: the framebuffer 0x0000000100400000-0x00000001006fffff lies in usable RAM; it is not tested$' \
	'the framebuffer left out of usable RAM'
e2e_expect '^paging: identity map 0-5 GiB with 1 GiB pages; tables at 0x[0-9a-f]+; framebuffer write-combining$' \
	'the framebuffer mapped write-combining out of a 1 GiB page'
while read -r start last; do
	(((16#$last) < 0x100400000 || (16#$start) > 0x1006fffff)) ||
		e2e_fail "the usable range 0x$start-0x$last overlaps the framebuffer"
done < <(sed -nE 's/^  usable 0x([0-9a-f]+)-0x([0-9a-f]+) .*/\1 \2/p' "$E2E_LOG")
line=$(grep '^ramsift: result=' "$E2E_LOG") || e2e_fail "no result line"
[[ $line =~ ^ramsift:\ result=PASS\ passes=1\ errors=0\ tested_bytes=([0-9]+)\ usable_bytes=([0-9]+)\  ]] &&
	[ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] ||
	e2e_fail "result line: want PASS, no errors, tested_bytes = usable_bytes, got: $line"
for try in 1 2 3; do
	screen_monitor stop
	screen_log
	rm -f "$dump"
	screen_monitor "pmemsave 0x100400000 $((1024 * 768 * 4)) $dump"
	screen_wait_file "$dump" $((1024 * 768 * 4))
	if out=$("$SCREENCHECK" fbraw "$dump" 1024x768 128x48 1 "$E2E_LOG" top=46 "$E2E_DIR/$E2E_NAME.png" 2>&1); then
		break
	fi
	[ "$try" -lt 3 ] || { echo "$out" >&2; e2e_fail "the framebuffer does not show the log's last line under the result panel"; }
	screen_monitor cont
	sleep 0.5
done
echo "    $E2E_NAME: ${out##*$'\n'screencheck: }"
screen_check_qr "$E2E_DIR/$E2E_NAME.png" "the result panel on the framebuffer above 4 GiB"
echo "    $E2E_NAME: the result panel's QR code holds the result line"
# The page tables (QEMU's `info tlb`: one line a page, flags T for PWT, that
# is PAT entry 1, WC): exactly the framebuffer's 768 pages, 4 KiB each.
tlb=$E2E_DIR/$E2E_NAME.tlb
screen_monitor_answer "info tlb" "$tlb"
pwt=$(grep -E '^[0-9a-f]{16}: [0-9a-f]{16} [-A-Z]*T' "$tlb" | cut -d: -f1) || true
wc=$(grep -c . <<<"$pwt") || true
first=$(head -n 1 <<<"$pwt")
last=$(tail -n 1 <<<"$pwt")
[ "$wc:$first:$last" = 768:0000000100400000:00000001006ff000 ] ||
	e2e_fail "write-combining pages: want the 768 from 0x100400000 to 0x1006ff000, got $wc from 0x$first to 0x$last ($tlb)"
echo "    $E2E_NAME: the framebuffer's 768 pages, and only they, have PWT (PAT entry 1, WC)"
rm -f "$dump" "$tlb"
screen_monitor quit
screen_end
