#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# ramsift-reserve.efi applying the record in RamsiftResult under OVMF. Each
# boot plants a record made by build/host/ramsift-mkrecord in a fresh copy
# of OVMF's variables (build/host/ramsift-varstore) and boots a FAT ESP
# (mtools) whose \EFI\BOOT\BOOTX64.EFI is the pre-loader, next to a
# badpages.txt holding only loader=, naming a stand-alone GRUB that says
# it runs and then halts or boots ramsift. A valid FAIL record: its pages
# reserved (ramsift, booted next, finds them missing from its map) and
# last-result.txt written, and left alone by a second boot with the same
# record; a record whose pages are cut short: its pairs reserved too, with
# badpages.txt's pairs, a page of both counted once. A corrupt record,
# another machine's, one too large, one with a range outside RAM, one of
# more than half the RAM and a PASS record reserve nothing and say why; on
# a read-only ESP last-result.txt is said not written. The loader starts
# every time.
. "$(dirname "$0")/lib-faults.sh"

RESERVE=$B/ramsift-reserve.efi
esp=$E2E_DIR/$E2E_NAME-esp.img
vars=$E2E_DIR/$E2E_NAME-vars.fd	# e2e_uefi's copy of OVMF's variables
text=$E2E_DIR/$E2E_NAME-last-result.txt
started='ramsift-test: GRUB started by the pre-loader'

# loader OUT GRUB_LINES: a stand-alone GRUB EFI image at OUT that prints
# $started on the serial port, then runs GRUB_LINES; ramsift.elf is in its
# memdisk as /boot/ramsift.elf.
loader() {
	local cfg=$1.cfg
	printf '%s\n' 'serial --unit=0 --speed=115200' 'terminal_input serial' \
		'terminal_output serial' "echo \"$started\"" "$2" >"$cfg"
	grub-mkstandalone -O x86_64-efi ${RT_GRUB_DIR:+-d "$RT_GRUB_DIR/x86_64-efi"} -o "$1" \
		--fonts= --locales= --themes= "boot/grub/grub.cfg=$cfg" "boot/ramsift.elf=$ELF" \
		>"$1.log" 2>&1 || { cat "$1.log" >&2; e2e_fail "grub-mkstandalone $1"; }
	rm -f "$cfg" "$1.log"
}

# esp WORDS LOADER: a FAT ESP at $esp: the pre-loader as \EFI\BOOT\BOOTX64.EFI,
# badpages.txt next to it holding WORDS and loader=\EFI\BOOT\grubx64.efi,
# which is LOADER.
esp() {
	local words=$E2E_DIR/$E2E_NAME-badpages.txt
	printf '%s\nloader=\\EFI\\BOOT\\grubx64.efi\n' "$1" >"$words"
	rm -f "$esp"
	mformat -i "$esp" -C -T 65536 -h 64 -s 32 -v ESP :: >/dev/null || e2e_fail "mformat $esp"
	mmd -i "$esp" ::/EFI ::/EFI/BOOT
	mcopy -i "$esp" "$RESERVE" ::/EFI/BOOT/BOOTX64.EFI
	mcopy -i "$esp" "$words" ::/EFI/BOOT/badpages.txt
	mcopy -i "$esp" "$2" ::/EFI/BOOT/grubx64.efi
	rm -f "$words"
}

# boot STEP [QEMU_ARGS...]: fresh UEFI variables holding RT_RECORD, then boot
# the ESP (the drive options in the array disk) on the machine $RT_SMBIOS
# names; the pre-loader must have started the loader.
boot() {
	local step=$1
	shift
	rt_firmware uefi
	rt_plant "$vars"
	rt_boot "$step" -m 256M "${RT_FW[@]}" "${RT_SMBIOS[@]}" "${disk[@]}" -net none "$@"
	e2e_expect '^ramsift-reserve: starting \\EFI\\BOOT\\grubx64\.efi$' 'the pre-loader started the loader'
	e2e_expect "^$started\$" 'GRUB ran'
}

# last_result: copy \EFI\ramsift\last-result.txt out of the ESP to $text,
# keeping its time.
last_result() {
	rm -f "$text"
	mcopy -m -i "$esp" ::/EFI/ramsift/last-result.txt "$text" || e2e_fail "no last-result.txt on the ESP"
}

