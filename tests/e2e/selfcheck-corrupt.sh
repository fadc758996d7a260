#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The self-check catches a change in ramsift's own code and read-only data:
# once the first test has begun (the CRCs are taken at the start),
# build/host/ramsift-inject holds bit 0 of one byte of .rodata (inside the
# text of a message a normal run never prints, so nothing else notices) at
# the opposite of its value, through QEMU's shared RAM file. The run must
# end ABORTED with `error: ramsift's own code changed in memory at ADDR: the
# RAM holding it is faulty`, ADDR that byte's physical address (the image
# sits where the loader: line says), the byte's old and new values, and the
# page in the memmap= line.
. "$(dirname "$0")/lib.sh"

# The byte: the first of a message of the lock checks (src/panic.c), as a
# file offset in the ELF, then its load address through .rodata's header.
off=$(grep -boa 'taken again by CPU' "$ELF" | head -n 1 | cut -d: -f1)
read -r rodata_lma rodata_off < <(objdump -h "$ELF" | awk '$2 == ".rodata" { print "0x" $5, "0x" $6 }')
[ -n "$off" ] && [ -n "$rodata_lma" ] || e2e_fail "no message text or .rodata found in $ELF"
lma=$((off - rodata_off + rodata_lma))
load=$((0x$(nm "$ELF" | awk '$3 == "image_start_phys" { print $1 }')))
byte=$(od -An -tu1 -j "$off" -N1 "$ELF" | tr -d ' ')
bit0=$((byte & 1))

e2e_ram 256M
start_injector() {
	e2e_wait_serial '^test march-c: start pass=1 ' || return 1
	# -kernel loads the image at its link address; the loader: line says so.
	image=$(sed -nE 's/^loader: .* image at (0x[0-9a-f]+);.*/\1/p' "$E2E_DIR/$E2E_NAME.serial")
	at=$((lma - load + image))
	echo "$at" >"$E2E_DIR/$E2E_NAME.at"
	exec "$B/host/ramsift-inject" --file "$E2E_RAM" "$(printf '0x%x:%d:%d' $((at & ~7)) $(((at & 7) * 8)) $((1 - bit0)))"
}
start_injector &
E2E_INJECTOR=$!
e2e_boot "${E2E_HELD[@]}" \
	-machine memory-backend=mem -kernel "$ELF" \
	-append "console=ttyS0,115200 $E2E_ARGS tests=march-c passes=3"

at=$(printf '0x%016x' "$(cat "$E2E_DIR/$E2E_NAME.at")")
e2e_expect_aborted
e2e_expect "^error: ramsift's own code changed in memory at $at: the RAM holding it is faulty$" \
	"the self-check's report naming $at"
e2e_expect "^error: self-check: after (test march-c|the move), the byte at $at reads $(printf '0x%02x' $((byte ^ 1))), was $(printf '0x%02x' "$byte"); " \
	'the byte, as it reads and as it was'
e2e_expect "^memmap=4K\\\$$(printf '0x%x' $((at & ~0xfff)))$" 'the page in the memmap= line'
e2e_expect_no '^ERROR ' 'no test saw it'
