#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `make check-deps`, the first of `make check`: every program and file in
# tools/deps.files must be on this machine and come from a package that
# tools/deps.sh installs or from Debian's base system (priority required or
# important), as dpkg -S says; and every program that the build's and the
# tests' scripts call (as dev/commands.awk finds them) must be listed in
# tools/deps.files. So a new tool, or a file of a package nobody installs,
# fails here on any machine, not only on a fresh one. A program's owner is
# the first name dpkg knows along its symlinks (cc: /usr/bin/cc, then the
# alternative /etc/alternatives/cc, then /usr/bin/gcc), under /usr or not
# (merged /usr: dpkg may know /bin/sh but not /usr/bin/sh).
set -euo pipefail
cd "$(dirname "$0")/.."

list=tools/deps.files
failed=0
fail() { echo "check-deps: $*" >&2; failed=1; }

pkgs=" $(sh tools/deps.sh --list | tr '\n' ' ') "
run_pkgs=" $(sh tools/deps.sh --list run | tr '\n' ' ') "

# The list: NAMES (programs and paths), WHY[name] (its comment), OPTIONAL.
names=() optional=" "
declare -A why run_entry
while IFS= read -r line; do
	entry=${line%%#*}
	entry=${entry//[[:space:]]/}
	[ -n "$entry" ] || continue
	if [ "${entry#\?}" != "$entry" ]; then
		optional="$optional${entry#\?} "
		continue
	fi
	names+=("$entry")
	why[$entry]=$(sed -n 's/^[^#]*#[[:space:]]*//p' <<<"$line")
	[[ ${why[$entry]} != '[run] '* ]] || { run_entry[$entry]=1; why[$entry]=${why[$entry]#\[run\] }; }
done < <(grep -v '^#' "$list")
listed=" ${names[*]} $optional"

# ---- the scripts' commands, against the list ---------------------------------
# dist/: the scripts a package installs (GRUB's menu script, the maintainer
# scripts) run in the tests' chroots too.
scripts=(Makefile mk/*.mk .ci/run dist/grub.d/* dist/debian/postinst dist/debian/postrm)
mapfile -t -O ${#scripts[@]} scripts < <(find tests tools dev bench iso dist -name '*.sh' | sort)
found=$(awk -f dev/commands.awk "${scripts[@]}")
functions=" $(awk '$2 == "function" { print $1 }' <<<"$found" | tr '\n' ' ') "
for must in qemu-system-x86_64 grub-mkrescue xorriso; do
	grep -q "^$must " <<<"$found" ||
		fail "dev/commands.awk found no call of $must in the scripts: the scan is broken"
done
while read -r word where; do
	[[ $listed != *" $word "* && $functions != *" $word "* ]] || continue
	[ "$(type -t "$word")" = file ] || continue
	fail "$where calls $word ($(command -v "$word")), which $list does not list:" \
		"add it there, and its package to tools/deps.sh unless Debian's base system has it"
done < <(awk '$2 != "function" && !seen[$1]++' <<<"$found")

# ---- each entry's package ----------------------------------------------------
# variants PATH: PATH, each step of its symlinks, the end, each with or
# without /usr; one a line, in that order.
variants() {
	local p=$1 t i
	for i in 1 2 3 4 5 6 7 8; do
		echo "$p"
		case $p in
		/usr/*) echo "${p#/usr}" ;;
		*) echo "/usr$p" ;;
		esac
		[ -L "$p" ] || break
		t=$(readlink "$p")
		[ "${t#/}" != "$t" ] || t=${p%/*}/$t
		p=$(realpath -s -m "$t")
	done
	p=$(readlink -f "$1")
	echo "$p"
	echo "/usr$p"
}

declare -A path chain owner
for n in "${names[@]}"; do
	if [ "${n#/}" != "$n" ]; then
		[ -e "$n" ] || { fail "$n is missing (${why[$n]:-listed in $list}): run as root: sh tools/deps.sh"; continue; }
		path[$n]=$n
	else
		path[$n]=$(type -P "$n") ||
			{ fail "no program $n on PATH (${why[$n]:-listed in $list}): run as root: sh tools/deps.sh"; continue; }
	fi
	chain[$n]=$(variants "${path[$n]}")
done

# One dpkg -S for every variant ("pkg[:arch][, pkg...]: /path" lines).
while IFS= read -r line; do
	case $line in "diversion by "*) continue ;; esac
	owner[${line#*: }]=${line%%: /*}
done < <(printf '%s\n' "${chain[@]}" | sort -u | xargs -r dpkg -S 2>/dev/null || true)

declare -A pkg_of
for n in "${!chain[@]}"; do
	while read -r v; do
		[ -z "${owner[$v]-}" ] || { pkg_of[$n]=${owner[$v]}; break; }
	done <<<"${chain[$n]}"
	[ -n "${pkg_of[$n]-}" ] ||
		fail "$n (${path[$n]}) belongs to no Debian package (installed by hand?): install it from a package and list that in tools/deps.sh"
done

declare -A priority
while read -r p prio; do
	priority[$p]=$prio
done < <(printf '%s\n' "${pkg_of[@]}" | tr ',' '\n' | sed 's/:.*//; s/ //g' | sort -u |
	xargs -r dpkg-query -W -f='${Package} ${Priority}\n')

# from PKGS N: a package N comes from is in the list PKGS or of the base system.
from() {
	local p
	for p in ${pkg_of[$2]//,/ }; do
		p=${p%%:*}
		case " ${priority[$p]-} $1" in
		" required "* | " important "* | *" $p "*) return 0 ;;
		esac
	done
	return 1
}

for n in "${!pkg_of[@]}"; do
	desc=
	for p in ${pkg_of[$n]//,/ }; do
		p=${p%%:*}
		desc="$desc${desc:+, }$p (priority ${priority[$p]:-unknown})"
	done
	label=$n
	[ "${path[$n]}" = "$n" ] || label="$n (${path[$n]})"
	from "$pkgs" "$n" ||
		fail "$label, used by ${why[$n]:-what $list says}, comes from $desc," \
			"which tools/deps.sh does not install: add it to PKGS in tools/deps.sh"
	[ -z "${run_entry[$n]-}" ] || from "$run_pkgs" "$n" ||
		fail "$label, used by ${why[$n]}, comes from $desc, which tools/deps.sh run" \
			"(make run) does not install: add it to RUN_PKGS in tools/deps.sh"
done

[ "$failed" = 0 ] || exit 1
echo "  DEPS    $list: ${#names[@]} programs and files, each from a package of" \
	"tools/deps.sh or of the base system (the ${#run_entry[@]} of make run from deps.sh run's);" \
	"every program the scripts call is listed"
