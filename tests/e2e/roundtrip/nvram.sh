#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The result kept in UEFI NVRAM and applied at the next boot, with nothing
# typed: OVMF keeps one VARS file across the boots, as a PC's NVRAM, and
# boots an ESP whose \EFI\BOOT\BOOTX64.EFI is ramsift-reserve.efi with a
# badpages.txt naming only the loader (GRUB, whose grub.cfg each step
# rewrites), on a machine QEMU names in SMBIOS (rt_machine). With faults
# held in a 512 MiB guest:
#   find      no record yet (under RT_GRUB=2.12 one of this machine's is
#             planted, its range outside the RAM: the pre-loader refuses
#             it, ramsift reads it and sees none of its pages reserved);
#             ramsift FAILs and writes RamsiftResult: the record (read from
#             the VARS file on the host) lists exactly the failing pages;
#   reserve   the pre-loader reserves them from the record alone; ramsift
#             passes without them, tests them again, finds them failing and
#             leaves the record; \EFI\ramsift\last-result.txt holds the run;
#   linux     Debian's kernel, with neither badram nor memmap=, keeps none of
#             them as System RAM, and ramsift-apply --show prints boot 1's
#             GRUB_BADRAM line;
#   healed    the faults gone: ramsift passes, the reserved pages too, and it
#             writes a PASS record;
#   after     the pre-loader reserves nothing, and ramsift reads that PASS
#             record (its date).
# Then boots that must write nothing, the record left byte for byte. Under
# RT_GRUB=2.06: nvram=off (the PASS record), a SetVariable that faults
# (test_fault=nvram-fault) over a corrupt record planted, a store Linux
# filled through efivarfs over another machine's record planted; ramsift
# and the pre-loader each say why they do not use a planted record. Under
# RT_GRUB=2.12: firmware OVMF is not, through the test hooks nvram-*.
# tests/e2e/roundtrip/nvram-preloader.sh has the other records the
# pre-loader must refuse.
. "$(dirname "$0")/lib-faults.sh"

VARSTORE=$B/host/ramsift-varstore
MKRECORD=$B/host/ramsift-mkrecord
RT_INITRD=$B/linux/apply.cpio
iso=$E2E_DIR/$E2E_NAME.iso
esp=$E2E_DIR/$E2E_NAME-esp.img
vars=$E2E_DIR/$E2E_NAME-nvram.fd
code=$E2E_DIR/$E2E_NAME-code.fd
record=$E2E_DIR/$E2E_NAME.record
tests="tests=own-address"

rt_ram 512M
rt_firmware uefi
cp /usr/share/OVMF/OVMF_CODE_4M.fd "$code"
cp /usr/share/OVMF/OVMF_VARS_4M.fd "$vars"
nvram_fw=(-drive "if=pflash,format=raw,readonly=on,file=$code" -drive "if=pflash,format=raw,file=$vars")

# cfg: grub.cfg on the ESP from stdin, after rt_iso's serial lines.
cfg() {
	local file=$E2E_DIR/$E2E_NAME.cfg
	{
		echo 'serial --unit=0 --speed=115200'
		echo 'terminal_input serial'
		echo 'terminal_output serial'
		echo 'insmod efi_gop'
		cat
	} >"$file"
	mcopy -o -i "$esp" "$file" ::/boot/grub/grub.cfg || e2e_fail "mcopy grub.cfg"
}

# ramsift_cfg [ARGS]: GRUB boots ramsift with ARGS.
ramsift_cfg() {
	cfg <<-CFG
		set timeout=0
		menuentry ramsift {
			multiboot2 /boot/ramsift.elf $RT_ARGS $tests ${1-}
		}
	CFG
}

# linux_cfg [ARGS]: GRUB boots Debian's kernel and the initramfs with ARGS
# (ramsift_fill=1: its payload fills the variable store).
linux_cfg() {
	cfg <<-CFG
		set timeout=0
		set fallback=1
		menuentry linux {
			linux /boot/vmlinuz $E2E_LINUX_ARGS ${1-}
			initrd /boot/initrd
		}
		menuentry back {
			echo "$RT_BACK"
			halt
		}
	CFG
}

# boot STEP [QEMU_ARGS]: the ESP, OVMF and the VARS file kept, on the
# machine rt_machine names (the records planted name it or another).
rt_machine nvram SN-1
boot() {
	local step=$1
	shift
	rt_boot "$step" "${RT_MEM[@]}" "${nvram_fw[@]}" "${RT_SMBIOS[@]}" -drive "format=raw,file=$esp" \
		-net none "$@"
}

