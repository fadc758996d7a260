#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Smoke test of ramsift-apply on a fake system (--root: efivarfs, the DMI
# identity, /etc/default, /proc/cmdline, hard_offline_page, the ESP and its
# partition in /dev and /sys), with records build/host/ramsift-mkrecord
# writes in efivarfs form and fakes of update-grub and efibootmgr first on
# PATH that log how they were called. Each action: --show's lines (the
# BadRAM lines as written here and as ramsift-fold folds the same pages, RAM
# and budget), --json held to the strict reader of tests/json, the file
# --install writes (byte for byte, and what /bin/sh reads from it), update-grub
# run or not, --uninstall, --offline's writes (a FIFO holds them), --clear
# (with the immutable flag set where chattr can set it), the pre-loader's
# files and efibootmgr's calls, the unit's --boot; refusals of another
# machine's record, of broken records (the decoder's error and offset) and
# of bad usage, each with its exit status.
# Usage: tests/apply/apply-smoke.sh ramsift-apply ramsift-mkrecord ramsift-jsoncheck
#        ramsift-fold [ramsift-apply-static]
set -u
apply=$1 mk=$2 jsoncheck=$3 fold=$4 static=${5-}
fails=0
tmp=${TMPDIR:-/tmp}/apply-smoke.$$
root=$tmp.root
guid=7ae28629-a6cc-4876-b74d-186249b7a3d3
var=$root/sys/firmware/efi/efivars/RamsiftResult-$guid
cfg=$root/etc/default/grub.d/ramsift.cfg
hop=$root/sys/devices/system/memory/hard_offline_page
esp=$root/boot/efi
cleanup() {
	[ ! -e "$var" ] || chattr -i "$var" 2>/dev/null
	rm -rf "$tmp".*
}
trap cleanup EXIT

fail() {
	echo "FAIL apply-smoke: $*"
	fails=1
}

# expect NAME WANT_STATUS ARGS...: ramsift-apply --root $root ARGS, its
# output in $tmp.out and $tmp.err, must exit with WANT_STATUS.
expect() {
	name=$1 want=$2
	shift 2
	"$apply" --root "$root" "$@" >"$tmp.out" 2>"$tmp.err"
	rc=$?
	[ "$rc" = "$want" ] || {
		fail "$name: exit $rc (want $want); stdout, stderr:"
		cat "$tmp.out" "$tmp.err"
	}
}

# said NAME TEXT: standard error holds TEXT.
said() {
	grep -qF -- "$2" "$tmp.err" || { fail "$1: stderr lacks '$2':"; cat "$tmp.err"; }
}

# same NAME WANT GOT: the files are equal.
same() {
	cmp -s "$2" "$3" || { fail "$1: want, got:"; diff "$2" "$3"; }
}

# record NAME [MKRECORD-OPTIONS...]: the record of description $tmp.NAME,
# in efivarfs form, as the variable.
record() {
	desc=$1
	shift
	"$mk" --efivarfs "$@" <"$tmp.$desc" >"$var" || fail "mkrecord $desc"
}

# calls: what the fakes logged since the last call, then forget it.
calls() {
	cat "$tmp.log" 2>/dev/null
	: >"$tmp.log"
}

# ---- the fake system -------------------------------------------------------
mkdir -p "$root/sys/firmware/efi/efivars" "$root/sys/class/dmi/id" "$root/etc/default" \
	"$root/proc" "${hop%/*}" "$tmp.bin" || exit 2
printf 'QEMU\n' >"$root/sys/class/dmi/id/sys_vendor"
printf 'Standard PC (i440FX + PIIX, 1996)\n' >"$root/sys/class/dmi/id/product_name"
printf '12345678-9abc-def0-1234-56789abcdef0\n' >"$root/sys/class/dmi/id/product_uuid"
# No product_serial: Linux shows no attribute for an absent string.
printf 'GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX_DEFAULT="quiet"\nGRUB_CMDLINE_LINUX=""\n' \
	>"$root/etc/default/grub"
