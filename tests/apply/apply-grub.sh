#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The file ramsift-apply --install writes, through Debian's own update-grub:
# Debian 12's real grub-mkconfig, 00_header and 10_linux (grub-common) run
# in a chroot that holds only what they need, an empty kernel and initrd in
# /boot and a grub-probe of a plain BIOS disk (tests/e2e/lib-grub.sh, as
# tests/e2e/roundtrip/grub-default.sh runs them). With ramsift.cfg in
# /etc/default/grub.d, grub.cfg must have the one line `badram PAIRS` with
# the record's pairs, the default entry's linux line must carry the
# memmap= line with each $ written \$ (which GRUB reads as $, so the kernel
# gets the line as ramsift printed it: grub-default.sh boots that), after
# Debian's own "quiet", and grub-script-check must accept it; after
# --uninstall, neither is left. Host only: no boot.
# Usage: tests/apply/apply-grub.sh path/to/ramsift-apply path/to/ramsift-mkrecord
apply=$(realpath "$1") mk=$(realpath "$2")
. "$(dirname "$0")/../e2e/lib.sh"
. tests/e2e/lib-grub.sh

version=6.1.0-ramsift-amd64
pairs=0x1234000,0x7fffffffffffe000,0x8000000,0x7ffffffffffff000
memmap='memmap=8K$0x1234000,4K$0x8000000'

gd_tree
: >"$GD_BOOT/vmlinuz-$version"
: >"$GD_BOOT/initrd.img-$version"
mkdir -p "$GD_TREE/sys/firmware/efi/efivars" "$GD_TREE/sys/class/dmi/id" "$GD_TREE/proc" \
	"$E2E_DIR/$E2E_NAME.bin"
printf 'QEMU\n' >"$GD_TREE/sys/class/dmi/id/sys_vendor"
printf 'Standard PC\n' >"$GD_TREE/sys/class/dmi/id/product_name"
"$mk" --efivarfs >"$GD_TREE/sys/firmware/efi/efivars/RamsiftResult-7ae28629-a6cc-4876-b74d-186249b7a3d3" <<-'EOF' ||
	result FAIL
	passes 1
	errors 3
	version 0.2-g1a2b3c4
	manufacturer QEMU
	product Standard PC
	ram 0x0-0x9f000
	ram 0x100000-0x10000000
	page 0x1234000
	page 0x1235000
	page 0x8000000
EOF
	e2e_fail "ramsift-mkrecord"
# update-grub is run below, in the chroot: ramsift-apply's call is a no-op.
printf '#!/bin/sh\nexit 0\n' >"$E2E_DIR/$E2E_NAME.bin/update-grub"
chmod +x "$E2E_DIR/$E2E_NAME.bin/update-grub"
export PATH=$E2E_DIR/$E2E_NAME.bin:$PATH

gd_default_grub </dev/null
"$apply" --root "$GD_TREE" --install 2>"$E2E_DIR/$E2E_NAME.err" ||
	{ cat "$E2E_DIR/$E2E_NAME.err" >&2; e2e_fail "ramsift-apply --install"; }
gd_mkconfig install
grep -qxF "Found linux image: /boot/vmlinuz-$version" "$GD_CFG.log" ||
	{ cat "$GD_CFG.log" >&2; e2e_fail "10_linux did not find /boot/vmlinuz-$version"; }
[ "$(grep -c badram "$GD_CFG")" -eq 1 ] && grep -qxF "badram $pairs" "$GD_CFG" ||
	e2e_fail "$GD_CFG: want the one line 'badram $pairs', got:" "$(grep badram "$GD_CFG" || echo none)"
want="quiet ${memmap//\$/\\\$}"
line=$(grep -m1 -E '^\s*linux\s' "$GD_CFG") || true
[[ "$line " == *" $want "* ]] ||
	e2e_fail "$GD_CFG: want the first linux line to carry '$want', got: ${line:-none}"
grub-script-check "$GD_CFG" || e2e_fail "grub-script-check rejects $GD_CFG"

"$apply" --root "$GD_TREE" --uninstall 2>"$E2E_DIR/$E2E_NAME.err" ||
	{ cat "$E2E_DIR/$E2E_NAME.err" >&2; e2e_fail "ramsift-apply --uninstall"; }
gd_mkconfig uninstall
! grep -e badram -e memmap= "$GD_CFG" || e2e_fail "$GD_CFG: after --uninstall, the lines above are left"
rm -rf "$GD_TREE" "$E2E_DIR/$E2E_NAME.bin" "$E2E_DIR/$E2E_NAME.err"
