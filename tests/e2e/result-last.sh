#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# onexit=halt, the default: what happens after the run (it halts, a key
# reboots) is said before the json: line, so the result line is the last
# line on the serial console, as the output contract says. Once the halted
# line came after it. QEMU is stopped a few seconds after the result line.
. "$(dirname "$0")/lib.sh"

raw=$E2E_DIR/$E2E_NAME.serial
: >"$raw"
qemu-system-x86_64 -accel tcg -m 64M -display none -monitor none -serial "file:$raw" \
	-kernel "$ELF" -append "console=ttyS0,115200 bitfade=0 tests=address-walk" \
	2>"$E2E_DIR/$E2E_NAME.stderr" &
qemu=$!
trap 'status=$?; kill $qemu 2>/dev/null || true; set +e; e2e_report "$status"' EXIT
for _ in $(seq "$E2E_TIMEOUT"); do
	grep -aq '^ramsift: result=' "$raw" && break
	sleep 1
done
sleep 3	# anything printed after the result line would be there by now
kill $qemu; wait $qemu || true
sed -e 's/\r//g' "$raw" >"$E2E_LOG"
e2e_check_json
[[ $(tail -n 1 "$E2E_LOG") =~ ^ramsift:\ result=PASS\  ]] ||
	e2e_fail "the result line is not the last: $(tail -n 1 "$E2E_LOG")"
[ "$(tail -n 4 "$E2E_LOG" | head -n 2)" = "ramsift: halted; it is safe to power off or reset the machine
ramsift: press any key to reboot" ] || e2e_fail 'the halt announced right before the json: line'
