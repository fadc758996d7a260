#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Print the Debian mirror this machine's apt uses for SUITE: the first one
# its sources give (one-line .list entries or deb822 .sources stanzas), or
# nothing. dev/check-fresh.sh and dev/trixie-qemu.sh debootstrap from it.
# usage: dev/debian-mirror.sh SUITE
set -eu
suite=${1:?usage: dev/debian-mirror.sh SUITE}

{
	cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
		awk -v s="$suite" '$1 == "deb" { sub(/\[[^]]*\] */, ""); if ($3 == s) { print $2; exit } }'
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -e "$f" ] || continue
		awk -v s="$suite" '
			/^[ \t]*$/ { if (ok && uri != "") { print uri; exit } ok = 0; uri = ""; next }
			$1 == "URIs:" { uri = $2 }
			$1 == "Suites:" { for (i = 2; i <= NF; i++) if ($i == s) ok = 1 }
			END { if (ok && uri != "") print uri }' "$f"
	done
} | head -n 1
