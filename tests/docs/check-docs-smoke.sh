#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# dev/check-docs.sh can fail: on a copy of the docs and a small tree of
# sources it passes, then each breach is made alone (a table cell of 401
# characters, bench/README.md of 251 lines, two sources with one file name)
# and must fail, naming the file and the line or the paths; the edges just
# inside each limit, code fences, UTF-8 and escaped pipes must not.
# Part of `make check-docs`.
set -eu
cd "$(dirname "$0")/../.."

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

# A tree with the real docs and a source of each product folder.
fresh() {
	rm -rf "$tmp/tree"
	mkdir -p "$tmp/tree/docs" "$tmp/tree/bench" "$tmp/tree/boot" "$tmp/tree/src/x86" \
		"$tmp/tree/lib/run" "$tmp/tree/efi" "$tmp/tree/tools" "$tmp/tree/tests/unit"
	cp README.md "$tmp/tree/"
	cp docs/*.md "$tmp/tree/docs/"
	cp bench/README.md "$tmp/tree/bench/"
	touch "$tmp/tree/boot/entry.S" "$tmp/tree/src/run.c" "$tmp/tree/src/run.h" \
		"$tmp/tree/src/x86/cpu.c" "$tmp/tree/lib/run/keys.c" "$tmp/tree/efi/map.c" \
		"$tmp/tree/tools/ramsift-fold.c" "$tmp/tree/tests/unit/test_run.c"
}

# N characters of C.
chars() {
	printf "%0${1}d" 0 | sed "s/0/$2/g"
}

# expect_pass WHAT / expect_fail WHAT TEXT: run the check on the tree.
expect_pass() {
	if ! sh dev/check-docs.sh "$tmp/tree" >"$tmp/out" 2>&1; then
		echo "check-docs-smoke: FAIL: $1: the check failed:" >&2
		cat "$tmp/out" >&2
		failed=1
	fi
}
expect_fail() {
	if sh dev/check-docs.sh "$tmp/tree" >"$tmp/out" 2>&1; then
		echo "check-docs-smoke: FAIL: $1: the check passed" >&2
		failed=1
	elif ! grep -qF "$2" "$tmp/out"; then
		echo "check-docs-smoke: FAIL: $1: no \"$2\" in:" >&2
		cat "$tmp/out" >&2
		failed=1
	fi
}

# a_table FILE CELL: a two-column table whose second cell is CELL, at the
# end of FILE; prints the row's line number.
a_table() {
	printf '\n| a | b |\n| --- | --- |\n| x | %s |\n' "$2" >>"$1"
	wc -l <"$1"
}

fresh
expect_pass "the docs as they are"

fresh
line=$(a_table "$tmp/tree/docs/design.md" "$(chars 400 x)")
expect_pass "a cell of 400 characters"
line=$(a_table "$tmp/tree/docs/design.md" "$(chars 401 x)")
expect_fail "a cell of 401 characters" "docs/design.md:$line: a table cell of 401 characters"

fresh
line=$(a_table "$tmp/tree/README.md" "$(chars 300 x) | $(chars 300 x)")
expect_pass "two cells of 300 characters"
line=$(a_table "$tmp/tree/README.md" "$(chars 300 x) \\| $(chars 300 x)")
expect_fail "an escaped pipe inside a cell" "README.md:$line: a table cell of 603 characters"

fresh
a_table "$tmp/tree/docs/testing.md" "$(chars 400 é)" >/dev/null
expect_pass "a cell of 400 two-byte characters"
line=$(a_table "$tmp/tree/docs/badram.md" "$(chars 401 é)")
expect_fail "a cell of 401 two-byte characters" "docs/badram.md:$line: a table cell of 401 characters"
fresh
printf '```\n| %s |\n```\n' "$(chars 500 x)" >>"$tmp/tree/docs/testing.md"
expect_pass "a long row in a code fence"

fresh
head -n 250 bench/README.md >"$tmp/tree/bench/README.md"
expect_pass "bench/README.md of 250 lines"
echo more >>"$tmp/tree/bench/README.md"
expect_fail "bench/README.md of 251 lines" "bench/README.md:251: 251 lines (at most 250)"

fresh
touch "$tmp/tree/tests/unit/cpu.c" "$tmp/tree/lib/run/run.S"
expect_pass "a test's and an extension's namesakes"
touch "$tmp/tree/lib/cpu.c"
expect_fail "lib/cpu.c beside src/x86/cpu.c" "cpu.c names 2 files: lib/cpu.c src/x86/cpu.c"
touch "$tmp/tree/efi/cpu.c"
expect_fail "three cpu.c" "cpu.c names 3 files: efi/cpu.c lib/cpu.c src/x86/cpu.c"

if [ $failed -ne 0 ]; then
	exit 1
fi
echo "check-docs-smoke: PASS"