# get [OUT]: RamsiftResult's bytes from the VARS file into OUT ($record).
get() {
	"$VARSTORE" "$vars" get RamsiftResult ramsift >"${1:-$record}" ||
		e2e_fail "no RamsiftResult in $vars"
}

# plant NAME [MKRECORD_OPTIONS...]: the record rt_record NAME makes of the
# description on stdin, set as RamsiftResult and copied to $record.
plant() {
	rt_record "$@"
	rt_plant "$vars"
	cp "$RT_RECORD" "$record"
}

# unchanged WHAT: RamsiftResult is byte for byte $record still.
unchanged() {
	get "$record.now"
	cmp -s "$record" "$record.now" || e2e_fail "$1: RamsiftResult changed"
}

# pages LOG: the failing pages of LOG's ERROR lines, one 0x address a line.
pages() {
	sed -nE 's/^ERROR addr=0x0*([0-9a-f]*)[0-9a-f]{3} .*/\1/p' "$1" | sort -u |
		while read -r p; do printf '0x%x\n' $((16#${p:-0} << 12)); done
}

# record_pages: the pages of $record's ranges, one 0x address a line.
record_pages() {
	"$MKRECORD" --decode <"$record" | sed -nE 's/^range 0x([0-9a-f]+)-0x([0-9a-f]+)$/\1 \2/p' |
		while read -r s e; do
			for ((p = 16#$s; p < 16#$e; p += 4096)); do printf '0x%x\n' "$p"; done
		done
}

rt_iso "$iso" linux <<<""
rt_esp "$iso" "$esp" '# the pages come from RamsiftResult'
rt_faults cells --ram 0x1000000-0xe000000 --seed 12 cells:3
rt_hold

# find: no record yet; FAIL, and the record lists exactly the failing
# pages. With GRUB 2.12, a FAIL record of this machine is there already,
# whose range lies outside the RAM: the pre-loader refuses it, ramsift
# reads it, finds none of its pages reserved, and replaces it.
[ "$RT_GRUB" = 2.06 ] || plant outside < <(rt_description nvram SN-1 FAIL 'range 0x40000000-0x40002000')
ramsift_cfg
boot find
rt_want FAIL
rt_check found "$RT_FAULTS" "$RT_LOG" --exact
found=$RT_LOG
if [ "$RT_GRUB" = 2.06 ]; then
	e2e_expect '^ramsift-reserve: no RamsiftResult variable: no ramsift record to apply$' \
		'the pre-loader found no record'
	e2e_expect '^nvram: no RamsiftResult on this machine yet$' 'no record before the first run'
else
	rt_nothing_reserved '^ramsift-reserve: RamsiftResult'"'"'s range 0x40000000-0x40001FFF is not RAM in the firmware'"'"'s memory map'
	e2e_expect '^nvram: RamsiftResult holds 2 failing pages of 2026-12-02 00:11:57 UTC, but the memory map reserves none of them: ramsift-reserve\.efi did not run before the loader \(docs/badram\.md\); they are tested like the rest$' \
		'ramsift read the record and saw none of its pages reserved'
fi
n=$(pages "$found" | wc -l)
e2e_expect "^nvram: kept $n failing pages in RamsiftResult \([0-9]+ bytes\)" 'the record written'
get
[ "$(record_pages)" = "$(pages "$found")" ] ||
	e2e_fail "the record's pages: $(record_pages | paste -sd' ') want $(pages "$found" | paste -sd' ')"
"$MKRECORD" --decode <"$record" | grep -qx 'result FAIL' || e2e_fail 'the record says FAIL'
[ "$(sed -n 's/^# //p' < <("$MKRECORD" --decode <"$record"))" = "$(grep '^ramsift: result=' "$found" | tail -n 1)" ] ||
	e2e_fail "the record's result line is not the run's"


# reserve: the pre-loader takes the pages from the record alone; ramsift
# passes without them, finds them failing still, and keeps the record.
usable=$(rt_bytes usable_bytes "$found")
boot reserve
e2e_expect "^ramsift-reserve: RamsiftResult: FAIL on [0-9-]+ [0-9:]+ UTC, $n pages in [0-9]+ ranges" \
	'the pre-loader read the record'
e2e_expect "^ramsift-reserve: $n pages reserved as EfiUnusableMemory, 0 pages already " \
	'the pre-loader took every failing page'
rt_want PASS
e2e_expect_no '^ERROR ' 'no fault left in the map'
rt_check roundtrip "$found" "$RT_LOG"
[ "$(rt_bytes tested_bytes)" = $((usable - n * 4096)) ] ||
	e2e_fail "want tested_bytes = $usable - $n pages, got $(rt_bytes tested_bytes)"
e2e_expect "^nvram: RamsiftResult holds $n failing pages of .*; the memory map reserves $n pages \(type 5\)" \
	'ramsift saw its pages reserved'
e2e_expect "^nvram: the $n pages reserved for RamsiftResult fail again " 'the reserved pages tested again'
unchanged 'the reserved pages failing again'
mcopy -n -i "$esp" ::/EFI/ramsift/last-result.txt "$E2E_DIR/$E2E_NAME-last-result.txt" ||
	e2e_fail 'no \EFI\ramsift\last-result.txt on the ESP'
for want in "$(grep '^ramsift: result=' "$found" | tail -n 1)" "$(grep '^GRUB_BADRAM=' "$found")" \
	"$(grep '^memmap=' "$found")"; do
	grep -qxF "$want" "$E2E_DIR/$E2E_NAME-last-result.txt" || e2e_fail "last-result.txt lacks: $want"
done

# linux: Debian's kernel through the pre-loader and GRUB, neither badram
# nor memmap=: no failing page is System RAM, every other page is, and
# ramsift-apply --show prints boot 1's lines.
linux_cfg
boot linux
e2e_expect "^ramsift-reserve: $n pages reserved as EfiUnusableMemory, 0 pages already " \
	'the pre-loader took every failing page'
rt_want_linux
rt_check linux "$RT_FAULTS" "$RT_LOG" "$found" badram
for line in GRUB_BADRAM= memmap= badram=; do
	grep -qxF "$(grep "^$line" "$found")" "$RT_LOG" || e2e_fail "ramsift-apply --show: no $line line as boot 1 printed it"
done
e2e_expect '^ramsift-init: /payload exited with status 0' 'ramsift-apply --show succeeded'

# healed: the faults gone, the reserved pages pass, and a PASS record.
rt_release
ramsift_cfg
boot healed
rt_want PASS
e2e_expect "^nvram: the $n pages reserved for RamsiftResult pass now: the machine is healthy" \
	'the reserved pages tested again and passing'
e2e_expect '^nvram: kept PASS in RamsiftResult' 'a PASS record written'
get
"$MKRECORD" --decode <"$record" | grep -qx 'result PASS' || e2e_fail 'the record says PASS'

# after: the pre-loader reserves nothing; ramsift reads the PASS record
# and has all the memory.
passed="$(sed -n 's/^date //p' < <("$MKRECORD" --decode <"$record")) UTC"
boot after
e2e_expect "^ramsift-reserve: the last run passed on $passed: nothing reserved from RamsiftResult\$" \
	'the pre-loader read the PASS record'
e2e_expect "^nvram: RamsiftResult holds PASS of $passed\$" 'ramsift read the PASS record'
rt_want PASS
[ "$(rt_bytes tested_bytes)" = "$usable" ] || e2e_fail "want all $usable bytes tested, got $(rt_bytes tested_bytes)"

if [ "$RT_GRUB" = 2.06 ]; then
	# Nothing written (the record there stays): nvram=off (the PASS
	# record), the firmware faulting in SetVariable (a corrupt record
	# planted: ramsift and the pre-loader name its error and offset), a
	# store that would keep less than 16 KiB free (another machine's
	# record planted: both name the machine).
	get
	ramsift_cfg nvram=off
	boot off
	rt_want PASS
	e2e_expect '^nvram: off \(nvram=off\): the result is not kept' 'nvram=off said'
	e2e_expect_no '^nvram: writing' 'no write with nvram=off'
	unchanged nvram=off

	plant corrupt --flip 40 < <(rt_description nvram SN-1 FAIL 'range 0x5000000-0x5003000')
	crc_at=$(($(stat -c %s "$record") - 4))
	ramsift_cfg test_fault=nvram-fault
	boot fault
	rt_nothing_reserved "^ramsift-reserve: RamsiftResult is not a valid record, at byte $crc_at of $((crc_at + 4)): the record's CRC does not match"
	e2e_expect "^nvram: RamsiftResult is no record ramsift reads \(the record's CRC does not match: it changed since it was written, at byte $crc_at\); it is replaced at the end\$" \
		'ramsift named the corrupt record'"'"'s error and offset'
	rt_want PASS
	e2e_expect "^nvram: the firmware's SetVariable faulted \(CPU exception 6, #UD invalid opcode, " \
		'the fault in SetVariable caught and named'
	[[ $(tail -n 1 "$RT_LOG") =~ ^ramsift:\ result=PASS\  ]] || e2e_fail 'the result line last after the fault'
	unchanged 'a faulting SetVariable'

	plant foreign < <(rt_description nvram SN-2 FAIL 'range 0x5000000-0x5003000')
	# OVMF reclaims the store's garbage at boot, not at run time: first as
	# at a boot (ramsift-varstore reclaim), so that what Linux leaves free
	# is what the next boot finds, not that plus a reclaim.
	"$VARSTORE" "$vars" reclaim >/dev/null || e2e_fail "reclaim $vars"
	linux_cfg ramsift_fill=1
	boot fill
	e2e_expect '^apply-guest: filled the UEFI variable store with [0-9]+ variables, [0-9]+ bytes, until Linux refused more: No space left on device$' \
		'Linux filled the store'
	e2e_expect '^ramsift-init: /payload exited with status 0' 'the fill succeeded'
	[[ $("$VARSTORE" "$vars" list) == *' RamsiftFiller0'$'\n'* ]] || e2e_fail "Linux's fillers are not in $vars"
	ramsift_cfg
	boot full
	rt_nothing_reserved "^ramsift-reserve: RamsiftResult was written on another machine, manufacturer=\"ramsift-test\" product=\"nvram\" serial=\"SN-2\" uuid=$RT_UUID; this one is manufacturer=\"ramsift-test\" product=\"nvram\" serial=\"SN-1\" uuid=$RT_UUID: nothing reserved from it"
	e2e_expect '^nvram: RamsiftResult was written on another machine \("ramsift-test" "nvram" serial "SN-2"\); it is replaced at the end$' \
		'ramsift named the machine of the record'
	rt_want PASS
	e2e_expect '^nvram: the UEFI variable store has [0-9]+ KiB free of [0-9]+ KiB; writing [0-9]+ bytes would leave less than 16 KiB' \
		'a nearly full store left alone'
	unchanged 'a nearly full store'
	for v in $("$VARSTORE" "$vars" list | sed -nE 's/.* (RamsiftFiller[0-9]+)$/\1/p'); do
		"$VARSTORE" "$vars" delete "$v" ramsift || e2e_fail "delete $v"
	done
else
	# Firmware OVMF is not, through the test hooks: no QueryVariableInfo
	# (before UEFI 2.0), one or SetVariable returning an error, a
	# GetVariable that faults, a 32-bit system table. Each boot passes,
	# says why it keeps nothing, and leaves the PASS record as it was.
	declare -A said=(
		[no-query]="the firmware \(UEFI revision 0x[0-9a-f]+\) has no QueryVariableInfo to say how full its variable store is; nothing kept"
		[query-error]="the firmware's QueryVariableInfo returned EFI_DEVICE_ERROR \(0x8000000000000007\); nothing kept\$"
		[set-error]="the firmware's SetVariable returned EFI_DEVICE_ERROR \(0x8000000000000007\); nothing kept: "
		[get-fault]="the firmware's GetVariable faulted at the start, so SetVariable is not called: nothing kept"
		[efi32]="the loader passed a 32-bit EFI system table, which ramsift cannot call; nothing kept\$"
	)
	get
	for hook in no-query query-error set-error get-fault efi32; do
		ramsift_cfg "test_fault=nvram-$hook"
		boot "$hook"
		rt_want PASS
		e2e_expect "^nvram: ${said[$hook]}" "nvram-$hook: why nothing was kept"
		[ "$hook" != get-fault ] ||
			e2e_expect "^nvram: the firmware's GetVariable faulted \(CPU exception 6, #UD invalid opcode, at rip=0x[0-9a-f]+\); the result cannot be kept: boot with nvram=off\$" \
				'nvram-get-fault: the fault caught and named at the start'
		[[ $(tail -n 1 "$RT_LOG") =~ ^ramsift:\ result=PASS\  ]] || e2e_fail "nvram-$hook: the result line last"
		unchanged "test_fault=nvram-$hook"
	done
fi