printf 'BOOT_IMAGE=/boot/vmlinuz-6.1.0-13-amd64 root=/dev/sda2 ro quiet\n' >"$root/proc/cmdline"
cat >"$tmp.bin/update-grub" <<'EOF'
#!/bin/sh
printf '%s\n' "update-grub $*" >>"$FAKE_LOG"
exit "${FAKE_UPDATE_GRUB_STATUS:-0}"
EOF
cat >"$tmp.bin/efibootmgr" <<'EOF'
#!/bin/sh
printf '%s\n' "efibootmgr $*" >>"$FAKE_LOG"
case $1 in
-v) cat "$FAKE_EFI" ;;
--create) cp "$FAKE_EFI.created" "$FAKE_EFI" ;;
--bootorder) sed -i "s/^BootOrder: .*/BootOrder: $2/" "$FAKE_EFI" ;;
*) exit 2 ;;
esac
EOF
chmod +x "$tmp.bin/update-grub" "$tmp.bin/efibootmgr"
PATH=$tmp.bin:$PATH FAKE_LOG=$tmp.log FAKE_EFI=$tmp.efi.state
export PATH FAKE_LOG FAKE_EFI

# A failing run of this machine: 3 pages in 2 ranges.
cat >"$tmp.fail" <<'EOF'
result FAIL
passes 1
errors 3
tested_bytes 267386880
usable_bytes 268042240
elapsed_ms 12345
version 0.2-g1a2b3c4
seed 0x5eed
date 2026-12-02 00:11:57
manufacturer QEMU
product Standard PC (i440FX + PIIX, 1996)
uuid 12345678-9abc-def0-1234-56789abcdef0
ram 0x0-0x9f000
ram 0x100000-0x10000000
page 0x1234000
page 0x1235000
page 0x8000000
EOF
sed -e 's/^result FAIL/result PASS/' -e 's/^errors 3/errors 0/' -e '/^page /d' "$tmp.fail" >"$tmp.pass"
lines='badram=0x1234000,0x7fffffffffffe000,0x8000000,0x7ffffffffffff000
GRUB_BADRAM="0x1234000,0x7fffffffffffe000,0x8000000,0x7ffffffffffff000"
memmap=8K$0x1234000,4K$0x8000000
fold: failing_pages=3 pairs=2 holes=2 excluded_pages=3 sacrificed_pages=0 (0 B): exact'

# ---- --show ----------------------------------------------------------------
record fail
cat >"$tmp.want" <<EOF
ramsift: result=FAIL passes=1 errors=3 tested_bytes=267386880 usable_bytes=268042240 elapsed_s=12.345 version=0.2-g1a2b3c4
date: 2026-12-02 00:11:57 UTC
seed: 0x5eed
machine: manufacturer="QEMU" product="Standard PC (i440FX + PIIX, 1996)" serial="" uuid=12345678-9abc-def0-1234-56789abcdef0
failing pages: 3, in 2 ranges
pages: 0x1234000-0x1235fff (2 pages)
pages: 0x8000000-0x8000fff (1 page)
$lines
EOF
expect "show" 0 --show
same "show" "$tmp.want" "$tmp.out"
[ -s "$tmp.err" ] && fail "show: this machine's record, yet stderr says: $(cat "$tmp.err")"
expect "no action is --show" 0
same "no action is --show" "$tmp.want" "$tmp.out"
if [ -n "$static" ]; then
	"$static" --root "$root" --show >"$tmp.static" 2>&1 || fail "static: exit $?"
	same "static build" "$tmp.want" "$tmp.static"
fi

