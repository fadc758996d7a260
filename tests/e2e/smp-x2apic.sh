#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# CPUs in x2APIC mode, with x2APIC IDs above 255. Debian 12's QEMU 7.2 has
# no x2APIC under TCG, so this runs Debian 13's QEMU 10 (dev/trixie-qemu.sh,
# which builds its root once). SeaBIOS turns the x2APIC on when an APIC ID
# does not fit in 8 bits: q35 with 256 cores a socket, -smp 2 (IDs 0 and 1)
# and two more CPUs in socket 1 (IDs 256 and 257), so the MADT lists x2APIC
# entries, INIT and STARTUP go through MSR 0x830 with 32-bit destinations,
# and the start-up code finds its slot by CPUID leaf 0BH. Expected: all four
# named in the cpus: line, the apic: line saying x2APIC mode on all of them,
# a clean PASS over all usable RAM (the APs parked and restarted at the move,
# woken by x2APIC IPIs at every barrier). Then `-cpu max,+x2apic -smp 4` on
# pc, where every ID fits 8 bits and SeaBIOS leaves the xAPIC mode on: the
# apic: line says so and the run passes as well.
. "$(dirname "$0")/lib.sh"

E2E_ACCEL=tcg,thread=multi
E2E_QEMU=dev/trixie-qemu.sh
e2e_x2apic
e2e_boot "${E2E_X2APIC[@]}" -m 64M -kernel "$ELF" -append "console=ttyS0,115200 $E2E_ARGS"
e2e_expect '^cpus: 4 found in the MADT, 4 started \(APIC IDs 0 1 256 257\)$' \
	'x2APIC IDs: the four CPUs started'
e2e_expect '^apic: x2APIC mode on all 4 CPUs started, as the firmware left it$' 'every CPU in x2APIC mode'
e2e_expect '^ramsift moved itself to ' 'the APs parked and started again at the move'
e2e_expect_pass

e2e_boot -cpu max,+x2apic -smp 4 -m 64M -kernel "$ELF" -append "console=ttyS0,115200 $E2E_ARGS"
e2e_expect '^cpus: 4 found in the MADT, 4 started \(APIC IDs 0 1 2 3\)$' '-smp 4: the four CPUs started'
e2e_expect '^apic: xAPIC mode on all 4 CPUs started, as the firmware left it$' \
	'-smp 4: SeaBIOS leaves the xAPIC on'
e2e_expect_pass
