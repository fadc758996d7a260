#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Smoke test of dev/check-layers.sh's cycle check, on a copy of the folders
# it reads: it must pass on the copy as it is; fail naming the three modules
# when three new ones include each other in a ring (a.h -> b.h, b.c ->
# c.h, c.h -> a.h); and fail naming both when src/x86/trap.c
# includes "smp.h", which includes x86/trap.h (found through -Isrc, as the
# compiler finds it).
set -u
cd "$(dirname "$0")/../.."
tmp=${TMPDIR:-/tmp}/cycle-smoke.$$
trap 'rm -rf "$tmp"' EXIT
fails=0

# expect NAME WANT_STATUS WANT_REGEX: run the copy's check-layers.
expect() {
	sh "$tmp/dev/check-layers.sh" >"$tmp.out" 2>&1
	rc=$?
	if [ "$rc" != "$2" ] || ! grep -qE -- "$3" "$tmp.out"; then
		echo "FAIL cycle-smoke: $1: exit $rc (want $2), want a line matching: $3; got:"
		cat "$tmp.out"
		fails=1
	fi
}

mkdir -p "$tmp/dev"
cp -R lib src boot tests tools bench "$tmp/"
cp dev/check-layers.sh "$tmp/dev/"
expect "the copy as it is" 0 "^  LAYERS  "

printf '#include "ring_b.h"\n' >"$tmp/src/ring_a.h"
printf '\n' >"$tmp/src/ring_b.h"
printf '#include "ring_b.h"\n#include "ring_c.h"\n' >"$tmp/src/ring_b.c"
printf '#include "ring_a.h"\n' >"$tmp/src/ring_c.h"
expect "three modules in a ring" 1 \
	"^check-layers: src/ modules include each other in a cycle: (ring_a -> ring_b -> ring_c -> ring_a|ring_b -> ring_c -> ring_a -> ring_b|ring_c -> ring_a -> ring_b -> ring_c)$"
rm "$tmp"/src/ring_*

printf '#include "smp.h"\n' >>"$tmp/src/x86/trap.c"
expect "src/x86/trap.c includes smp.h" 1 \
	"^check-layers: src/ modules include each other in a cycle: (x86/trap -> smp -> x86/trap|smp -> x86/trap -> smp)$"

rm -f "$tmp.out"
[ $fails = 0 ] && echo "  SMOKE   check-layers: include cycles among src/ modules fail"
exit $fails
