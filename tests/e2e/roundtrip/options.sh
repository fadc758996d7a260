#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The options whose effect only a faulty machine shows, in a 64 MiB guest
# (QEMU -kernel) with stuck bits held:
# - seed=: a run without it prints the seed it drew and says to add seed=;
#   rerun with that seed, the random test's ERROR lines (address, expected
#   and actual value) are the same; with another seed the expected values
#   differ.
# - patterns= and holes=: six scattered cells folded into at most 2 pairs
#   cutting at most 3 holes; the judge checks the line against those limits.
. "$(dirname "$0")/lib-faults.sh"

rt_ram 64M
RT_FAULTS=$E2E_DIR/$E2E_NAME.faults
printf '%s\n' 0x1000008:3:1 0x1404010:17:0 0x1c81020:40:1 0x2213038:0:0 \
	0x2a00ff8:63:1 0x3333330:9:0 >"$RT_FAULTS"
rt_hold

# errors STEP ARGS: boot with tests=random; the run's ERROR lines without
# the pass and CPU fields go to build/test/options-STEP.errors.
errors() {
	rt_boot "$1" "${RT_MEM[@]}" -kernel "$ELF" -append "$RT_ARGS tests=random $2"
	rt_want FAIL
	sed -nE 's/^(ERROR addr=\S+ expected=\S+ actual=\S+) .*/\1/p' "$RT_LOG" \
		>"$E2E_DIR/$E2E_NAME-$1.errors"
}

errors drawn ""
seed=$(sed -nE 's/^run: .* seed=(0x[0-9a-f]+) .*\(add seed= with this value to repeat the random patterns\)$/\1/p' "$RT_LOG")
[ -n "$seed" ] || e2e_fail "a run without seed= must print its seed and say to add seed="
errors same "seed=$seed"
e2e_expect "^run: .* seed=$seed errors=[0-9]+ bitfade=[0-9]+$" 'the seed given is the seed used'
cmp -s "$E2E_DIR/$E2E_NAME-drawn.errors" "$E2E_DIR/$E2E_NAME-same.errors" ||
	e2e_fail "seed=$seed did not repeat the ERROR lines of the run that drew it"
errors other "seed=$(printf '0x%x' $((seed + 1)))"
[ "$(cut -d' ' -f3 "$E2E_DIR/$E2E_NAME-other.errors")" != \
  "$(cut -d' ' -f3 "$E2E_DIR/$E2E_NAME-drawn.errors")" ] ||
	e2e_fail "another seed wrote the same random values"

rt_boot budgets "${RT_MEM[@]}" -kernel "$ELF" -append "$RT_ARGS tests=own-address patterns=2 holes=3"
rt_want FAIL
rt_check found "$RT_FAULTS" "$RT_LOG" --patterns 2 --holes 3
e2e_expect '^fold: failing_pages=6 pairs=[12] holes=[123] ' 'the fold kept to patterns=2 holes=3'