# The lines are the fold's: as ramsift-fold folds the same pages, RAM and
# budget (here a UEFI run's, scattered pages, K=2; K=1).
fold_same() { # NAME BUDGET RAMSIFT-FOLD-OPTIONS...
	n=$1 budget=$2
	shift 2
	{
		grep -v -e '^page ' -e '^budget ' "$tmp.fail"
		echo "budget $budget"
		for p in 0x100000 0x2345000 0x3456000 0x4567000 0x5678000 0x9abc000; do echo "page $p"; done
	} >"$tmp.$n"
	record "$n"
	printf '0x100000\n0x2345000\n0x3456000\n0x4567000\n0x5678000\n0x9abc000\n' |
		"$fold" --ram 0-0x9f000,0x100000-0x10000000 "$@" >"$tmp.want"
	expect "$n" 0 --show
	sed -n '/^badram=/,$p' "$tmp.out" >"$tmp.got"
	same "$n: the lines against ramsift-fold $*" "$tmp.want" "$tmp.got"
}
fold_same uefi "20 48 1024 uefi" --uefi
fold_same patterns2 "2 48 1024" --patterns 2
fold_same patterns1 "1 48 1024" --patterns 1

# A run that found nothing: no lines.
record pass
expect "pass" 0 --show
grep -q -e '^badram=' -e '^memmap=' "$tmp.out" && fail "pass: BadRAM lines: $(cat "$tmp.out")"
grep -qx 'failing pages: 0, in 0 ranges' "$tmp.out" || fail "pass: $(cat "$tmp.out")"

# Not all pages listed: the run's pairs, no memmap= and fold: line.
{
	grep -v '^page ' "$tmp.fail"
	printf 'page 0x1234000\nfailing_pages 5000\ncut\npairs 0x1000000,0x7fffffffff000000\n'
} >"$tmp.cut"
record cut
expect "cut" 0 --show
sed -n '/^failing pages/,$p' "$tmp.out" >"$tmp.got"
cat >"$tmp.want" <<'EOF'
failing pages: 5000, 1 of them listed, in 1 ranges (the record had no room for the rest; the pairs below cover them all)
pages: 0x1234000-0x1234fff (1 page)
badram=0x1000000,0x7fffffffff000000
GRUB_BADRAM="0x1000000,0x7fffffffff000000"
EOF
same "cut" "$tmp.want" "$tmp.got"
said "cut" "no memmap= and fold: lines: the record lists not every failing page"

# ---- --json ----------------------------------------------------------------
record fail
expect "json" 0 --json
[ "$(wc -l <"$tmp.out")" = 1 ] || fail "json: not one line"
"$jsoncheck" --valid "$tmp.out" || fail "json: not one strict JSON text"
if command -v python3 >/dev/null; then
	python3 -c 'import json, sys
def once(pairs):
    keys = [k for k, _ in pairs]
    assert len(keys) == len(set(keys)), "a key twice: %s" % keys
    return dict(pairs)
json.load(open(sys.argv[1]), object_pairs_hook=once)' "$tmp.out" || fail "json (python3)"
fi
get() { # PATH WANT: the value at PATH in $tmp.out
	got=$("$jsoncheck" --get "$1" "$tmp.out") || got="(none)"
	[ "$got" = "$2" ] || fail "json $1: want $2, got $got"
}
get ramsift_record 1
get result FAIL
get errors 3
get elapsed_s 12.345
get seed 0x5eed
get date 2026-12-02T00:11:57Z
get machine.product 'Standard PC (i440FX + PIIX, 1996)'
get machine.serial ''
get machine.uuid 12345678-9abc-def0-1234-56789abcdef0
get this_machine true
get budget.patterns 20
get ram.ranges 'array 2'
get failing_pages.count 3
get failing_pages.listed_pages 3
get failing_pages.ranges 'array 2'
get failing_pages.cut false
get fold.mode bios
get fold.badram "$(echo "$lines" | sed -n 1p)"
get fold.grub "$(echo "$lines" | sed -n 2p)"
get fold.memmap "$(echo "$lines" | sed -n 3p)"
get fold.summary "$(echo "$lines" | sed -n 4p)"
get fold_whole true
record pass
expect "json pass" 0 --json
get fold null
get failing_pages.ranges 'array 0'
printf 'unknown\n' >"$root/sys/class/dmi/id/product_name"
expect "json other machine" 0 --json
get this_machine false
printf 'Standard PC (i440FX + PIIX, 1996)\n' >"$root/sys/class/dmi/id/product_name"

