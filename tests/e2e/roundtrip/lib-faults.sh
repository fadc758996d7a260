# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers of the fault round-trip scenarios (tests/e2e/roundtrip/*.sh), on
# top of tests/e2e/lib.sh (sourced first): guest RAM in a shared file with
# faults held in it by build/host/ramsift-inject, seeded fault sets from
# build/host/ramsift-faultgen, GRUB media built on the fly with the exact
# badram= pairs a run printed, a boot per step whose log is kept as
# build/test/<scenario>-<step>.log, the judge build/host/ramsift-check, and
# the NVRAM records planted for a machine QEMU names in SMBIOS.
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

RT_INJECT=$B/host/ramsift-inject
RT_FAULTGEN=$B/host/ramsift-faultgen
RT_CHECK=$B/host/ramsift-check
RT_INITRD=$B/linux/initramfs.cpio

# The GRUB and the kernel a scenario runs against, as users run them:
# RT_GRUB=2.06 (this machine's, Debian 12's, its own /usr/lib/grub) or 2.12
# (Debian 13's images, fetched by tests/linux/fetch-debian13.sh into
# build/debian13/grub; its media are built for one firmware, RT_PLATFORM);
# RT_LINUX=6.1 (Debian 12's kernel, build/linux) or 6.12 (Debian 13's,
# build/debian13/linux). A scenario run with other than 2.06 and 6.1 is
# named after them: grub-roundtrip-grub2.12, linux-roundtrip-grub2.12-linux6.12
# (its logs build/test/<that name>-<step>.log).
RT_GRUB=${RT_GRUB:-2.06} RT_LINUX=${RT_LINUX:-6.1}
case $RT_GRUB in
2.06) RT_GRUB_DIR= ;;
2.12) RT_GRUB_DIR=$B/debian13/grub/usr/lib/grub ;;
*) e2e_fail "RT_GRUB=$RT_GRUB: want 2.06 or 2.12" ;;
esac
case $RT_LINUX in
6.1) RT_KERNEL=$B/linux/vmlinuz ;;
6.12) RT_KERNEL=$B/debian13/linux/vmlinuz ;;
*) e2e_fail "RT_LINUX=$RT_LINUX: want 6.1 or 6.12" ;;
esac
[ "$RT_GRUB" = 2.06 ] || E2E_NAME=$E2E_NAME-grub$RT_GRUB
[ "$RT_LINUX" = 6.1 ] || E2E_NAME=$E2E_NAME-linux$RT_LINUX
E2E_LOG=$E2E_DIR/$E2E_NAME.log
# A scenario's files in build/test (logs, media, UEFI variables, results)
# have fixed names: a second run of the same scenario (the same RT_GRUB and
# RT_LINUX, or bench/consumer.sh with and without --check) waits for the
# first. The lock's descriptor is not handed to the injector, which may
# outlive a killed scenario.
exec {rt_lock}>"$E2E_DIR/$E2E_NAME.lock"
flock -n "$rt_lock" || {
	echo "$E2E_NAME: waiting for another run of $E2E_NAME ($E2E_DIR/$E2E_NAME.lock)" >&2
	flock "$rt_lock"
}
# What ramsift's loader: line names: the GRUB that booted it, by version.
RT_LOADER="GRUB ${RT_GRUB/./\\.}[^,]*"
# ramsift's options in every round-trip boot: every ERROR line printed. The
# scenarios add tests=: own-address finds a stuck bit with one read (one
# ERROR line per faulty word) in 4 accesses a word, march-c in 46.
RT_ARGS="console=ttyS0,115200 $E2E_ARGS errors=1000000"
rt_inj= RT_HELD= RT_RAMFILE= RT_DECOY=

rt_cleanup() {
	rt_release
	rm -f "$RT_RAMFILE" "$RT_DECOY"
	rm -rf "$E2E_DIR/$E2E_NAME.root"
}
# Keep the exit status for e2e_report, which reads it from $? (set +e: a
# failed scenario exits under set -e, and (exit 1) must not end the trap).
trap 'rt_status=$?; set +e; rt_cleanup; (exit $rt_status); e2e_report' EXIT

