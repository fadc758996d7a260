# SPDX-License-Identifier: GPL-2.0-or-later
# The fault round trip: seeded DRAM fault sets held in QEMU's RAM
# are found exactly, folded, and excluded by a real GRUB (BIOS and UEFI,
# multiboot and multiboot2) and by Debian's own Linux kernel.
# Each tests/e2e/roundtrip/<scenario>.sh (it prints one PASS/FAIL line with
# its time, and a line per boot) is the make target check-rt-<scenario>, each
# variant below too; check-roundtrip runs them all. `make demo` is the
# walkthrough of docs/testing.md: a realistic fault set found, then excluded by GRUB.
# Host programs: ramsift-faultgen (fault sets), ramsift-check (the judge).
# Debian's kernel is fetched once with apt-get download into build/linux/
# (never committed) and booted with a tiny initramfs whose init is
# tests/linux/init.c. grub-default.sh runs Debian's own grub-mkconfig in a
# chroot it builds under build/test (as root; otherwise in a user namespace).

RT_SCRIPTS := $(filter-out %/lib-faults.sh %/demo.sh,$(sort $(wildcard tests/e2e/roundtrip/*.sh)))
RT_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -MMD -MP
RT_DEPS += $(B)/ramsift.elf $(B)/host/ramsift-inject $(B)/host/ramsift-faultgen \
	$(B)/host/ramsift-check $(B)/linux/vmlinuz $(B)/linux/initramfs.cpio \
	$(B)/host/ramsift-jsoncheck $(B)/debian13/grub/versions $(B)/debian13/linux/vmlinuz

$(B)/host/ramsift-faultgen: tests/faults/faultgen.c lib/memtest/prng.c
	$(call say,HOSTCC,$@)mkdir -p $(@D) && $(HOST_CC) $(RT_CFLAGS) -iquote lib -o $@ $^
$(B)/host/ramsift-check: tests/faults/check.c tests/faults/logread.c
	$(call say,HOSTCC,$@)mkdir -p $(@D) && $(HOST_CC) $(RT_CFLAGS) -o $@ $^

# The kernel: whatever linux-image-amd64 depends on today, cached.
$(B)/linux/vmlinuz: tests/linux/fetch-kernel.sh
	$(call say,FETCH,$@)sh $< $(@D)

# Debian 13's GRUB 2.12 images ($(B)/debian13/grub/usr/lib/grub/{i386-pc,
# x86_64-efi}) and kernel, fetched through a private sources list for trixie
# (the system's apt configuration untouched), cached under $(B)/debian13.
$(B)/debian13/grub/versions: tests/linux/fetch-debian13.sh
	$(call say,FETCH,$@)$< $(@D) grub-pc-bin grub-efi-amd64-bin
$(B)/debian13/linux/vmlinuz: tests/linux/fetch-debian13.sh tests/linux/fetch-kernel.sh
	$(call say,FETCH,$@)$< --kernel $(@D)

# The initramfs: /init only (it mounts devtmpfs and proc itself).
$(B)/linux/init: tests/linux/init.c
	$(call say,HOSTCC,$@)mkdir -p $(@D) && $(HOST_CC) $(RT_CFLAGS) -static -o $@ $<
$(B)/linux/initramfs.cpio: $(B)/linux/init
	$(call say,CPIO,$@)rm -rf $@.root && mkdir -p $@.root && cp $< $@.root/init && \
	(cd $@.root && echo init | cpio --quiet -o -H newc -R 0:0) >$@ && rm -rf $@.root

# The round trips again against what else users run (RT_GRUB, RT_LINUX:
# tests/e2e/roundtrip/lib-faults.sh), as docs/testing.md says why: GRUB 2.12
# with ramsift (BIOS, UEFI, multiboot, multiboot2); Debian 13's GRUB and
# kernel together, every set; each new one with the other's old one, the
# small set only (the one whose bad page lies where the kernel is loaded).
RT_SCRIPT_TARGETS := $(patsubst tests/e2e/roundtrip/%.sh,check-rt-%,$(RT_SCRIPTS))
RT_TARGETS := $(RT_SCRIPT_TARGETS)
# rt_variant NAME,ENVIRONMENT,SCRIPT: the target check-rt-NAME runs SCRIPT
# with the variables ENVIRONMENT (NAME is the scenario's name in its log).
define rt_variant
RT_TARGETS += check-rt-$(1)
check-rt-$(1): tests/e2e/roundtrip/$(3).sh $$$$(RT_DEPS)
	$$(Q)$(2) $$<
endef
$(eval $(call rt_variant,grub-roundtrip-grub2.12,RT_GRUB=2.12,grub-roundtrip))
$(eval $(call rt_variant,linux-roundtrip-grub2.12-linux6.12,RT_GRUB=2.12 RT_LINUX=6.12,linux-roundtrip))
$(eval $(call rt_variant,linux-roundtrip-grub2.12,RT_GRUB=2.12 RT_LINUX=6.1 RT_SETS=small,linux-roundtrip))
$(eval $(call rt_variant,linux-roundtrip-linux6.12,RT_GRUB=2.06 RT_LINUX=6.12 RT_SETS=small,linux-roundtrip))
$(eval $(call rt_variant,efi-reserve-grub2.12-linux6.12,RT_GRUB=2.12 RT_LINUX=6.12,efi-reserve))
$(eval $(call rt_variant,nvram-grub2.12,RT_GRUB=2.12,nvram))

.PHONY: check-roundtrip demo $(RT_TARGETS)
check-roundtrip: $(RT_TARGETS)
# RT_DEPS is read once every mk/*.mk has added to it (.SECONDEXPANSION).
$(RT_SCRIPT_TARGETS): check-rt-%: tests/e2e/roundtrip/%.sh $$(RT_DEPS)
	$(Q)$<

# Like `make run`: install what is missing first, then build, then boot.
demo:
	$(Q)sh tools/deps.sh
	$(Q)$(MAKE) --no-print-directory $(B)/ramsift.elf $(B)/host/ramsift-inject \
		$(B)/host/ramsift-faultgen $(B)/host/ramsift-check
	$(Q)tests/e2e/roundtrip/demo.sh

CHECK_TARGETS += check-roundtrip
