# SPDX-License-Identifier: GPL-2.0-or-later
# ramsift-apply, the Linux side of the NVRAM result record (tools/apply/,
# dist/man/ramsift-apply.8): `make` builds build/ramsift-apply, which make
# install and make deb put in sbin, with Debian's hardening flags as
# ramsift-fold has; build/host/ramsift-apply-static is the same program
# linked statically, for a test that runs it in an initramfs with no C
# library; build/host/ramsift-apply-san has the sanitizers of the host
# builds, for check-apply. check-apply runs tests/apply/apply-smoke.sh on records
# that build/host/ramsift-mkrecord writes, with the sanitizers' build, then
# with the installed one (and the static one's --show against it), and
# tests/apply/apply-grub.sh, Debian's own grub-mkconfig on the file --install
# writes.

APPLY_SRCS := $(sort $(wildcard tools/apply/*.c))
APPLY_LIB_SRCS := $(sort $(wildcard lib/*.c lib/badram/*.c lib/record/*.c)) lib/boot/smbios.c \
	lib/run/status.c
# One compiler run over several sources leaves no usable .d: the headers are listed.
APPLY_HDRS := $(wildcard tools/apply/*.h lib/*.h lib/badram/*.h lib/record/*.h lib/boot/*.h \
	lib/run/*.h)
APPLY_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -iquote lib
APPLY_HARDENING := -D_FORTIFY_SOURCE=2 -fstack-protector-strong -Wformat -Werror=format-security \
	-Wl,-z,relro -Wl,-z,now
APPLY_BINS := $(B)/ramsift-apply $(B)/host/ramsift-apply-static $(B)/host/ramsift-apply-san

$(B)/ramsift-apply: APPLY_FLAGS := $(APPLY_HARDENING)
$(B)/host/ramsift-apply-static: APPLY_FLAGS := $(APPLY_HARDENING) -static
$(B)/host/ramsift-apply-san: APPLY_FLAGS := $(HOST_SAN)
$(APPLY_BINS): $(APPLY_SRCS) $(APPLY_LIB_SRCS) $(APPLY_HDRS)
	$(call say,HOSTCC,$@)mkdir -p $(@D) && $(HOST_CC) $(APPLY_CFLAGS) $(APPLY_FLAGS) -o $@ \
		$(APPLY_SRCS) $(APPLY_LIB_SRCS)

all: $(B)/ramsift-apply

.PHONY: check-apply
check-apply: $(APPLY_BINS) $(B)/host/ramsift-mkrecord $(B)/host/ramsift-jsoncheck $(B)/ramsift-fold
	$(Q)sh tests/apply/apply-smoke.sh $(B)/host/ramsift-apply-san $(B)/host/ramsift-mkrecord \
		$(B)/host/ramsift-jsoncheck $(B)/ramsift-fold
	$(Q)sh tests/apply/apply-smoke.sh $(B)/ramsift-apply $(B)/host/ramsift-mkrecord \
		$(B)/host/ramsift-jsoncheck $(B)/ramsift-fold $(B)/host/ramsift-apply-static
	$(Q)bash tests/apply/apply-grub.sh $(B)/ramsift-apply $(B)/host/ramsift-mkrecord

HOST_CHECKS += check-apply