# rt_ram SIZE: guest RAM of SIZE (QEMU's -m syntax, e.g. 256M) in a fresh
# shared file; sets the array RT_MEM to the QEMU options that use it. The
# file is in /dev/shm, or under build/test when /dev/shm is smaller than
# SIZE (containers often give it 64 MiB).
rt_ram() {
	local dir=/dev/shm bytes
	bytes=$(numfmt --from=iec "$1")
	[ "$(df --output=avail -B1 "$dir" 2>/dev/null | tail -n 1)" -gt "$bytes" ] 2>/dev/null ||
		dir=$E2E_DIR
	[ -z "$RT_RAMFILE" ] || rm -f "$RT_RAMFILE"
	RT_RAMFILE=$dir/ramsift-$E2E_NAME-$$.ram
	truncate -s "$1" "$RT_RAMFILE"
	RT_MEM=(-m "$1" -object "memory-backend-file,id=mem,size=$1,mem-path=$RT_RAMFILE,share=on"
		-machine memory-backend=mem)
}

# rt_faults NAME FAULTGEN_ARGS...: generate a fault set into
# build/test/<scenario>-NAME.faults and set RT_FAULTS to its path.
rt_faults() {
	RT_FAULTS=$E2E_DIR/$E2E_NAME-$1.faults
	shift
	"$RT_FAULTGEN" "$@" >"$RT_FAULTS" || e2e_fail "ramsift-faultgen $*"
}

# rt_hold [FILE]: hold the faults of $RT_FAULTS in FILE, by default the
# guest's RAM file (replacing any held before), until rt_release. RT_HELD
# is the file held.
rt_hold() {
	rt_release
	RT_HELD=${1:-$RT_RAMFILE}
	"$RT_INJECT" --file "$RT_HELD" --faults "$RT_FAULTS" {rt_lock}>&- &
	rt_inj=$!
}

# rt_decoy: RT_DECOY, a file of the RAM file's size that no VM uses (removed
# at exit): faults held there cost the host what they cost in the RAM file,
# for a VM that must run as a faulty one does, without the faults.
rt_decoy() {
	RT_DECOY=${RT_RAMFILE%.ram}-decoy.ram
	truncate -r "$RT_RAMFILE" "$RT_DECOY"
}

rt_release() {
	[ -z "$rt_inj" ] || { kill "$rt_inj" 2>/dev/null; wait "$rt_inj" 2>/dev/null || true; }
	rt_inj= RT_HELD=
}

# rt_boot STEP QEMU_ARGS...: e2e_boot, then keep the log as
# build/test/<scenario>-STEP.log (RT_LOG) and print the step's time.
rt_boot() {
	local step=$1 t0=${EPOCHREALTIME/[.,]/} us
	shift
	e2e_boot "$@"
	RT_LOG=$E2E_DIR/$E2E_NAME-$step.log
	cp "$E2E_LOG" "$RT_LOG"
	us=$((${EPOCHREALTIME/[.,]/} - t0))
	printf '          %-34s result=%-12s %4d.%d s\n' "$E2E_NAME/$step" "${E2E_RESULTS[$E2E_RESULT]}" \
		$((us / 1000000)) $((us / 100000 % 10))
}

# rt_want RESULT: ramsift's boot ended with RESULT (PASS or FAIL): QEMU's
# exit status and exactly one result line say so.
rt_want() {
	[ "${E2E_RESULTS[$E2E_RESULT]}" = "$1" ] ||
		e2e_fail "want $1, got ${E2E_RESULTS[$E2E_RESULT]}"
	[ "$(e2e_results "$1 ")" -eq 1 ] ||
		e2e_fail "want exactly one line 'ramsift: result=$1'"
}

# rt_want_linux: Debian's kernel reached tests/linux/init.c, which ended the
# VM through isa-debug-exit (a kernel panic reboots: QEMU failed).
rt_want_linux() {
	[ "${E2E_RESULTS[$E2E_RESULT]}" = PASS ] ||
		e2e_fail "Linux: want the init's exit, got ${E2E_RESULTS[$E2E_RESULT]}"
	e2e_expect '^ramsift-init: end meminfo' 'the init printed what the kernel kept'
}

# rt_check MODE ARGS...: run ramsift-check (its findings go to the
# terminal); fail the scenario when a check fails.
rt_check() {
	"$RT_CHECK" "$@" | sed 's/^/          /' || e2e_fail "ramsift-check $*"
}

