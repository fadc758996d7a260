#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The Debian package on a system whose /boot is a partition of its own
# (tests/e2e/lib-grub.sh: a tmpfs on the chroot's /boot, /dev/sda2 with a
# file-system UUID to grub-probe): dpkg puts ramsift.elf on that partition,
# and the postinst's update-grub writes entries that find it by its UUID
# (prepare_grub_to_access_device on GRUB_DEVICE_BOOT) and load it by its
# path on it, /ramsift.elf (make_system_path_relative_to_its_root). GRUB
# (SeaBIOS) boots that grub.cfg from a medium standing for the partition,
# its UUID written into the grub.cfg in the image: ramsift starts with the
# entry's command line and passes.
GD_BOOT_UUID=1999-12-31-23-59-59-00
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-grub.sh"

mapfile -t debs < <(ls "$B"/ramsift_*_amd64.deb 2>/dev/null)
[ ${#debs[@]} -eq 1 ] || e2e_fail "want one $B/ramsift_*_amd64.deb (make deb), got ${#debs[@]}"
cmdline=$E2E_ARGS

gd_dpkg_tree
cp "${debs[0]}" "$GD_TREE/tmp/ramsift.deb"
gd_default_grub <<<"GRUB_RAMSIFT_CMDLINE=\"$cmdline\""
gd_dpkg install -i /tmp/ramsift.deb
[ -f "$GD_BOOT/ramsift.elf" ] && [ ! -e "$GD_TREE/boot/ramsift.elf" ] ||
	e2e_fail "dpkg did not put ramsift.elf on the /boot partition"

# The default entry, as 20_ramsift writes it for a /boot partition.
tab=$(printf '\t')
want="menuentry 'Memory test (ramsift)' --class memtest --class ramsift \$menuentry_id_option 'ramsift-default-$GD_BOOT_UUID' {
${tab}load_video
${tab}insmod part_msdos
${tab}insmod ext2
${tab}search --no-floppy --fs-uuid --set=root $GD_BOOT_UUID
${tab}echo${tab}'Loading ramsift ...'
${tab}multiboot2${tab}/ramsift.elf console=ttyS0,115200 $cmdline
}"
got=$(sed -n '/^### BEGIN \/etc\/grub.d\/20_ramsift ###$/,/^}$/p' "$GD_CFG" | sed 1d)
[ "$got" = "$want" ] || {
	diff <(echo "$want") <(echo "$got") >&2 || true
	e2e_fail "$GD_CFG: the default entry differs from the expected one (diff above: want, got)"
}
[ "$(grep -c "multiboot2${tab}/ramsift.elf " "$GD_CFG")" -eq 3 ] ||
	e2e_fail "$GD_CFG: want 3 entries loading /ramsift.elf"
grub-script-check "$GD_CFG" || e2e_fail "grub-script-check rejects $GD_CFG"

iso=$E2E_DIR/$E2E_NAME.iso
gd_iso "$iso"
e2e_boot -m 128M -cdrom "$iso"
e2e_expect "Booting .Memory test \(ramsift\)'" "GRUB boots ramsift's default entry"
e2e_expect_no '^error: ' "GRUB finds the /boot partition and /ramsift.elf on it"
e2e_expect "command line: 'console=ttyS0,115200 $cmdline'\$" "the entry's command line"
e2e_expect_pass
rm -rf "$GD_TREE" "$GD_BOOT" "$iso"
