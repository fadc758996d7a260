#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Too little RAM. With -m 3M QEMU loads the image past the end of RAM (its
# stacks and .bss lie where no memory is): the 32-bit entry must say so and
# halt, no result line. With -m 7M the image fits but its page tables and
# working memory do not: the run must end ABORTED, saying how much RAM it
# needs (once it said "no free memory below 4 GiB" and, before onexit= was
# known, ignored onexit=qemu and halted).
. "$(dirname "$0")/lib.sh"

E2E_TIMEOUT=10
e2e_boot -m 3M -kernel "$ELF" -append "console=ttyS0,115200 $E2E_ARGS"
e2e_expect "^ramsift: too little memory: the loader's memory map has no RAM where ramsift's image lies\\.$" \
	'-m 3M: the entry names the cause'
e2e_expect '^Give the machine more memory \(ramsift needs about 9 MiB in all\)\. Halted\.$' '-m 3M: what to do'
e2e_expect_halted

E2E_TIMEOUT=120
e2e_boot -m 7M -kernel "$ELF" -append "console=ttyS0,115200 $E2E_ARGS"
e2e_expect '^error: too little memory: ramsift needs [0-9]+ KiB of free RAM .* give it at least 9 MiB$' \
	'-m 7M: the run names the cause and the RAM it needs'
e2e_expect_aborted '-m 7M'
