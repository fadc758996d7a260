# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end checks: every tests/e2e/<scenario>.sh boots the image or a test ISO
# in QEMU and prints one line (PASS/FAIL, seconds). Each is a make target of
# its own, check-e2e-<scenario>, so that `make -j check` runs them side by
# side; check-e2e runs them all. E2E_DEPS (other mk/*.mk add to it) is what
# every scenario needs; a few need more, named below their rule.
# `make run [MEM=2G] [CPUS=4] [ARGS='passes=2']` boots the image with the serial
# console on the terminal and exits with ramsift's result.

E2E_SCRIPTS := $(filter-out tests/e2e/lib%.sh,$(sort $(wildcard tests/e2e/*.sh)))
E2E_TARGETS := $(patsubst tests/e2e/%.sh,check-e2e-%,$(E2E_SCRIPTS))
E2E_DEPS += $(B)/ramsift.elf $(B)/test/ramsift-test.iso $(B)/test/ramsift-test-mb1.iso \
	$(B)/test/bad-magic-stub.elf $(B)/host/ramsift-jsoncheck

# bad-magic.sh's stub jumps to the image's entry point, read from its ELF header.
$(B)/test/bad-magic-stub.elf: tests/e2e/bad-magic-stub.S lib/boot/multiboot.h $(B)/ramsift.elf
	$(call say,AS,$@)mkdir -p $(@D) && \
	$(CC) -m32 -c -Ilib -D__ASSEMBLY__ -DRAMSIFT_ENTRY=$$(readelf -h $(B)/ramsift.elf | \
		awk '/Entry point address/ { print $$4 }') -o $@.o $< && \
	ld -m elf_i386 -Ttext=0x1000000 -o $@ $@.o

# Debian 13's QEMU for the x2APIC scenarios (dev/trixie-qemu.sh), built once.
$(B)/trixie-qemu/.trixie-ok:
	$(call say,GEN,$(B)/trixie-qemu)dev/trixie-qemu.sh --build

.PHONY: check-e2e $(E2E_TARGETS)
check-e2e: $(E2E_TARGETS)
# E2E_DEPS is read once every mk/*.mk has added to it (.SECONDEXPANSION).
$(E2E_TARGETS): check-e2e-%: tests/e2e/%.sh $$(E2E_DEPS)
	$(Q)$<
check-e2e-smp-x2apic check-e2e-smp-x2apic-uefi: $(B)/trixie-qemu/.trixie-ok

CHECK_TARGETS += check-e2e

MEM ?= 256M
# Every host core, one TCG thread each (CPUS=1 for one CPU).
CPUS ?= $(shell nproc)
ARGS ?=

# Exit status of dev/qemu-run.sh: 0 PASS, 1 FAIL, 2 ABORTED, 3 QEMU failed
# or gave no result line. The console and QEMU's monitor are on the terminal.
# Only what building and booting need is installed (deps.sh run).
run:
	$(Q)sh tools/deps.sh run
	$(Q)$(MAKE) --no-print-directory $(B)/ramsift.elf
	$(Q)echo "make run: QEMU with -m $(MEM) -smp $(CPUS), one CPU for each of the host's cores (CPUS=1 for one)"
	$(Q)dev/qemu-run.sh -a tcg,thread=multi -m $(MEM) -smp $(CPUS) -kernel $(B)/ramsift.elf \
		-append "console=ttyS0,115200 onexit=qemu $(ARGS)"
