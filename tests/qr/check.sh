#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `make check-qr`: lib/qr's symbols against two other programs. Usage:
# check.sh QRTOOL (build/host/qrtool). QR_SEED and QR_COUNT change the
# payloads (defaults below: 200 payloads, every version at every level, 1 to
# 2900 bytes). For each payload zbarimg must decode lib/qr's symbol to
# exactly the payload, and lib/qr forced to the mask qrencode -8 chose must
# give qrencode's matrix module for module. lib/qr's own choice of mask may
# differ from qrencode's only where libqrencode rounds the dark share to a
# whole percent before its 5 % steps (N4) and the standard does not, so the
# scores differ by 10 near 45/55 %, 40/60 %, ...: every disagreement must be
# such a case (qrtool says "n4-rounding"), and 3 in 4 payloads must agree.
# The two cores are shared, so no parallel jobs.
set -eu

tool=$1
seed=${QR_SEED:-0x5172}
count=${QR_COUNT:-200}

for p in zbarimg qrencode; do
	command -v "$p" >/dev/null || {
		echo "check-qr: $p is missing: make deps" >&2
		exit 1
	}
done

# --raw prints the bytes and a newline; binary payloads need -Sbinary as well
# (raw bytes, no newline), as with --raw alone zbar converts bytes it takes
# for ISO-8859-1 to UTF-8 (0xff comes back as c3 bf). Only the QR decoder is
# on: with all symbologies, random modules now and then read as a linear
# barcode too, an extra line of digits.
zbar="zbarimg --nodbus --raw -q -Sdisable -Sqrcode.enable"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$tool" gen "$dir" "$seed" "$count" >"$dir/manifest"

decoded=0 same=0 agree=0 total=0 failed=0
while read -r id kind level version mask len; do
	total=$((total + 1))
	f=$dir/$id
	if [ "$kind" = binary ]; then
		$zbar -Sbinary "$f.pgm" >"$f.out" 2>"$f.err" || true
		cp "$f.bin" "$f.want"
	else
		$zbar "$f.pgm" >"$f.out" 2>"$f.err" || true
		{ cat "$f.bin"; echo; } >"$f.want"
	fi
	if cmp -s "$f.want" "$f.out"; then
		decoded=$((decoded + 1))
	else
		echo "check-qr: $id ($kind, $len bytes, $version-$level, mask $mask): zbarimg did not decode it to the payload" >&2
		head -c 300 "$f.err" >&2
		failed=1
	fi

	qrencode -8 -l "$level" -v "$version" -m 0 -t ASCII -r "$f.bin" -o "$f.txt"
	# line: version level their-mask our-mask same|differ [why]
	rc=0
	line=$("$tool" compare "$f.bin" "$level" "$f.txt") || rc=$?
	if [ "$rc" -ge 2 ]; then
		failed=1
		continue
	fi
	set -- $line
	if [ "$rc" -eq 0 ]; then
		same=$((same + 1))
	else
		echo "check-qr: $id ($len bytes, $level): qrencode's matrix differs: $line" >&2
		failed=1
	fi
	[ "$1" = "$version" ] || {
		echo "check-qr: $id ($len bytes, $level): qrencode chose version $1, lib/qr $version" >&2
		failed=1
	}
	if [ "$3" = "$4" ]; then
		agree=$((agree + 1))
	elif [ "${6-}" != n4-rounding ]; then
		echo "check-qr: $id ($len bytes, $level): mask $4, qrencode's $3, not explained by N4 rounding" >&2
		failed=1
	fi
done <"$dir/manifest"

echo "  QR      zbarimg decoded $decoded/$total payloads bit-exact; qrencode's matrix matched $same/$total; masks chosen alike $agree/$total (the rest: N4 rounding)"
[ "$failed" -eq 0 ] && [ "$decoded" -eq "$total" ] && [ "$same" -eq "$total" ] &&
	[ $((agree * 4)) -ge $((total * 3)) ]
