# SPDX-License-Identifier: GPL-2.0-or-later
# Print the words that shell scripts and makefiles put where a command goes,
# one "WORD FILE:LINE" a line, and every function they define as
# "WORD function". dev/check-deps.sh keeps the words that name a program on
# this machine and fails on any that tools/deps.files does not list.
# A small lexer, not a shell: it follows single and double quotes (across
# lines), $(...), `...`, (...), <(...), here-documents (skipped), comments,
# case patterns, assignments and the prefixes `timeout`, `env`, `exec`; in a
# makefile, recipe lines ($$ for $, make's $(VAR) as a word) and $(shell ...).
# Words it cannot see (a command held in a variable, a script's text inside
# single quotes such as an awk program or `sh -c '...'`) are missed: list
# those programs in tools/deps.files by hand.
# usage: awk -f dev/commands.awk FILE...   (makefile: Makefile or *.mk)

function reset_file() {
	sp = 0; sq = 0; hd = ""; hdtab = 0; cont = ""; cmdpos = 1; prefix = ""
	redir = 0; skipnext = 0
}

# emit WORD: a word in command position.
function emit(w) {
	if (w ~ /^[A-Za-z0-9_][A-Za-z0-9_.+-]*$/)
		print w, FILENAME ":" FNR
}

function is_keyword(w) {
	return w ~ /^(if|then|else|elif|fi|do|done|while|until|!|\{|\}|\[\[|time|exec|command|nohup)$/
}

# lex S: the tokens of one (joined) line, state kept across lines.
function lex(s,    n, i, c, c2, w, top, hdword) {
	n = length(s)
	i = 1
	while (i <= n) {
		c = substr(s, i, 1)
		c2 = substr(s, i, 2)
		top = sp > 0 ? stack[sp] : ""
		if (sq) {
			if (c == "'") sq = 0
			i++
			continue
		}
		if (top == "dq") {
			if (c == "\\") { i += 2; continue }
			if (c == "\"") { sp--; i++; continue }
			if (c2 == "$(" && substr(s, i + 2, 1) != "(") { stack[++sp] = "sub"; cmdpos = 1; i += 2; continue }
			if (c == "`") { stack[++sp] = "bq"; cmdpos = 1; i++; continue }
			i++
			continue
		}
		if (c == " " || c == "\t") { i++; continue }
		if (c == "#") return
		if (c == "\\") { i += 2; cmdpos = 0; continue }
		# A quoted word: also the target of a pending redirection.
		if (c == "'") { sq = 1; cmdpos = 0; redir = 0; i++; continue }
		if (c == "\"") { stack[++sp] = "dq"; cmdpos = 0; redir = 0; i++; continue }
		if (substr(s, i, 3) == "$((") {
			# Arithmetic: no commands; skip to the matching "))".
			w = index(substr(s, i), "))")
			i = w ? i + w + 1 : n + 1
			cmdpos = 0
			continue
		}
		if (c2 == "$(" || c2 == "<(" || c2 == ">(") { stack[++sp] = "sub"; cmdpos = 1; i += 2; continue }
		if (c == "`") {
			if (top == "bq") { sp--; cmdpos = 0 } else { stack[++sp] = "bq"; cmdpos = 1 }
			i++
			continue
		}
		if (c == "(") { stack[++sp] = "paren"; cmdpos = 1; i++; continue }
		if (c == ")") {
			if (top == "sub" || top == "paren") { sp--; cmdpos = 0 } else cmdpos = 1
			i++
			continue
		}
		if (c == ";" || c == "|" || c == "&") { cmdpos = 1; prefix = ""; i++; continue }
		if (c == "<" || c == ">") {
			if (substr(s, i, 3) == "<<<") { i += 3; redir = 1; continue }
			if (c2 == "<<") {
				# A here-document: its body (from the next line) is text.
				i += 2
				hdtab = substr(s, i, 1) == "-"
				if (hdtab) i++
				while (substr(s, i, 1) == " ") i++
				hdword = substr(s, i)
				sub(/[ \t;|&)<>].*/, "", hdword)
				i += length(hdword)
				gsub(/["']/, "", hdword)
				hd = hdword
				continue
			}
			i++
			while (substr(s, i, 1) ~ /[>&<]/) i++
			redir = 1
			continue
		}
		# A word: up to a blank or an operator.
		w = ""
		while (i <= n) {
			c = substr(s, i, 1)
			if (c ~ /[ \t;|&()<>"'`]/) break
			if (c == "\\") { w = w substr(s, i, 2); i += 2; continue }
			w = w c
			i++
		}
		if (w == "") { i++; continue }
		if (redir) { redir = 0; continue }
		if (!cmdpos) continue
		if (substr(s, i, 1) == ")" && sp == 0) continue	# a case pattern
		if (w ~ /^[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=/) continue	# an assignment
		if (w == "for" || w == "case" || w == "select" || w == "in") { cmdpos = 0; continue }
		if (is_keyword(w)) continue
		if (prefix != "") {
			# timeout's options and duration, env's options and assignments.
			if (w ~ /^-/ || (prefix == "timeout" && w ~ /^[0-9.]+[smhd]?$/)) {
				if (w == "-k" || w == "-s") skipnext = 1
				continue
			}
			if (skipnext) { skipnext = 0; continue }
			if (prefix == "env" && w ~ /=/) continue
			prefix = ""
		}
		emit(w)
		if (w == "timeout" || w == "env") prefix = w
		else cmdpos = 0
	}
}

FNR == 1 { reset_file(); mk = FILENAME ~ /(^|\/)(Makefile|[^\/]*\.mk)$/ }

# Function definitions, for check-deps to tell from programs.
!mk && /^[ \t]*[A-Za-z_][A-Za-z0-9_-]*[ \t]*\(\)/ {
	f = $0
	sub(/^[ \t]*/, "", f)
	sub(/[ \t]*\(.*/, "", f)
	print f, "function"
}

{
	line = $0
	if (hd != "") {
		if ((hdtab ? strip_tabs(line) : line) == hd) hd = ""
		next
	}
	if (mk) {
		if (cont == "" && line !~ /^\t/) {
			# Outside recipes only $(shell ...) runs commands.
			while (match(line, /\$\(shell [^()]*(\([^()]*\)[^()]*)*\)/)) {
				cmd = substr(line, RSTART + 8, RLENGTH - 9)
				line = substr(line, RSTART + RLENGTH)
				cmdpos = 1; sp = 0; sq = 0
				lex(cmd)
			}
			next
		}
		gsub(/\$\$/, "\001", line)
		gsub(/\$\(call say,[^)]*\)/, "", line)
		gsub(/\$\(Q\)/, "", line)
		gsub(/\$\([A-Za-z_@<^*?][^()]*\)|\$[@<^*?]/, "MAKEVAR", line)
		gsub(/\001/, "$", line)
		if (cont == "") { sub(/^\t[@+-]*/, "", line); cmdpos = 1; sp = 0; sq = 0 }
	}
	if (line ~ /\\$/ && !sq) {
		cont = cont substr(line, 1, length(line) - 1) " "
		next
	}
	line = cont line
	cont = ""
	lex(line)
	# A new line is a new command, unless a quote or a $(...) is still open.
	if (!sq && (sp == 0 || stack[sp] == "sub" || stack[sp] == "paren")) { cmdpos = 1; prefix = "" }
}

function strip_tabs(s) {
	sub(/^\t+/, "", s)
	return s
}
