# SPDX-License-Identifier: GPL-2.0-or-later
# The bootable ISO (GRUB for BIOS and UEFI, as a CD or dd'ed to a USB stick),
# and the two test ISOs the end-to-end scenarios boot: no menu wait, the result
# on QEMU's isa-debug-exit port; -mb1 starts the Multiboot 1 entry.

ISO_DEPS := $(B)/ramsift.elf iso/grub.cfg iso/mkiso.sh
ISO_TEST_FLAGS := -t 0 -a '$(shell grep -v '^\#' tests/e2e/kernel-args)'

iso: $(B)/ramsift.iso

$(B)/ramsift.iso: $(ISO_DEPS)
	$(call say,MKISO,$@)sh iso/mkiso.sh $< $@
$(B)/test/ramsift-test.iso: $(ISO_DEPS) tests/e2e/kernel-args
	$(call say,MKISO,$@)mkdir -p $(@D) && sh iso/mkiso.sh $(ISO_TEST_FLAGS) $< $@
$(B)/test/ramsift-test-mb1.iso: $(ISO_DEPS) tests/e2e/kernel-args
	$(call say,MKISO,$@)mkdir -p $(@D) && sh iso/mkiso.sh $(ISO_TEST_FLAGS) -e mb1 $< $@
