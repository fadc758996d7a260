# SPDX-License-Identifier: GPL-2.0-or-later
# lib/qr held against other programs (tests/qr/check.sh): build/host/qrtool
# writes lib/qr's symbols as images for zbarimg to decode and compares its
# matrices with qrencode's. The unit tests of lib/qr's parts run in
# check-unit. Built like the unit tests, with the sanitizers.

$(B)/host/qrtool: tests/qr/qrtool.c $(HOST_LIBS)
	$(call say,HOSTLD,$@)mkdir -p $(@D) && $(HOST_CC) $(filter-out -Ilib,$(HOST_CFLAGS)) -iquote lib \
		-o $@ $< $(HOST_LINK) $(HOST_LDFLAGS)

.PHONY: check-qr
check-qr: $(B)/host/qrtool
	$(Q)sh tests/qr/check.sh $(B)/host/qrtool

HOST_CHECKS += check-qr