# rt_known WHY MODE ARGS...: a check that fails today because of a known
# defect (WHY, one line, said in docs/testing.md, KNOWN): its failure is printed as KNOWN
# and does not fail the scenario; should it pass, the scenario fails, so the
# expectation is revisited when the defect is gone.
rt_known() {
	local why=$1
	shift
	if "$RT_CHECK" "$@" >"$E2E_DIR/$E2E_NAME.known" 2>&1; then
		cat "$E2E_DIR/$E2E_NAME.known"
		e2e_fail "known defect no longer seen (update the test and docs/testing.md): $why"
	fi
	grep -E '^check: FAILED' "$E2E_DIR/$E2E_NAME.known" | sed 's/^/          /'
	echo "          KNOWN: $why"
}

# rt_line PREFIX: the text after PREFIX on the log's only line starting
# with it (badram=, memmap=, fold: ...).
rt_line() {
	local n
	n=$(grep -c "^$1" "$E2E_LOG") || true
	[ "$n" -eq 1 ] || e2e_fail "want one line starting with '$1', got $n"
	sed -n "s/^$1//p" "$E2E_LOG"
}

# rt_bytes FIELD [LOG]: the number after FIELD= in the (last) result line.
rt_bytes() {
	sed -nE "s/^ramsift: result=.* $1=([0-9]+) .*/\1/p" "${2:-$E2E_LOG}" | tail -n 1
}

# rt_iso OUT [linux [VERSION]]: build a GRUB medium (grub-mkrescue: BIOS and
# UEFI; with RT_GRUB=2.12 for the firmware rt_firmware chose) holding ramsift.elf (and with linux, Debian's kernel and the
# test initramfs as /boot/vmlinuz, /boot/initrd, or with VERSION under the
# names Debian installs them as, /boot/vmlinuz-VERSION and
# /boot/initrd.img-VERSION), whose grub.cfg is: serial console, then the
# lines read from stdin (timeout, badram, menuentry).
rt_iso() {
	local root=$E2E_DIR/$E2E_NAME.root
	rm -rf "$root"
	mkdir -p "$root/boot/grub"
	cp "$ELF" "$root/boot/ramsift.elf"
	if [ "${2-}" = linux ] && [ -n "${3-}" ]; then
		cp "$RT_KERNEL" "$root/boot/vmlinuz-$3"
		cp "$RT_INITRD" "$root/boot/initrd.img-$3"
	elif [ "${2-}" = linux ]; then
		cp "$RT_KERNEL" "$root/boot/vmlinuz"
		cp "$RT_INITRD" "$root/boot/initrd"
	fi
	{
		echo 'serial --unit=0 --speed=115200'
		echo 'terminal_input serial'
		echo 'terminal_output serial'
		echo 'if [ "$grub_platform" = efi ]; then insmod efi_gop; fi'
		cat
	} >"$root/boot/grub/grub.cfg"
	[ -z "$RT_GRUB_DIR" ] || [ -n "${RT_PLATFORM-}" ] ||
		e2e_fail "rt_iso: GRUB $RT_GRUB's medium is for one firmware: call rt_firmware first"
	grub-mkrescue ${RT_GRUB_DIR:+-d "$RT_GRUB_DIR/$RT_PLATFORM"} \
		--fonts= --themes= --locales= -o "$1" "$root" >"$1.log" 2>&1 ||
		{ cat "$1.log" >&2; e2e_fail "grub-mkrescue $1"; }
	rm -rf "$root" "$1.log"
}

# rt_boot_iso STEP ISO: rt_boot from ISO (rt_iso) as the guest's CD, with
# the guest's RAM (rt_ram) and firmware (rt_firmware).
rt_boot_iso() {
	rt_boot "$1" "${RT_MEM[@]}" "${RT_FW[@]}" -cdrom "$2"
}