# ---- --install, --uninstall -------------------------------------------------
record fail
calls >/dev/null
expect "install" 0 --install
cat >"$tmp.want" <<'EOF'
# Written by ramsift-apply --install (see ramsift-apply(8)): keeps GRUB and
# Linux off the failing pages of the RamsiftResult record:
# 3 pages, found by ramsift 0.2-g1a2b3c4 on 2026-12-02 00:11:57 UTC.
# update-grub reads it after /etc/default/grub; ramsift-apply --uninstall
# removes it and runs update-grub.
GRUB_BADRAM="0x1234000,0x7fffffffffffe000,0x8000000,0x7ffffffffffff000"
GRUB_CMDLINE_LINUX_DEFAULT="$GRUB_CMDLINE_LINUX_DEFAULT memmap=8K\\\$0x1234000,4K\\\$0x8000000"
EOF
same "install: $cfg" "$tmp.want" "$cfg"
[ "$(calls)" = "update-grub " ] || fail "install: update-grub did not run once"
said "install" "and ran update-grub"
# What grub-mkconfig's sh reads: \$ for GRUB's parser (tests/apply/apply-grub.sh
# runs Debian's real one).
sh -c '. "$1"; . "$2"; printf "%s\n%s\n" "$GRUB_BADRAM" "$GRUB_CMDLINE_LINUX_DEFAULT"' sh \
	"$root/etc/default/grub" "$cfg" >"$tmp.got"
printf '%s\n' '0x1234000,0x7fffffffffffe000,0x8000000,0x7ffffffffffff000' \
	'quiet memmap=8K\$0x1234000,4K\$0x8000000' >"$tmp.want"
same "install: the values sh reads" "$tmp.want" "$tmp.got"
expect "uninstall" 0 --uninstall
[ -e "$cfg" ] && fail "uninstall: $cfg is still there"
[ "$(calls)" = "update-grub " ] || fail "uninstall: update-grub did not run once"
expect "uninstall, nothing installed" 0 --uninstall
said "uninstall, nothing installed" "nothing to remove"
[ -z "$(calls)" ] || fail "uninstall, nothing installed: update-grub ran"
FAKE_UPDATE_GRUB_STATUS=1 expect "update-grub fails" 1 --install
said "update-grub fails" "update-grub failed (exit status 1)"
calls >/dev/null
echo 'GRUB_BADRAM="0x1000,0x7ffffffffffff000"' >>"$root/etc/default/grub"
expect "own GRUB_BADRAM" 0 --install
said "own GRUB_BADRAM" "sets GRUB_BADRAM too"
sed -i '/^GRUB_BADRAM=/d' "$root/etc/default/grub"
record cut
expect "install cut" 0 --install
grep -q '^GRUB_CMDLINE_LINUX_DEFAULT=' "$cfg" && fail "install cut: a memmap= line of some pages"
grep -qx 'GRUB_BADRAM="0x1000000,0x7fffffffff000000"' "$cfg" || fail "install cut: $(cat "$cfg")"
grep -qxF '# No memmap= line: the record lists not every failing page (GRUB_BADRAM covers them all).' \
	"$cfg" || fail "install cut: no word why: $(cat "$cfg")"
rm -f "$cfg"
# Settings of the admin's own under that name stay.
echo 'GRUB_RAMSIFT_CMDLINE="errors=7"' >"$cfg"
for action in --install --uninstall; do
	expect "$action: not ours" 1 "$action"
	said "$action: not ours" "was not written by ramsift-apply"
	grep -qx 'GRUB_RAMSIFT_CMDLINE="errors=7"' "$cfg" || fail "$action: not ours: $cfg changed"
done
rm -f "$cfg"
calls >/dev/null
record pass
expect "install pass" 0 --install
said "install pass" "the record says PASS: no failing page to exclude, nothing installed"
[ -e "$cfg" ] && fail "install pass: $cfg written"
calls >/dev/null

