# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end checks: every tests/e2e/<scenario>.sh boots the image or a test ISO
# in QEMU and prints one line (PASS/FAIL, seconds); all run, and check-e2e fails
# if any failed. `make run [MEM=2G] [ARGS='passes=2']` boots the image with the
# serial console on the terminal and exits with ramsift's result.

E2E_SCRIPTS := $(filter-out tests/e2e/lib%.sh,$(sort $(wildcard tests/e2e/*.sh)))

# bad-magic.sh's stub jumps to the image's entry point, read from its ELF header.
$(B)/test/bad-magic-stub.elf: tests/e2e/bad-magic-stub.S lib/boot/multiboot.h $(B)/ramsift.elf
	$(call say,AS,$@)mkdir -p $(@D) && \
	$(CC) -m32 -c -Ilib -D__ASSEMBLY__ -DRAMSIFT_ENTRY=$$(readelf -h $(B)/ramsift.elf | \
		awk '/Entry point address/ { print $$4 }') -o $@.o $< && \
	ld -m elf_i386 -Ttext=0x1000000 -o $@ $@.o

# Debian 13's QEMU for smp-x2apic.sh (tools/trixie-qemu.sh), built once.
$(B)/trixie-qemu/.trixie-ok:
	$(call say,GEN,$(B)/trixie-qemu)tools/trixie-qemu.sh --build

check-e2e: $(B)/ramsift.elf $(B)/test/ramsift-test.iso $(B)/test/ramsift-test-mb1.iso \
		$(B)/test/bad-magic-stub.elf $(B)/host/ramsift-inject $(B)/host/ramsift-jsoncheck \
		$(B)/trixie-qemu/.trixie-ok
	$(Q)failed=0; for t in $(E2E_SCRIPTS); do $$t || failed=1; done; exit $$failed

CHECK_TARGETS += check-e2e

MEM ?= 256M
ARGS ?=

# Exit status of tools/qemu-run.sh: 0 PASS, 1 FAIL, 2 ABORTED, 3 QEMU failed
# or gave no result line. The console and QEMU's monitor are on the terminal.
# Only what building and booting need is installed (deps.sh run).
run:
	$(Q)sh tools/deps.sh run
	$(Q)$(MAKE) --no-print-directory $(B)/ramsift.elf
	$(Q)tools/qemu-run.sh -m $(MEM) -kernel $(B)/ramsift.elf \
		-append "console=ttyS0,115200 onexit=qemu $(ARGS)"
