#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Enforce the include rules of docs/design.md ("Layers and allowed
# dependencies") on every C and assembly source: prints each include that
# breaks one, naming the file, the line and the rule, and each include cycle
# among src/ modules, and fails. Fast (sed, awk and tsort); part of `make
# check-host` and `make check`.
set -eu
cd "$(dirname "$0")/.."

bad=0
broke() {
	echo "check-layers: $1: includes \"$2\": $3" >&2
	bad=1
}

# The quoted includes of a file, one per line.
includes() {
	sed -n 's/^#include "\([^"]*\)".*/\1/p' "$1"
}

for f in $(find lib src boot tests tools bench -name '*.[chS]' | sort); do
	dir=$(dirname "$f")
	for h in $(includes "$f"); do
		case $f in
		lib/*)
			# lib/ is freestanding: only lib/ headers (in the file's own
			# folder or named from lib/), and memaccess.h's "memrw.h",
			# which the build picks.
			if [ "$f:$h" = lib/memtest/memaccess.h:memrw.h ]; then
				continue
			fi
			if [ -f "$dir/$h" ]; then
				target=$dir/$h
			elif [ -f "lib/$h" ]; then
				target=lib/$h
			else
				broke "$f" "$h" "lib/ includes only lib/ headers (nothing from src/)"
				continue
			fi
			case $dir:$target in
			lib:lib/*/*)
				broke "$f" "$h" "the utilities at lib/'s root use no library" ;;
			lib/run:* | lib/record:*) ;;	# they combine the libraries
			lib/boot:lib/badram/badram.h) ;;	# the fold's budget limits
			lib/memtest:lib/dram/*) ;;	# the hammer test's rows and banks
			lib/*:lib/*/*)
				# memtest and badram use only the root and themselves;
				# boot only the fold's limits besides, memtest the DRAM
				# geometry.
				[ "$(dirname "$target")" = "$dir" ] ||
					broke "$f" "$h" "lib/boot, lib/memtest and lib/badram do not use each other"
				;;
			esac
			;;
		src/x86/*)
			# The machine layer: its own headers, lib/'s utilities, and
			# the ways out of it: the log and the panic path (which ends
			# the run).
			if [ -f "$dir/$h" ] || [ -f "lib/$h" ] && [ "${h#*/}" = "$h" ]; then
				continue
			fi
			case $h in
			log.h | panic.h) ;;
			*) broke "$f" "$h" "src/x86/ takes plain values: no policy, parser or library header" ;;
			esac
			;;
		esac
		# Outside the fold, the program uses only its public header
		# (unit tests and benchmarks may reach its parts).
		case $f:$h in
		lib/badram/* | tests/* | bench/*) ;;
		*:badram/*) [ "$h" = badram/badram.h ] ||
			broke "$f" "$h" "outside lib/badram/ only badram/badram.h is included" ;;
		esac
	done
done
# src/ is a tree: no include cycle among its modules (name.c + name.h, in
# src/ and src/x86/), of any length, so each can be read knowing only those
# below it; what two steps both need is passed down (src/run_ctx.h) or
# called through a hook (panic_set_end). Each include of a src/ header is an
# edge from the including module to the included one, found as the compiler
# finds it (the file's folder, then -Ilib, then -Isrc); tsort names the
# modules of each loop it meets, in include order.
module_edges() {
	for f in $(find src -name '*.[chS]' | sort); do
		dir=$(dirname "$f")
		for h in $(includes "$f"); do
			if [ -f "$dir/$h" ]; then
				to=$dir/$h
			elif [ -f "src/$h" ] && [ ! -f "lib/$h" ]; then
				to=src/$h
			else
				continue
			fi
			from=${f%.*} to=${to%.*}
			[ "$from" = "$to" ] || echo "${from#src/} ${to#src/}"
		done
	done
}
cycles=$(module_edges | tsort 2>&1 >/dev/null | awk '
	function out() { if (n && !seen[loop]++) print loop " -> " first; n = 0 }
	/input contains a loop/ { out(); next }
	{ sub(/^tsort: /, ""); if (n++) loop = loop " -> " $0; else loop = first = $0 }
	END { out() }')
if [ -n "$cycles" ]; then
	echo "$cycles" | while read -r cycle; do
		echo "check-layers: src/ modules include each other in a cycle: $cycle" >&2
	done
	bad=1
fi
[ "$bad" -eq 0 ] && echo "  LAYERS  the include rules hold"
exit "$bad"