# rt_find STEP [CHECK_ARGS...]: hold $RT_FAULTS in the guest's RAM (until
# the next rt_hold or rt_release) and boot ramsift (multiboot2,
# tests=own-address) through GRUB from build/test/<scenario>-find.iso; it
# must fail having found exactly those faults (ramsift-check found ...
# CHECK_ARGS). Sets RT_BADRAM and RT_MEMMAP to what its badram= and memmap=
# lines say; RT_LOG is its log.
rt_find() {
	local step=$1 iso=$E2E_DIR/$E2E_NAME-find.iso
	shift
	rt_hold
	rt_iso "$iso" <<-CFG
		set timeout=0
		menuentry find {
			multiboot2 /boot/ramsift.elf $RT_ARGS tests=own-address
		}
	CFG
	rt_boot_iso "$step" "$iso"
	rt_want FAIL
	rt_check found "$RT_FAULTS" "$RT_LOG" "$@"
	RT_BADRAM=$(rt_line badram=)
	RT_MEMMAP=$(rt_line memmap=)
}

# What the fallback entry of rt_linux_iso's grub.cfg prints.
RT_BACK="ramsift-test: the kernel returned to GRUB"

# rt_linux_iso OUT GRUB_LINES KERNEL_ARGS: a GRUB medium (rt_iso OUT linux)
# whose grub.cfg runs GRUB_LINES (`badram PAIRS`, or nothing), then boots
# Debian's kernel and the test initramfs with E2E_LINUX_ARGS and
# KERNEL_ARGS, each $ in them written \$ for grub.cfg (docs/badram.md). A
# kernel that returns to GRUB (its EFI stub failed) ends the boot at once:
# the fallback entry prints RT_BACK and halts.
rt_linux_iso() {
	local args="${3//\$/\\\$}"
	rt_iso "$1" linux <<-CFG
		set timeout=0
		set fallback=1
		$2
		menuentry linux {
			linux /boot/vmlinuz $E2E_LINUX_ARGS $args
			initrd /boot/initrd
		}
		menuentry back {
			echo "$RT_BACK"
			halt
		}
	CFG
}

# rt_firmware bios|uefi: set RT_FW to the QEMU options for that firmware,
# RT_PLATFORM to GRUB's name for it.
rt_firmware() {
	RT_FW=() RT_PLATFORM=i386-pc
	[ "$1" = bios ] || { e2e_uefi; RT_FW=("${E2E_UEFI[@]}") RT_PLATFORM=x86_64-efi; }
}

# rt_exact_pairs LOG: set RT_PAIRS to the badram pairs of the exact cover of
# LOG's failing pages, as the host CLI folds LOG over its usable map with the
# hole budget lifted (ramsift-fold --uefi --holes 4096): one hole a failing
# page, when the pages are scattered.
rt_exact_pairs() {
	local ram fold=$E2E_DIR/$E2E_NAME-exact.fold
	ram=$(sed -nE 's/^  usable 0x([0-9a-f]+)-0x([0-9a-f]+) .*/0x\1-0x\2/p' "$1" | paste -sd, -)
	$B/ramsift-fold --uefi --holes 4096 --ram "$ram" "$1" >"$fold" ||
		e2e_fail "ramsift-fold on $1"
	grep -Eq '^fold: failing_pages=([0-9]+) pairs=[0-9]+ holes=\1 .*: exact' "$fold" ||
		e2e_fail "ramsift-fold --uefi: want an exact cover, a hole a page: $(grep '^fold:' "$fold")"
	RT_PAIRS=$(sed -n 's/^badram=//p' "$fold")
}