# text_expect ERE WHAT: a line of $text matches.
text_expect() {
	grep -Eq -- "$1" "$text" || { cat "$text" >&2; e2e_fail "last-result.txt: $2: no line matches /$1/"; }
}

# not_in_ramsift START END: no usable range of ramsift's map meets the
# pages [START, END] (hex, inclusive).
not_in_ramsift() {
	local s e
	while read -r s e; do
		((16#$s > 16#$2 || 16#$e < 16#$1)) ||
			e2e_fail "ramsift tested 0x$s-0x$e, which holds the reserved 0x$1-0x$2"
	done < <(sed -nE 's/^  usable 0x([0-9a-f]+)-0x([0-9a-f]+) .*/\1 \2/p' "$RT_LOG")
}

# The GRUB that halts powers the VM off without a ramsift result line: its
# boots show "result=QEMU failed" in their line, as they should.
disk=(-drive "format=raw,file=$esp")
halt_efi=$E2E_DIR/$E2E_NAME-halt.efi
ramsift_efi=$E2E_DIR/$E2E_NAME-ramsift.efi
loader "$halt_efi" halt
loader "$ramsift_efi" "multiboot2 /boot/ramsift.elf $RT_ARGS tests=own-address
boot"
rt_machine nvram-preloader SN-1
fail_pages='range 0x5000000-0x5003000
range 0x5800000-0x5801000
page 0x6000000'

# A FAIL record: its 5 pages reserved, the file written; ramsift, booted
# next through GRUB, does not see them.
rt_record fail < <(rt_description nvram-preloader SN-1 FAIL "$fail_pages")
esp "" "$ramsift_efi"
boot fail -rtc base=2026-12-02T01:00:00
e2e_expect '^ramsift-reserve: RamsiftResult: FAIL on 2026-12-02 00:11:57 UTC, 5 pages in 3 ranges$' \
	'the record named'
e2e_expect '^ramsift-reserve: reserved 0x5000000-0x5002FFF \(3 pages\)$' 'the 3-page range reserved'
e2e_expect '^ramsift-reserve: reserved 0x6000000-0x6000FFF \(1 pages\)$' 'the page reserved'
e2e_expect '^ramsift-reserve: 5 pages reserved as EfiUnusableMemory, 0 pages already in use could not be taken$' \
	'all 5 pages reserved'
e2e_expect '^ramsift-reserve: wrote the record as text to \\EFI\\ramsift\\last-result\.txt \([0-9]+ bytes\)$' \
	'last-result.txt written'
rt_want PASS
not_in_ramsift 5000000 5002fff
not_in_ramsift 5800000 5800fff
not_in_ramsift 6000000 6000fff
last_result
text_expect '^ramsift: result=FAIL passes=1 errors=7 tested_bytes=247463936 usable_bytes=247463936 elapsed_s=61\.234 version=v-test$' \
	'the result line'
text_expect '^date: 2026-12-02 00:11:57 UTC$' 'the date'
text_expect "^machine: manufacturer=\"ramsift-test\" product=\"nvram-preloader\" serial=\"SN-1\" uuid=$RT_UUID\$" \
	'the machine'
text_expect '^0x5000000-0x5002fff \(3 pages\)$' 'a range'
text_expect '^0x6000000-0x6000fff \(1 pages\)$' 'the last range'
text_expect '^GRUB_BADRAM="0x[0-9a-f]+,0x[0-9a-f]+' 'the GRUB_BADRAM= line'
text_expect '^memmap=12K\$0x5000000,4K\$0x5800000,4K\$0x6000000$' 'the memmap= line'
written=$(stat -c %Y "$text")
cp "$text" "$text.first"

# The same record again, a year later: the pages reserved again, the file
# left as it was.
mcopy -o -i "$esp" "$halt_efi" ::/EFI/BOOT/grubx64.efi
boot same -rtc base=2027-12-02T01:00:00
e2e_expect '^ramsift-reserve: 5 pages reserved as EfiUnusableMemory, 0 pages already in use could not be taken$' \
	'the pages reserved again'
e2e_expect '^ramsift-reserve: \\EFI\\ramsift\\last-result\.txt already holds this record: not rewritten$' \
	'the file left alone'
last_result
cmp -s "$text" "$text.first" && [ "$(stat -c %Y "$text")" = "$written" ] ||
	e2e_fail "last-result.txt was rewritten by a boot with the same record"
rm -f "$text.first"

# A corrupt record (a byte flipped): the CRC, at its end, says so.
rt_record corrupt --flip 40 < <(rt_description nvram-preloader SN-1 FAIL "$fail_pages")
crc_at=$(($(stat -c %s "$RT_RECORD") - 4))
boot corrupt
rt_nothing_reserved "^ramsift-reserve: RamsiftResult is not a valid record, at byte $crc_at of $((crc_at + 4)): the record's CRC does not match"

# Another machine's: whose it is.
rt_record fail < <(rt_description nvram-preloader SN-1 FAIL "$fail_pages")
rt_machine nvram-preloader SN-2
boot foreign
rt_nothing_reserved "^ramsift-reserve: RamsiftResult was written on another machine, manufacturer=\"ramsift-test\" product=\"nvram-preloader\" serial=\"SN-1\" uuid=$RT_UUID; this one is manufacturer=\"ramsift-test\" product=\"nvram-preloader\" serial=\"SN-2\" uuid=$RT_UUID: nothing reserved from it"
rt_machine nvram-preloader SN-1

# A variable larger than any record: not read.
rt_record large --pad 5000 < <(rt_description nvram-preloader SN-1 FAIL "$fail_pages")
boot large
rt_nothing_reserved "^ramsift-reserve: RamsiftResult holds 5000 bytes, more than a record's 4096: not read"

# A range beyond the guest's 256 MiB.
rt_record outside < <(rt_description nvram-preloader SN-1 FAIL "$fail_pages
range 0x40000000-0x40001000")
boot outside
rt_nothing_reserved '^ramsift-reserve: RamsiftResult'"'"'s range 0x40000000-0x40000FFF is not RAM in the firmware'"'"'s memory map'

# 144 MiB of the 256: more than half.
rt_record half < <(rt_description nvram-preloader SN-1 FAIL 'range 0x1000000-0xa000000')
boot half
rt_nothing_reserved '^ramsift-reserve: RamsiftResult'"'"'s pages \(144 MiB\) and those the pairs of badpages\.txt and the load options match \(0 MiB\) are more than half of the [0-9]+ MiB of RAM'

# A PASS record: nothing to reserve, and its text written.
rt_record pass < <(rt_description nvram-preloader SN-1 PASS '')
boot pass
e2e_expect '^ramsift-reserve: RamsiftResult: PASS on 2026-12-02 00:11:57 UTC$' 'the record named'
rt_nothing_reserved '^ramsift-reserve: the last run passed on 2026-12-02 00:11:57 UTC: nothing reserved from RamsiftResult$'
e2e_expect '^ramsift-reserve: wrote the record as text to ' 'last-result.txt written for the PASS record'
last_result
text_expect '^ramsift: result=PASS ' 'the PASS result line'

# Pages cut short: the listed page and the pages its pairs match (it
# again, and one more), with badpages.txt's pairs, which match the listed
# page again and one more: 3 pages, each counted once.
rt_record cut < <(rt_description nvram-preloader SN-1 FAIL 'page 0x5000000
failing_pages 2
cut
pairs 0x5000000,0x7ffffffffffff000,0x7000000,0x7ffffffffffff000')
esp 'badram=0x5000000,0x7ffffffffffff000,0x7800000,0x7ffffffffffff000' "$halt_efi"
boot cut
e2e_expect '^ramsift-reserve: RamsiftResult lists 1 of the 2 failing pages; its 2 pairs cover the rest: the pages they match are reserved too$' \
	'the cut record said so'
e2e_expect '^ramsift-reserve: reserved 0x7000000-0x7000FFF \(1 pages\)$' 'the page of the record'"'"'s pair'
e2e_expect '^ramsift-reserve: reserved 0x7800000-0x7800FFF \(1 pages\)$' 'the page of badpages.txt'"'"'s pair'
e2e_expect '^ramsift-reserve: 3 pages reserved as EfiUnusableMemory, 0 pages already in use could not be taken$' \
	'the union, each page once'

# A new record (the ESP holds the cut one's text) on a medium the firmware
# cannot write: said, and the boot goes on.
rt_record pass < <(rt_description nvram-preloader SN-1 PASS '')
disk=(-drive "if=none,id=esp,format=raw,readonly=on,file=$esp" -device virtio-blk-pci,drive=esp)
boot readonly
e2e_expect '^ramsift-reserve: cannot write \\EFI\\ramsift\\last-result\.txt: .*: not written; the record stays in NVRAM$' \
	'the read-only volume said'