# ---- another machine's record ----------------------------------------------
record fail
printf 'QEMU-other\n' >"$root/sys/class/dmi/id/sys_vendor"
expect "other machine: show" 0 --show
said "other machine: show" 'warning: the record was written on another machine: this one is manufacturer="QEMU-other"'
for action in --install --offline --install-preloader; do
	expect "other machine: $action" 5 "$action"
	said "other machine: $action" "$action refused: the record was written on another machine"
done
[ -e "$cfg" ] && fail "other machine: $cfg written"
[ -z "$(calls)" ] && [ ! -e "$hop" ] || fail "other machine: something ran or was written"
printf 'QEMU\n' >"$root/sys/class/dmi/id/sys_vendor"
mv "$root/sys/class/dmi" "$root/sys/class/dmi.away"
expect "no SMBIOS" 5 --install
said "no SMBIOS" "this one is a machine without SMBIOS identity"
mv "$root/sys/class/dmi.away" "$root/sys/class/dmi"
# A serial of spaces alone, which Linux shows as none.
sed 's/^uuid .*/serial    /' "$tmp.fail" >"$tmp.spaces"
printf 'unknown\n' >"$root/sys/class/dmi/id/product_uuid"
record spaces
expect "blank serial" 0 --show
[ -s "$tmp.err" ] && fail "blank serial: $(cat "$tmp.err")"
printf '12345678-9abc-def0-1234-56789abcdef0\n' >"$root/sys/class/dmi/id/product_uuid"

# ---- broken records --------------------------------------------------------
# bad NAME MKRECORD-OPTIONS...: refused with the decoder's own error and offset.
bad() {
	n=$1
	shift
	record fail "$@"
	why=$("$mk" --decode --efivarfs <"$var" | sed -n 's/^bad record: \(.*\) at offset \([0-9]*\)$/\1 (byte \2 of the record/p')
	[ -n "$why" ] || { fail "$n: mkrecord accepts it"; return; }
	for action in --show --json --install --offline; do
		expect "$n: $action" 4 "$action"
		said "$n: $action" "RamsiftResult-$guid: not a valid ramsift record: $why"
		[ -s "$tmp.out" ] && fail "$n: $action printed: $(cat "$tmp.out")"
	done
}
bad "flipped byte" --flip 40
bad "too long" --pad 5000
bad "a range out of order" --raw-range 0x1000-0x2000
bad "a field no run writes" --poke 12:4
printf '\007\000' >"$var"
expect "short" 4 --show
said "short" "2 bytes, not a variable in efivarfs form"
: >"$var"
expect "empty" 4 --show
rm -f "$var"
expect "no record" 3 --show
said "no record" "no RamsiftResult variable"
expect "no record: boot" 0 --boot
mv "$root/sys/firmware" "$root/sys/firmware.away"
expect "no efivarfs" 3 --install
said "no efivarfs" "this system did not boot through UEFI"
mv "$root/sys/firmware.away" "$root/sys/firmware"
expect "--from missing" 2 --from "$tmp.none"
record fail
cp "$var" "$tmp.copy"
rm -f "$var"
expect "--from" 0 --from "$tmp.copy" --show
grep -qx 'failing pages: 3, in 2 ranges' "$tmp.out" || fail "--from: $(cat "$tmp.out")"

# ---- --offline -------------------------------------------------------------
# A FIFO held open here takes the writes without blocking.
record fail
mkfifo "$hop" || exit 2
exec 3<>"$hop"
expect "offline" 0 --offline
dd bs=65536 count=1 iflag=nonblock <&3 2>/dev/null >"$tmp.got"
exec 3<&-
printf '0x1234000\n0x1235000\n0x8000000\n' >"$tmp.want"
same "offline: the pages written" "$tmp.want" "$tmp.got"
said "offline" "3 pages taken out of use now, 0 were already"
rm -f "$hop"
expect "offline: no hard_offline_page" 1 --offline
said "offline: no hard_offline_page" "this kernel cannot take pages out of use while it runs"
: >"$hop"
printf 'BOOT_IMAGE=/boot/vmlinuz root=/dev/sda2 ro %s quiet\n' "$(echo "$lines" | sed -n 3p)" \
	>"$root/proc/cmdline"
