# SPDX-License-Identifier: GPL-2.0-or-later
# build/host/ramsift-varstore: reads and edits the UEFI variables of an OVMF
# VARS file on the host (tests/nvram/), for the end-to-end tests of the
# NVRAM record: what a boot wrote, a record planted before one, a store
# filled so that little space remains. Built with the host sanitizers: it
# parses files a test corrupted on purpose. check-varstore
# (tests/nvram/varstore-smoke.sh) edits a copy of OVMF's own VARS file and
# holds the tool to rejecting malformed ones; no QEMU.

VARSTORE_SRCS := tests/nvram/varstore.c tests/nvram/vstore.c

$(B)/host/ramsift-varstore: $(VARSTORE_SRCS) tests/nvram/vstore.h
	$(call say,HOSTCC,$@)mkdir -p $(@D) && $(HOST_CC) -std=gnu11 -O1 -g -Wall -Wextra -Werror \
		$(HOST_SAN) -o $@ $(VARSTORE_SRCS)

.PHONY: check-varstore
check-varstore: $(B)/host/ramsift-varstore
	$(Q)sh tests/nvram/varstore-smoke.sh $<

HOST_CHECKS += check-varstore
