#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A command line written as an adversary would: a newline and a forged
# result line, a terminal escape, an unknown test among known ones, two
# serial consoles, a long word, and more than the 2047 bytes ramsift keeps,
# cut inside a word (errors=7777 would read errors=77). The banner must come
# first, the text be escaped, the cut word be dropped and named, each
# warning say what was done, no line be longer than 511 bytes but the whole
# ones, and the one result line be the last.
. "$(dirname "$0")/lib.sh"

long=$(printf 'x%.0s' $(seq 300))
line="console=ttyS0,115200 $E2E_ARGS tests=address-walk,nonexistent"
line+=" console=ttyS1,57600 console=ttyS0 note=a"$'\n'"ramsift: result=PASS forged"
line+=" esc="$'\x1b'"[2J tests=address-walk,$long"
# QEMU puts the image's path and a space first; pad so that the cut falls
# three bytes into errors=7777.
used=$(( ${#ELF} + 1 + ${#line} + 1 ))
pad=$(printf 'p%.0s' $(seq $((2047 - used - 4 - 6))))
line+=" pad=$pad errors=7777 passes=2"

e2e_boot -m 64M -kernel "$ELF" -append "$line"

[[ $(head -n 1 "$E2E_LOG") =~ ^ramsift\ v?[0-9].*:\ memory\ tester$ ]] ||
	e2e_fail "the banner is not the first line: $(head -n 1 "$E2E_LOG")"
[[ $(tail -n 1 "$E2E_LOG") =~ ^ramsift:\ result=PASS\  ]] ||
	e2e_fail "the result line is not the last: $(tail -n 1 "$E2E_LOG")"
[ "$(grep -c '^ramsift: result=' "$E2E_LOG")" -eq 1 ] || e2e_fail 'a forged result line'
e2e_expect "^loader: .*; command line: '.* note=a\\\\nramsift: result=PASS forged esc=\\\\x1b\\[2J .* pad=p+ '\$" \
	'the loader: line whole, newline and ESC escaped, ending before the cut word'
grep -q $'\x1b' "$E2E_DIR/$E2E_NAME.stderr" "$E2E_LOG" && e2e_fail 'a raw ESC in the log'
e2e_expect "^warning: command line longer than 2047 bytes; ignored from 'errors=7777 passes=2\\.\\.\\.'\$" \
	'the cut named'
e2e_expect '^run: passes=1 seed=0x[0-9a-f]+ errors=100 ' 'the cut word and what follows not applied'
e2e_expect "^warning: command line: 'tests=address-walk,nonexistent': unknown test \"nonexistent\" left out, the others run; " \
	'only the unknown test named as left out'
e2e_expect '^test address-walk: start ' 'the known test runs'
e2e_expect "^warning: command line: 'console=ttyS0': one serial console only: ttyS0 is used, not the earlier ttyS1\$" \
	'the serial console used named'
longest=$(awk '{ if (length($0) > n && $0 !~ /^(loader|json|machine|dimm|windows):/) n = length($0) } END { print n }' "$E2E_LOG")
[ "$longest" -le 511 ] || e2e_fail "a log line of $longest bytes (want at most 511 but for the whole lines)"