expect "offline: booted with memmap=" 0 --offline
said "offline: booted with memmap=" "none is left to take"
[ -s "$hop" ] && fail "offline: booted with memmap=: pages written"
printf 'BOOT_IMAGE=/boot/vmlinuz root=/dev/sda2 ro quiet\n' >"$root/proc/cmdline"
rm -f "$hop"

# ---- --clear ---------------------------------------------------------------
# efivarfs makes variables immutable; chattr +i needs root and a file system
# with inode flags (ext4; tmpfs from Linux 6.0): elsewhere the plain delete
# is tested alone, and said so.
expect "clear" 0 --clear
[ -e "$var" ] && fail "clear: $var is still there"
record fail
if chattr +i "$var" 2>/dev/null; then
	expect "clear immutable" 0 --clear
	[ -e "$var" ] && fail "clear immutable: $var is still there"
else
	echo "  NOTE    apply-smoke: chattr +i failed here: --clear of an immutable variable not tested"
fi
expect "clear, no record" 0 --clear
said "clear, no record" "no record to delete"
expect "clear --from" 2 --clear --from "$tmp.copy"

# ---- --install-preloader ---------------------------------------------------
record fail
mkdir -p "$esp/EFI/debian" "$root/dev/disk/by-partuuid" "$root/sys/devices/pci0000:00/block/sda/sda1" \
	"$root/sys/class/block"
: >"$esp/EFI/debian/shimx64.efi"
ln -s ../../sda1 "$root/dev/disk/by-partuuid/0a1b2c3d-0000-4000-8000-00000000abcd"
ln -s ../../devices/pci0000:00/block/sda/sda1 "$root/sys/class/block/sda1"
printf 'MZ a pre-loader\n' >"$tmp.efi"
hd='HD(1,GPT,0A1B2C3D-0000-4000-8000-00000000ABCD,0x800,0x100000)'
cat >"$FAKE_EFI" <<EOF
BootCurrent: 0001
Timeout: 1 seconds
BootOrder: 0003,0001,0000
Boot0000* UEFI Misc Device	PciRoot(0x0)/Pci(0x3,0x0){auto_created_boot_option}
Boot0001* debian	$hd/File(\\EFI\\debian\\shimx64.efi)
Boot0003* UEFI PXEv4	PciRoot(0x0)/Pci(0x2,0x0)/MAC(525400123456,1)
EOF
sed -e 's/^BootOrder: .*/BootOrder: 0004,0003,0001,0000/' "$FAKE_EFI" >"$FAKE_EFI.created"
printf 'Boot0004* ramsift-reserve\t%s/File(\\EFI\\ramsift\\ramsift-reserve.efi)\n' "$hd" \
	>>"$FAKE_EFI.created"
expect "preloader" 0 --install-preloader --efi "$tmp.efi"
cat >"$tmp.want" <<'EOF'
efibootmgr -v
efibootmgr --create --disk /dev/sda --part 1 --label ramsift-reserve --loader \EFI\ramsift\ramsift-reserve.efi
efibootmgr -v
efibootmgr --bootorder 0003,0004,0001,0000
EOF
calls >"$tmp.got"
same "preloader: efibootmgr's calls" "$tmp.want" "$tmp.got"
same "preloader: the file" "$tmp.efi" "$esp/EFI/ramsift/ramsift-reserve.efi"
grep -qx 'loader=\\EFI\\debian\\shimx64.efi' "$esp/EFI/ramsift/badpages.txt" ||
	fail "preloader: badpages.txt: $(cat "$esp/EFI/ramsift/badpages.txt")"
