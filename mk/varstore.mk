# SPDX-License-Identifier: GPL-2.0-or-later
# build/host/ramsift-varstore: reads and edits the UEFI variables of an OVMF
# VARS file on the host (tests/nvram/), for the end-to-end tests of the
# NVRAM record: what a boot wrote, a record planted before one, a store
# filled so that little space remains. Built with the host sanitizers: it
# parses files a test corrupted on purpose. check-varstore
# (tests/nvram/varstore-smoke.sh) edits a copy of OVMF's own VARS file and
# holds the tool to rejecting malformed ones; no QEMU.
# check-varstore-ovmf (tests/nvram/varstore-ovmf.sh, about 2 minutes, not
# part of make check) boots OVMF to its UEFI shell on stores the tool
# edited: the firmware must read them, and QueryVariableInfo (queryvar.efi)
# say what the tool's "free" says.

VARSTORE_SRCS := tests/nvram/varstore.c tests/nvram/vstore.c lib/parse.c

$(B)/host/ramsift-varstore: $(VARSTORE_SRCS) tests/nvram/vstore.h lib/parse.h
	$(call say,HOSTCC,$@)mkdir -p $(@D) && $(HOST_CC) -std=gnu11 -O1 -g -Wall -Wextra -Werror \
		$(HOST_SAN) -iquote lib -o $@ $(VARSTORE_SRCS)

.PHONY: check-varstore
check-varstore: $(B)/host/ramsift-varstore
	$(Q)sh tests/nvram/varstore-smoke.sh $<

HOST_CHECKS += check-varstore

# queryvar.efi, for tests/nvram/varstore-ovmf.sh: built as mk/efi.mk builds
# the pre-loader.
$(B)/efi/tests/nvram/queryvar.so: $(B)/efi/tests/nvram/queryvar.c.o
	$(call say,EFILD,$@)ld -nostdlib -shared -Bsymbolic -znocombreloc -T $(EFI_LIBDIR)/elf_x86_64_efi.lds \
		$(EFI_LIBDIR)/crt0-efi-x86_64.o $^ -o $@ -L$(EFI_LIBDIR) -lefi -lgnuefi
$(B)/test/queryvar.efi: $(B)/efi/tests/nvram/queryvar.so
	$(call say,OBJCOPY,$@)mkdir -p $(@D) && objcopy -j .text -j .sdata -j .data -j .dynamic -j .dynsym -j .rel \
		-j .rela -j .rel.* -j .rela.* -j .reloc --target efi-app-x86_64 --subsystem=10 $< $@

.PHONY: check-varstore-ovmf
check-varstore-ovmf: $(B)/host/ramsift-varstore $(B)/test/queryvar.efi $(B)/host/ramsift-jsoncheck
	$(Q)bash tests/nvram/varstore-ovmf.sh
