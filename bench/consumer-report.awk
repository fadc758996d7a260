#!/usr/bin/awk -f
# SPDX-License-Identifier: GPL-2.0-or-later
# The report of bench/consumer.sh, in markdown, from its results file: one
# line "FW VM REP KEY VALUE" per finding of a boot (and "FW - - KEY VALUE"
# for the experiment: the line applied, the fold, the bytes the healthy VM
# reserves). Per firmware: each VM's stress verdict, then an lmbench-style
# table of each measurement's median over the boots with its min-max, and
# whether the protected VM is within the noise of the healthy one: the
# ratio of their geometric means over the boots lies within K standard
# errors of the host's boot-to-boot noise, estimated from the spread of the
# healthy and the protected boots of every firmware (a two-sample t-test on
# the logarithms; bench/README.md section 7 says why and what it can see).
# Ends with the two verdict lines that bench/consumer.sh checks. Variables:
# k, check, mem, stress, rounds, load, slow. Plain POSIX awk (Debian's mawk).

function sorted(list, out,    n, i, j, t) {
	n = split(list, out, " ")
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && out[j - 1] + 0 > out[j] + 0; j--) {
			t = out[j]; out[j] = out[j - 1]; out[j - 1] = t
		}
	return n
}

function median(list,    v, n) {
	n = sorted(list, v)
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}

function num(x) {
	return x >= 100 ? sprintf("%.0f", x) : x >= 10 ? sprintf("%.1f", x) : sprintf("%.2f", x)
}

# "median (min-max)" of a list, or "-" when empty.
function cell(list,    v, n) {
	n = sorted(list, v)
	if (n == 0)
		return "-"
	return num(median(list)) " (" num(v[1]) "-" num(v[n]) ")"
}

# Mean of the logarithms of a list (n values, n > 0).
function logmean(list,    v, n, i, sum) {
	n = split(list, v, " ")
	for (i = 1; i <= n; i++) sum += log(v[i])
	return sum / n
}

# Sum of the squared deviations of the logarithms from their mean.
function logss(list,    v, n, i, m, sum) {
	n = split(list, v, " ")
	m = logmean(list)
	for (i = 1; i <= n; i++) sum += (log(v[i]) - m) ^ 2
	return sum
}

function add(key, value) {
	vals[key] = (key in vals) ? vals[key] " " value : value
}

$2 == "-" { xp[$1, $4] = substr($0, length($1 $2 $3 $4) + 5); next }
{
	fw = $1; vm = $2; boot = $1 SUBSEP $2 SUBSEP $3
	if (!(fw in seen_fw)) { seen_fw[fw] = 1; fws[++nfw] = fw }
	if (!(boot in seen_boot)) { seen_boot[boot] = 1; boots[fw, vm] = boots[fw, vm] " " $3; nboots[fw, vm]++ }
	if ($4 ~ /^metric:/) {
		if (!((fw, $4) in seen_metric)) { seen_metric[fw, $4] = 1; metrics[fw, ++nmetric[fw]] = $4 }
		add(fw SUBSEP vm SUBSEP $4, $5)
	} else {
		f[boot, $4] = $5
	}
}

# Whether a boot showed corruption, and why (sets why).
function corrupt(boot) {
	why = ""
	if (f[boot, "vm_result"] != 0) why = why " VM did not end cleanly (qemu-run.sh status " f[boot, "vm_result"] ");"
	if (f[boot, "end"] != "clean" && f[boot, "end"] != "") why = why " payload ended: " f[boot, "end"] ";"
	if (f[boot, "payload_signal"] != "") why = why " payload killed by signal " f[boot, "payload_signal"] ";"
	else if (f[boot, "end"] == "") why = why " payload never ended;"
	if (check == 0 || stress > 0) {
		if (f[boot, "stress_status"] != "PASS") why = why " stressapptest " (f[boot, "stress_status"] == "" ? "gave no status" : f[boot, "stress_status"]) ";"
		if (f[boot, "stress_errors"] + 0 > 0) why = why " stressapptest errors " f[boot, "stress_errors"] ";"
	}
	if (f[boot, "pressure_errors"] != "0") why = why " pressure errors " (f[boot, "pressure_errors"] == "" ? "not reported" : f[boot, "pressure_errors"]) ";"
	if (f[boot, "kernel_messages"] + 0 > 0) why = why " kernel messages " f[boot, "kernel_messages"] ";"
	if (f[boot, "console_bad"] + 0 > 0) why = why " kernel fault lines on the console " f[boot, "console_bad"] ";"
	return why != ""
}

function field(fw, vm, key,    r, n, i, out, boot) {
	n = split(boots[fw, vm], r, " ")
	out = ""
	for (i = 1; i <= n; i++) {
		boot = fw SUBSEP vm SUBSEP r[i]
		out = out (i > 1 ? " " : "") (f[boot, key] == "" ? "-" : f[boot, key])
	}
	return out
}