grep -qx 'BootOrder: 0003,0004,0001,0000' "$FAKE_EFI" || fail "preloader: $(grep BootOrder "$FAKE_EFI")"
said "preloader" "added Boot0004 ramsift-reserve"
expect "preloader again" 0 --install-preloader --efi "$tmp.efi"
said "preloader again" "Boot0004 (ramsift-reserve) starts the pre-loader already"
[ "$(calls)" = "efibootmgr -v" ] || fail "preloader again: efibootmgr did more than list"
sed -i 's/^BootCurrent: .*/BootCurrent: 0004/' "$FAKE_EFI"
expect "preloader, booted through it" 0 --install-preloader --efi "$tmp.efi"
said "preloader, booted through it" "this boot started through the pre-loader (Boot0004)"
sed -i 's/^BootCurrent: .*/BootCurrent: 0001/' "$FAKE_EFI"
rm -rf "$esp/EFI/ramsift"
expect "preloader, no file" 1 --install-preloader --efi "$tmp.none"
said "preloader, no file" "cannot copy $tmp.none"
calls >/dev/null
printf '\006\000\000\000\001' >"$root/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c"
expect "preloader, Secure Boot" 1 --install-preloader --efi "$tmp.efi"
said "preloader, Secure Boot" "Secure Boot is on"
[ -z "$(calls)" ] || fail "preloader, Secure Boot: efibootmgr ran"
rm -rf "$esp/EFI/ramsift" "$root/sys/firmware/efi/efivars/SecureBoot-"*

# ---- --boot ----------------------------------------------------------------
# Standard error as the journal: the warning carries its priority.
rm -f "$cfg"
: >"$tmp.err"
JOURNAL_STREAM=$(stat -c %d:%i "$tmp.err") "$apply" --root "$root" --boot >"$tmp.out" 2>"$tmp.err" ||
	fail "boot: exit $?"
grep -q '^<4>ramsift-apply: warning: ramsift.s run of 2026-12-02 00:11:57 UTC found 3 failing pages, and no protection is installed' \
	"$tmp.err" || fail "boot: no warning for the journal: $(cat "$tmp.err")"
expect "boot" 0 --boot
grep -q '^ramsift-apply: warning: ' "$tmp.err" || fail "boot: the prefix without the journal: $(cat "$tmp.err")"
[ -e "$cfg" ] || [ -n "$(calls)" ] && fail "boot: installed without RAMSIFT_APPLY=yes"
printf '# the settings\nRAMSIFT_APPLY="maybe"\n' >"$root/etc/default/ramsift"
expect "boot, maybe" 0 --boot
said "boot, maybe" "RAMSIFT_APPLY=maybe is neither yes nor no: taken as no"
printf '# the settings\nRAMSIFT_APPLY=no\nRAMSIFT_APPLY="yes"\n' >"$root/etc/default/ramsift"
mkfifo "$hop" || exit 2
exec 3<>"$hop"
expect "boot, yes" 0 --boot
dd bs=65536 count=1 iflag=nonblock <&3 2>/dev/null >"$tmp.got"
exec 3<&-
rm -f "$hop"
said "boot, yes" "installing the protection"
[ -e "$cfg" ] || fail "boot, yes: no $cfg"
[ "$(calls)" = "update-grub " ] || fail "boot, yes: update-grub did not run once"
[ "$(wc -l <"$tmp.got")" = 3 ] || fail "boot, yes: the pages not taken offline: $(cat "$tmp.got")"
expect "boot, protected" 0 --boot
said "boot, protected" "keeps the machine off them"
[ -z "$(calls)" ] || fail "boot, protected: update-grub ran again"
record pass
expect "boot, passed, still installed" 0 --boot
said "boot, passed, still installed" "ramsift-apply --uninstall removes it"
expect "boot alone" 2 --boot --show

# ---- usage -----------------------------------------------------------------
"$apply" --help | grep -q '^Usage: ramsift-apply' || fail "--help"
"$apply" --help | grep -q -- '--root DIR           for testing' || fail "--help: --root"
expect "unknown option" 2 --frobnicate
said "unknown option" "unknown option: --frobnicate"
expect "no value" 2 --from
expect "a word" 2 word
expect "show and json" 2 --show --json
expect "install and uninstall" 2 --install --uninstall

[ $fails = 0 ] && echo "  SMOKE   ramsift-apply ($apply): all cases passed"
exit $fails
