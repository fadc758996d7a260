#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Clean RAM of several sizes (QEMU -kernel) passes with
# no ERROR line and no BadRAM line: 16 MiB (the smallest useful), 200 MiB
# (not a power of two), 1 GiB, and 3.5 GiB, whose last 512 MiB QEMU puts
# above 4 GiB. own-address (4 accesses a word) keeps the 3.5 GiB boot near
# 20 s; 16 MiB also runs march-c, the default pass's long test.
. "$(dirname "$0")/lib-faults.sh"

clean() {
	local mem=$1 tests=$2
	rt_boot "$mem-$tests" -m "$mem" -kernel "$ELF" -append "$RT_ARGS tests=$tests"
	e2e_expect_pass
	e2e_expect_no '^(ERROR |badram=|GRUB_BADRAM=|memmap=|fold: )' 'clean RAM'
}

clean 16M march-c
clean 16M own-address
clean 200M own-address
clean 1G own-address
clean 3584M own-address
e2e_expect '^  usable 0x0000000100000000-0x000000011fffffff 512 MiB$' \
	'the 512 MiB above 4 GiB in the map'