END {
	verdict = 1; noise_ok = 1; noise_out = ""; nnoise = 0; nin = 0
	# The host's noise per measurement: the healthy and protected boots'
	# spread around their own means, pooled over the firmware.
	for (i = 1; i <= nfw; i++)
		for (m = 1; m <= nmetric[fws[i]]; m++)
			for (v = 1; v <= 2; v++) {
				key = metrics[fws[i], m]; list = vals[fws[i], v == 1 ? "healthy" : "protected", key]
				split(key, parts, ":")
				if (list == "") continue
				noise_ss[parts[2]] += logss(list); noise_df[parts[2]] += split(list, tmp, " ") - 1
			}
	print "## Linux on bad RAM, with and without ramsift's line"
	print ""
	print "Guest " mem ", stressapptest over 90 % of MemAvailable for " stress " s, the memory-pressure" \
		" test, " (check ? "no measurements (check-sized run)" : "each measurement the best of " rounds \
		" runs in the guest") "; host load average at the end " load "."
	if (slow)
		print "" ORS "**Negative control** (`--slow-protected`): a process spins beside the protected VM's" \
			" measurements; the noise verdict must fail."
	for (i = 1; i <= nfw; i++) {
		fw = fws[i]
		print ""
		print "### " (fw == "bios" ? "BIOS, GRUB's badram" : "UEFI, Linux's memmap=")
		print ""
		print "Line applied in the protected VM, from ramsift's run in this experiment: `" xp[fw, "line"] "`"
		fold = xp[fw, "fold"]
		print ""
		print "ramsift's `" fold "`" ((fw, "healthy") in nboots ? "; the healthy VM reserves as much: `memmap=" \
			xp[fw, "reserve_kib"] "K$0x8000000`." : ".")
		print ""
		print "| VM | boots | MemTotal, KiB | stress errors | pressure errors | kernel messages | corruption |"
		print "| --- | ---: | --- | --- | --- | --- | --- |"
		for (v = 1; v <= 3; v++) {
			vm = v == 1 ? "healthy" : v == 2 ? "unprotected" : "protected"
			if (!((fw, vm) in nboots))
				continue
			n = split(boots[fw, vm], r, " "); bad = 0; reasons = ""
			for (b = 1; b <= n; b++)
				if (corrupt(fw SUBSEP vm SUBSEP r[b])) { bad++; reasons = reasons " boot " r[b] ":" why }
			want_bad = vm == "unprotected"
			ok = want_bad ? bad == n : bad == 0
			if (!ok) verdict = 0
			print "| " vm " | " n " | " field(fw, vm, "memtotal_kib") " | " field(fw, vm, "stress_errors") \
				" | " field(fw, vm, "pressure_errors") " | " field(fw, vm, "kernel_messages") \
				" | " (bad ? bad " of " n " boots:" reasons : "none") (ok ? "" : " **(not as required)**") " |"
		}
		if (nmetric[fw] == 0)
			continue
		print ""
		print "| measurement | unit | healthy | unprotected | protected | protected within noise |"
		print "| --- | --- | --- | --- | --- | --- |"
		for (m = 1; m <= nmetric[fw]; m++) {
			key = metrics[fw, m]
			split(key, parts, ":")
			h = vals[fw, "healthy", key]; p = vals[fw, "protected", key]
			within = "**not judged**"
			nh = split(h, tmp, " "); np = split(p, tmp, " ")
			if (!(nh && np && noise_df[parts[2]] > 0)) {
				nunjudged++; unjudged = unjudged " " fw ":" parts[2]
			} else {
				se = sqrt(noise_ss[parts[2]] / noise_df[parts[2]] * (1 / nh + 1 / np))
				d = logmean(p) - logmean(h)
				nnoise++
				within = sprintf("x%.2f (bound x%.2f)", exp(d), exp(k * se))
				if (d <= k * se && d >= -k * se) { within = "yes: " within; nin++ }
				else { within = "**no**: " within; noise_ok = 0; noise_out = noise_out " " fw ":" parts[2] }
			}
			print "| " parts[2] " | " parts[3] " | " cell(h) " | " cell(vals[fw, "unprotected", key]) \
				" | " cell(p) " | " within " |"
		}
	}
	print ""
	print "Each cell: median over the boots (min-max). Within noise: the ratio of the protected to the" \
		" healthy VM's geometric mean over the boots (x) lies within " k " standard errors of the" \
		" host's boot-to-boot noise either way (the bound: e^(" k " se), se from the spread of the" \
		" healthy and protected boots of every firmware, pooled)."
	print ""
	print "Corruption verdict: " (verdict ? "**holds**" : "**fails**") \
		" (unprotected: corruption in every boot; healthy and protected: none)"
	if (nnoise && !nunjudged)
		print "Noise verdict: " (noise_ok ? "**holds**" : "**fails** for" noise_out) \
			" (" nin " of " nnoise " protected measurements within the noise)"
	else if (nunjudged)
		print "Noise verdict: **not judged** for" unjudged " (no healthy or no protected value, or one" \
			" boot of each VM: no boot-to-boot noise to compare with)" \
			(nnoise ? "; " nin " of the " nnoise " judged within the noise" (noise_ok ? "" : ", **fails** for" noise_out) : "")
	else if (!check)
		print "Noise verdict: **not judged** (no measurements)"
}