# rt_esp ISO ESP WORDS [FOLDER]: a FAT ESP at ESP holding the pre-loader as
# \EFI\BOOT\BOOTX64.EFI (what OVMF boots first), or as
# \EFI\FOLDER\ramsift-reserve.efi, with badpages.txt next to it: WORDS and
# loader= naming GRUB's EFI image from ISO (rt_iso) (the one grub-mkrescue made) as
# \EFI\BOOT\grubx64.efi (no badpages.txt when WORDS is empty); and
# ISO's /boot, where that GRUB finds its modules, grub.cfg and
# ramsift.elf on the partition it was loaded from.
rt_esp() {
	local iso=$1 esp=$2 tree=$E2E_DIR/$E2E_NAME.esp dir=EFI/BOOT name=BOOTX64.EFI
	shift 2
	[ -z "${2-}" ] || dir=EFI/$2 name=ramsift-reserve.efi
	rm -rf "$esp" "$tree"
	mkdir -p "$tree"
	xorriso -osirrox on -indev "$iso" -extract /efi.img "$tree/efi.img" -extract /boot "$tree/boot" \
		>"$tree.log" 2>&1 || { cat "$tree.log"; e2e_fail "cannot extract /efi.img and /boot from $iso"; }
	mcopy -i "$tree/efi.img" ::/efi/boot/bootx64.efi "$tree/grubx64.efi" ||
		e2e_fail "no GRUB EFI image in the medium's efi.img"
	rm -rf "$tree/boot/grub/i386-pc" "$tree.log"
	chmod -R u+w "$tree"
	[ -z "$1" ] || printf '# from ramsift'"'"'s log\n%s\nloader=\\EFI\\BOOT\\grubx64.efi\n' "$1" >"$tree/badpages.txt"
	mformat -i "$esp" -C -T 131072 -h 64 -s 32 -v ESP :: >/dev/null || e2e_fail "mformat $esp"
	mmd -i "$esp" ::/EFI ::/EFI/BOOT
	[ "$dir" = EFI/BOOT ] || mmd -i "$esp" "::/$dir"
	mcopy -i "$esp" "$B/ramsift-reserve.efi" "::/$dir/$name"
	[ -z "$1" ] || mcopy -i "$esp" "$tree/badpages.txt" "::/$dir/"
	mcopy -i "$esp" "$tree/grubx64.efi" ::/EFI/BOOT/
	mcopy -s -i "$esp" "$tree/boot" ::/
	rm -rf "$tree"
}

# Records planted in the UEFI variable RamsiftResult before a boot
# (nvram-preloader.sh, nvram.sh): build/host/ramsift-mkrecord makes them
# from a run's description, on a machine QEMU names in SMBIOS.
RT_UUID=5a1f3c2e-8d4b-4e6a-9c71-0b2d3e4f5a6b

# rt_machine PRODUCT SERIAL: set RT_SMBIOS to QEMU's options for an SMBIOS
# system (type 1) made by ramsift-test: PRODUCT, SERIAL and RT_UUID.
rt_machine() {
	RT_SMBIOS=(-smbios "type=1,manufacturer=ramsift-test,product=$1,serial=$2,uuid=$RT_UUID")
}

# rt_description PRODUCT SERIAL RESULT LINES: for ramsift-mkrecord, a run
# (of 236 MiB, on 2026-12-02 00:11:57, errors: 7 on FAIL) on the machine
# rt_machine PRODUCT SERIAL names; its pages and pairs in LINES.
rt_description() {
	local errors=0
	[ "$3" != FAIL ] || errors=7
	printf '%s\n' "result $3" 'passes 1' "errors $errors" 'tested_bytes 247463936' \
		'usable_bytes 247463936' 'elapsed_ms 61234' 'version v-test' \
		'date 2026-12-02 00:11:57' 'manufacturer ramsift-test' "product $1" \
		"serial $2" "uuid $RT_UUID" 'ram 0x100000-0xe000000' "$4"
}

# rt_record NAME [MKRECORD_OPTIONS...]: the record ramsift-mkrecord makes
# of the description on stdin, as build/test/<scenario>-NAME.rec (RT_RECORD).
rt_record() {
	RT_RECORD=$E2E_DIR/$E2E_NAME-$1.rec
	shift
	"$B/host/ramsift-mkrecord" "$@" >"$RT_RECORD" || e2e_fail "ramsift-mkrecord $*"
}

# rt_plant VARS: set RT_RECORD as RamsiftResult in the OVMF variables VARS.
rt_plant() {
	"$B/host/ramsift-varstore" "$1" set RamsiftResult ramsift 7 <"$RT_RECORD" ||
		e2e_fail "set RamsiftResult in $1"
}

# rt_nothing_reserved WHY_ERE: the pre-loader said why it applies no
# record, and reserved nothing (its badpages.txt names no pages).
rt_nothing_reserved() {
	e2e_expect "$1" 'the pre-loader said why the record is not applied'
	e2e_expect '^ramsift-reserve: no badram= or pages= given: nothing to reserve$' 'nothing reserved'
	e2e_expect_no '^ramsift-reserve: (reserved|RamsiftResult lists) ' 'no page reserved'
}
