#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The limits the prose and the names keep (issue 39): no Markdown table cell
# in README.md, docs/*.md or bench/README.md over 400 characters (a long
# cell becomes a subsection), bench/README.md at most 250 lines, and no two
# product sources (boot, src, lib, efi, tools: *.c, *.h, *.S) with the same
# file name, so that a name means one file. Prints each breach, naming the
# file and line, and fails. Part of `make check-host`.
# Usage: dev/check-docs.sh [TREE] (the repository's root by default; the
# smoke test passes a copy).
set -eu
cd "${1:-$(dirname "$0")/..}"

max_cell=400
max_bench_lines=250
bad=0

# Table rows outside code fences, split on the pipes that are not escaped
# (GitHub's rule, code spans included; an escaped pipe counts as one
# character). A cell's characters are counted without the spaces around
# it, and without UTF-8's continuation bytes.
for f in README.md docs/*.md bench/README.md; do
	LC_ALL=C awk -v max="$max_cell" '
		/^[[:space:]]*```/ { fenced = !fenced; next }
		fenced || !/^[[:space:]]*\|/ { next }
		{
			row = $0
			gsub(/\\\|/, "\001", row)
			n = split(row, cells, "|")
			for (i = 1; i <= n; i++) {
				gsub(/^[[:space:]]+|[[:space:]]+$/, "", cells[i])
				chars = length(cells[i]) - gsub(/[\200-\277]/, "", cells[i])
				if (chars > max) {
					printf "check-docs: %s:%d: a table cell of %d characters (at most %d): make it a subsection\n", \
						FILENAME, FNR, chars, max
					bad = 1
				}
			}
		}
		END { exit bad }' "$f" >&2 || bad=1
done

lines=$(wc -l <bench/README.md)
if [ "$lines" -gt "$max_bench_lines" ]; then
	echo "check-docs: bench/README.md:$lines: $lines lines (at most $max_bench_lines)" >&2
	bad=1
fi

# Every file name that occurs twice, with each of its paths.
find boot src lib efi tools -name '*.[chS]' | sort | awk -F/ '
	{ paths[$NF] = paths[$NF] " " $0; count[$NF]++ }
	END {
		for (name in count)
			if (count[name] > 1) {
				printf "check-docs: %s names %d files:%s: rename them after what each does\n", \
					name, count[name], paths[name]
				bad = 1
			}
		exit bad
	}' >&2 || bad=1

exit $bad
