# SPDX-License-Identifier: GPL-2.0-or-later
# Network boot: `make netboot` fills build/tftp/ with what a TFTP server
# needs to boot ramsift under BIOS and UEFI (dist/netboot/mknetboot.sh:
# GRUB's PXE and EFI network images from grub-mknetdir, the ISO's menu and
# image, an iPXE script); README's "Network boot" gives the DHCP server's
# side. build/test/tftp/ is the same from the test ISO (no menu wait, the
# result to QEMU) for the scenarios tests/e2e/pxe-*.sh, which boot it over
# QEMU's user networking.

NETBOOT_DEPS := dist/netboot/mknetboot.sh dist/netboot/ramsift.ipxe

.PHONY: netboot
netboot: $(B)/tftp/ramsift.ipxe

$(B)/tftp/ramsift.ipxe: $(B)/ramsift.iso $(NETBOOT_DEPS)
	$(call say,NETBOOT,$(@D))sh dist/netboot/mknetboot.sh $< $(@D)
$(B)/test/tftp/ramsift.ipxe: $(B)/test/ramsift-test.iso $(NETBOOT_DEPS) tests/e2e/kernel-args
	$(call say,NETBOOT,$(@D))sh dist/netboot/mknetboot.sh \
		-a '$(shell grep -v '^\#' tests/e2e/kernel-args)' $< $(@D)

E2E_DEPS += $(B)/test/tftp/ramsift.ipxe
