#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A result too long for one QR code: 120 stuck bits on 120 pages spread at
# random, patterns=64 and holes=1000, so that GRUB_BADRAM= holds 64 pairs and
# memmap= 120 ranges, together more than QR version 40-L holds (2953
# bytes). SeaBIOS, the ISO's default entry, 1024x768x32. The log must say
# that the QR code leaves out the memmap= line (right before the halt is
# announced, which comes before the json: line; the nvram: line apart),
# and the code on the result panel must decode to exactly the result line
# and the GRUB_BADRAM= line.
. "$(dirname "$0")/lib.sh"
. tests/screen/lib.sh

iso=$E2E_DIR/$E2E_NAME.iso
sh iso/mkiso.sh -t 0 -a "onexit=halt bitfade=0 tests=own-address patterns=64 holes=1000 errors=10" \
	"$ELF" "$iso" || e2e_fail "no ISO"
# Pages from a fixed pseudo-random sequence over 288-991 MiB: no structure
# for the fold to merge, and above where Linux loads its kernel without
# KASLR (so memmap= is not kept to 4 ranges).
x=12345
faults=()
for i in $(seq 120); do
	x=$(((x * 1103515245 + 12345) % 2147483648))
	faults+=("$(printf '0x%x:3:1' $((0x12000000 + (x % 180000) * 4096 + 0x100)))")
done
e2e_hold 1G "${faults[@]}"
screen_start "${E2E_HELD[@]}" -cdrom "$iso"
screen_wait_end 'the run ends (its result line is the last; then it waits for a key)'
e2e_expect '^fold: failing_pages=1[0-9][0-9] ' 'the pages found'
n=$(grep '^ramsift: result=\|^GRUB_BADRAM=\|^memmap=' "$E2E_LOG" | wc -c)
[ "$n" -gt 2953 ] || e2e_fail "the three lines take $n bytes: not more than QR version 40-L holds"
[ "$(grep -v '^nvram: ' "$E2E_LOG" | grep -B1 '^ramsift: halted; ' | head -n 1)" = \
	"summary: the screen's QR code leaves out the memmap= line: the whole text would need more than QR version 40-L holds (2953 bytes)" ] ||
	e2e_fail "no summary line saying the QR code leaves out memmap= right before the halt is announced"
shot=$E2E_DIR/$E2E_NAME.ppm
screen_dump "$shot"
"$SCREENCHECK" png "$shot" "$E2E_DIR/$E2E_NAME.png" >/dev/null || e2e_fail "blank screen"
printf '%s\n%s\n' "$(grep '^ramsift: result=' "$E2E_LOG")" "$(grep '^GRUB_BADRAM=' "$E2E_LOG")" >"$shot.want"
zbarimg --raw -q -Sdisable -Sqrcode.enable "$shot" >"$shot.qr" 2>/dev/null || e2e_fail "zbarimg finds no QR code"
cmp -s "$shot.qr" "$shot.want" || e2e_fail "the QR code holds other text than the result and GRUB_BADRAM= lines ($shot.qr)"
echo "    $E2E_NAME: the QR code holds the result line and GRUB_BADRAM= ($(wc -c <"$shot.qr") bytes), memmap= left out and said so"
rm -f "$shot" "$shot.qr" "$shot.want" "$iso"
screen_monitor quit
screen_end
