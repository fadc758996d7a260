# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/roundtrip/nvram.sh: the result kept in UEFI NVRAM and applied
# at the next boot. It reads and edits OVMF's VARS file with
# ramsift-varstore, makes and reads records with ramsift-mkrecord, boots
# the pre-loader, and boots Debian's kernel with an initramfs whose
# /payload (tests/linux/apply-guest.c) loads efivarfs.ko (from the cached
# kernel package: Debian builds it as a module) and runs the static
# ramsift-apply.

NVRAM_CPIO := $(B)/linux/apply.cpio

$(B)/linux/apply-guest: tests/linux/apply-guest.c lib/record/record.h
	$(call say,HOSTCC,$@)mkdir -p $(@D) && $(HOST_CC) $(RT_CFLAGS) -iquote lib -static -o $@ $<
$(B)/linux/efivarfs.ko: $(B)/linux/vmlinuz
	$(call say,UNPACK,$@)dpkg-deb --fsys-tarfile "$$(ls $(B)/linux/linux-image-*.deb | tail -n 1)" | \
		tar -xO --wildcards './lib/modules/*/kernel/fs/efivarfs/efivarfs.ko' >$@.tmp && mv $@.tmp $@
$(NVRAM_CPIO): $(B)/linux/init $(B)/linux/apply-guest $(B)/host/ramsift-apply-static $(B)/linux/efivarfs.ko
	$(call say,CPIO,$@)rm -rf $@.root && mkdir -p $@.root && cp $(B)/linux/init $@.root/init && \
	cp $(B)/linux/efivarfs.ko $@.root/ && \
	cp $(B)/linux/apply-guest $@.root/payload && cp $(B)/host/ramsift-apply-static $@.root/ramsift-apply && \
	(cd $@.root && find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) >$@ && rm -rf $@.root

RT_DEPS += $(B)/host/ramsift-varstore $(B)/host/ramsift-mkrecord $(NVRAM_CPIO)
