#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The Debian package (make deb) installed with dpkg into a chroot holding
# Debian's update-grub and grub-mkconfig (tests/e2e/lib-grub.sh) and a first
# grub.cfg: its postinst runs update-grub, whose grub.cfg holds exactly
# ramsift's three entries (the default pass at the top level; every test and
# run until stopped in a submenu), each with multiboot2, the console of
# GRUB's serial terminal and GRUB_RAMSIFT_CMDLINE, and which grub-script-check
# accepts. GRUB boots that grub.cfg unchanged from a grub-mkrescue medium
# holding the chroot's /boot, under SeaBIOS and OVMF: ramsift starts with
# the entry's command line and passes. Then each setting through update-grub:
# the consoles derived from GRUB_TERMINAL and GRUB_SERIAL_COMMAND,
# GRUB_RAMSIFT_CMDLINE from /etc/default/grub.d, GRUB_DISABLE_SUBMENU and
# GRUB_DISABLE_RAMSIFT. Last, dpkg -r: the postrm's update-grub writes no
# ramsift entry, nor does a second update-grub (the conffile stays but
# writes nothing without the image); dpkg --purge removes the conffile.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-grub.sh"

mapfile -t debs < <(ls "$B"/ramsift_*_amd64.deb 2>/dev/null)
[ ${#debs[@]} -eq 1 ] || e2e_fail "want one $B/ramsift_*_amd64.deb (make deb), got ${#debs[@]}"

# The options every test boot needs (tests/e2e/kernel-args), and the screen:
# GRUB's serial terminal leaves it out, and the boots check that ramsift
# draws on the framebuffer load_video sets up.
cmdline="console=tty0 $E2E_ARGS"

# block: ramsift's part of $GD_CFG, between 20_ramsift's BEGIN and END lines
# (which must be there: grub-mkconfig ran the script).
block() {
	grep -qx '### BEGIN /etc/grub.d/20_ramsift ###' "$GD_CFG" ||
		e2e_fail "$GD_CFG: grub-mkconfig did not run /etc/grub.d/20_ramsift"
	sed -n '/^### BEGIN \/etc\/grub.d\/20_ramsift ###$/,/^### END \/etc\/grub.d\/20_ramsift ###$/p' \
		"$GD_CFG" | sed '1d;$d'
}

# expect_lines STEP WANT: the multiboot2 lines of ramsift's entries are WANT
# (one a line, the words after the image's path).
expect_lines() {
	local got
	got=$(block | sed -n 's/^[[:space:]]*multiboot2[[:space:]]\/boot\/ramsift\.elf//p')
	[ "$got" = "$2" ] || e2e_fail "$1: the multiboot2 lines' options: want" \
		"$(printf "'%s' " "$2")" "got $(printf "'%s' " "$got")" "in $GD_CFG"
}

# setting STEP: /etc/default/grub for the test (serial console, no wait),
# then the lines read from stdin; update-grub.
setting() {
	gd_default_grub
	gd_mkconfig "$1"
}

gd_dpkg_tree
cp "${debs[0]}" "$GD_TREE/tmp/ramsift.deb"
grep -q ramsift "$GD_CFG" && e2e_fail "the first grub.cfg names ramsift already"

# Installed: the postinst's update-grub writes the entries.
gd_default_grub <<<"GRUB_RAMSIFT_CMDLINE=\"$cmdline\""
gd_dpkg install -i /tmp/ramsift.deb
grep -qxF 'Found ramsift image: /boot/ramsift.elf' "$GD_CFG.log" ||
	e2e_fail "update-grub in the postinst did not find /boot/ramsift.elf"
installed_cfg=$GD_CFG
entry() { # ID TITLE OPTIONS INDENT
	cat <<-EOF | sed "s/^/$4/"
		menuentry '$2' --class memtest --class ramsift \$menuentry_id_option 'ramsift-$1-/dev/sda1' {
		$(printf '\t')load_video
		$(printf '\t')insmod part_msdos
		$(printf '\t')insmod ext2
		$(printf '\t')echo$(printf '\t')'Loading ramsift ...'
		$(printf '\t')multiboot2$(printf '\t')/boot/ramsift.elf $3
		}
	EOF
}
want=$(
	entry default 'Memory test (ramsift)' "console=ttyS0,115200 $cmdline" ''
	echo "submenu 'Advanced options for ramsift' \$menuentry_id_option 'ramsift-advanced-/dev/sda1' {"
	entry alltests 'Memory test (ramsift, every test)' "console=ttyS0,115200 tests=all $cmdline" '\t'
	entry forever 'Memory test (ramsift, run until stopped)' "console=ttyS0,115200 passes=0 $cmdline" '\t'
	echo '}'
)
[ "$(block)" = "$want" ] || {
	diff <(echo "$want") <(block) >&2 || true
	e2e_fail "$GD_CFG: ramsift's entries differ from the expected ones (diff above: want, got)"
}
grub-script-check "$GD_CFG" || e2e_fail "grub-script-check rejects $GD_CFG"

# That grub.cfg boots ramsift on both firmwares.
iso=$E2E_DIR/$E2E_NAME.iso
gd_iso "$iso"
for fw in bios uefi; do
	fwopts=()
	[ $fw = bios ] || { e2e_uefi; fwopts=("${E2E_UEFI[@]}"); }
	e2e_boot -m 128M "${fwopts[@]}" -cdrom "$iso"
	cp "$E2E_LOG" "$E2E_DIR/$E2E_NAME-$fw.log"
	e2e_expect "Booting .Memory test \(ramsift\)'" "$fw: GRUB boots ramsift's default entry"
	e2e_expect_loader 'GRUB [^,]*' multiboot2
	e2e_expect "command line: 'console=ttyS0,115200 $cmdline'\$" "$fw: the entry's command line"
	e2e_expect '^console: framebuffer [0-9]+x[0-9]+x32 at 0x[0-9a-f]+: [0-9]+x[0-9]+ text' \
		"$fw: GRUB sets up a framebuffer (load_video) and ramsift draws on it"
	e2e_expect_pass
done
e2e_expect '^firmware: UEFI ' 'ramsift knows the machine booted through UEFI'

# The consoles, from GRUB's terminal and serial settings.
setting serial2 <<-'EOF'
	GRUB_TERMINAL="serial console"
	GRUB_SERIAL_COMMAND="serial --unit=1 --speed=57600"
EOF
expect_lines serial2 "$(printf ' console=ttyS1,57600 console=tty0%s\n' '' ' tests=all' ' passes=0')"
setting console <<<'GRUB_TERMINAL=console'
expect_lines console "$(printf '%s\n' '' ' tests=all' ' passes=0')"
setting io <<-'EOF'
	GRUB_TERMINAL=
	GRUB_TERMINAL_INPUT="console serial"
	GRUB_TERMINAL_OUTPUT="console serial"
	GRUB_SERIAL_COMMAND="serial --port=0x2f8 --speed=19200 --word=8 --parity=no --stop=1"
EOF
expect_lines io "$(printf ' console=ttyS1,19200 console=tty0%s\n' '' ' tests=all' ' passes=0')"
setting short <<<'GRUB_SERIAL_COMMAND="serial -u 3 -s 9600"'
expect_lines short "$(printf ' console=ttyS3,9600%s\n' '' ' tests=all' ' passes=0')"
setting com <<<'GRUB_SERIAL_COMMAND="serial --speed=38400 com2"'
expect_lines com "$(printf ' console=ttyS2,38400%s\n' '' ' tests=all' ' passes=0')"
# No command: GRUB's defaults, unit 0 at 9600 baud.
setting nocommand <<<'GRUB_SERIAL_COMMAND='
expect_lines nocommand "$(printf ' console=ttyS0,9600%s\n' '' ' tests=all' ' passes=0')"
# A port ramsift cannot drive: a warning, and ramsift's own defaults.
setting unit5 <<<'GRUB_SERIAL_COMMAND="serial --unit=5"'
expect_lines unit5 "$(printf '%s\n' '' ' tests=all' ' passes=0')"
grep -q "ramsift drives ttyS0-ttyS3 only" "$GD_CFG.log" || e2e_fail "unit5: no warning from 20_ramsift"

# GRUB_RAMSIFT_CMDLINE, from a file of /etc/default/grub.d, as written.
mkdir -p "$GD_TREE/etc/default/grub.d"
echo 'GRUB_RAMSIFT_CMDLINE="errors=7 seed=0x1f"' >"$GD_TREE/etc/default/grub.d/ramsift.cfg"
setting cmdline </dev/null
expect_lines cmdline "$(printf ' console=ttyS0,115200%s errors=7 seed=0x1f\n' '' ' tests=all' ' passes=0')"
rm -r "$GD_TREE/etc/default/grub.d"

# GRUB_DISABLE_SUBMENU: the three entries at the top level.
setting nosubmenu <<<'GRUB_DISABLE_SUBMENU=y'
[ "$(block | grep -c '^menuentry ')" -eq 3 ] && ! block | grep -q submenu ||
	e2e_fail "GRUB_DISABLE_SUBMENU=y: want 3 top-level entries, no submenu, in $GD_CFG"

# GRUB_DISABLE_RAMSIFT: no entry.
setting disabled <<<'GRUB_DISABLE_RAMSIFT=true'
[ -z "$(block)" ] || e2e_fail "GRUB_DISABLE_RAMSIFT=true: ramsift's entries are still in $GD_CFG"

# Removal: the postrm's update-grub leaves ramsift out, and so does the next.
gd_default_grub </dev/null
gd_dpkg remove -r ramsift
[ ! -e "$GD_BOOT/ramsift.elf" ] || e2e_fail "dpkg -r left /boot/ramsift.elf"
[ -x "$GD_TREE/etc/grub.d/20_ramsift" ] || e2e_fail "dpkg -r removed the conffile 20_ramsift"
[ -z "$(block)" ] || e2e_fail "$GD_CFG: ramsift's entries are still there after dpkg -r"
setting removed </dev/null
[ -z "$(block)" ] || e2e_fail "$GD_CFG: update-grub wrote ramsift's entries after dpkg -r"
gd_dpkg purge --purge ramsift
[ ! -e "$GD_TREE/etc/grub.d/20_ramsift" ] || e2e_fail "dpkg --purge left the conffile 20_ramsift"
! grep -q ramsift "$GD_CFG" || e2e_fail "$GD_CFG: ramsift is named after dpkg --purge"
rm -rf "$GD_TREE" "$iso"
